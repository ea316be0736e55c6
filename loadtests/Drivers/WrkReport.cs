using System.IO;
using System.Text.RegularExpressions;

namespace Comparator.Drivers;

/// <summary>
/// wrk's figures. The exact ones (bytes, counts, latency in µs) come from the line our Lua done()
/// callback prints; wrk's own text adds the socket-error and non-2xx lines, which must agree.
/// </summary>
public sealed record WrkReport(
    long Requests,
    double DurationSeconds,
    long BytesRead,
    long ConnectErrors,
    long ReadErrors,
    long WriteErrors,
    long StatusErrors,
    long Timeouts,
    double LatencyMeanMs,
    double LatencyP50Ms,
    double LatencyP90Ms,
    double LatencyP99Ms,
    double LatencyMaxMs)
{
    public const string DoneMarker = "COMPARATOR-WRK";

    public static WrkReport Parse(string output)
    {
        var done = Regex.Match(output, "^" + DoneMarker + " (.*)$", RegexOptions.Multiline);
        if (!done.Success) throw new InvalidDataException("wrk output has no " + DoneMarker + " line (did the Lua script run?)");
        var fields = done.Groups[1].Value;
        double F(string name)
        {
            var m = Regex.Match(fields, @"\b" + name + @"=([\d.]+)");
            if (!m.Success) throw new InvalidDataException($"wrk summary line lacks {name}");
            return double.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture);
        }

        var report = new WrkReport(
            (long)F("requests"), F("duration_us") / 1e6, (long)F("bytes"),
            (long)F("connect"), (long)F("read"), (long)F("write"), (long)F("status"), (long)F("timeout"),
            F("mean_us") / 1000, F("p50_us") / 1000, F("p90_us") / 1000, F("p99_us") / 1000, F("max_us") / 1000);

        // Cross-check with wrk's own text: a mismatch means the parse is wrong, not the server.
        var socket = Regex.Match(output, @"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)");
        if (socket.Success && (long.Parse(socket.Groups[1].Value) != report.ConnectErrors || long.Parse(socket.Groups[4].Value) != report.Timeouts))
            throw new InvalidDataException("wrk's socket errors line disagrees with its summary");
        var non2xx = Regex.Match(output, @"Non-2xx or 3xx responses: (\d+)");
        if (non2xx.Success && long.Parse(non2xx.Groups[1].Value) != report.StatusErrors)
            throw new InvalidDataException("wrk's non-2xx line disagrees with its summary");
        return report;
    }

    /// <summary>The Lua done() callback that prints the exact figures on one line.</summary>
    public const string DoneCallback = """
        done = function(summary, latency, requests)
          io.write(string.format("COMPARATOR-WRK requests=%d duration_us=%d bytes=%d connect=%d read=%d write=%d status=%d timeout=%d mean_us=%.3f p50_us=%d p90_us=%d p99_us=%d max_us=%d\n",
            summary.requests, summary.duration, summary.bytes, summary.errors.connect, summary.errors.read, summary.errors.write,
            summary.errors.status, summary.errors.timeout, latency.mean, latency:percentile(50), latency:percentile(90),
            latency:percentile(99), latency.max))
        end
        """;
}
