using Comparator.Results;

namespace Comparator.Reports.Sections;

/// <summary>
/// Per payload size, what the requests/s mean for the data: body megabytes per second each way,
/// and what each response costs on the wire beyond its body (head and chunk framing), also as a
/// share of the body, which is where small payloads pay most. Echo endpoints only (they carry a body).
/// </summary>
public static class PayloadThroughput
{
    public const string Explanation =
        "Median repeat. Body MB/s (10^6 bytes) sent: the request bodies; received: the response bodies, de-framed. Overhead: response bytes on the wire beyond the body (head, chunk framing) per response, and as a share of the body.";

    /// <summary>The explanation, and where a target was asked over https, what its wire bytes hold.</summary>
    public static string ExplanationFor(RunResult run)
    {
        var https = run.Targets.Where(t => t.Tls is not null || t.BaseUrl?.StartsWith("https:", StringComparison.OrdinalIgnoreCase) == true).Select(t => t.Name).ToList();
        return https.Count == 0 ? Explanation : Explanation +
            $" {string.Join(", ", https)} answered over https: its wire bytes are TLS records as sent on the socket (each record's header and tag, and the handshake of every connection opened, tls_handshakes), so its overhead is not HTTP's alone.";
    }

    public static TextTable? Build(RunResult run)
    {
        var cells = run.ComparedCells().Where(c => c.Key.SizeBytes > 0 && c.Summary is { Succeeded: > 0, ElapsedSeconds: > 0 })
            .OrderBy(c => c.Key.Endpoint).ThenBy(c => c.Key.Concurrency).ThenBy(c => c.Key.SizeBytes).ThenBy(c => c.Key.Target).ToList();
        if (cells.Count == 0) return null;
        var rows = cells.Select(c =>
        {
            var m = c.Summary!;
            var sentMBps = c.Key.SizeBytes * (double)m.Requests / m.ElapsedSeconds / 1e6;
            var receivedMBps = m.BodyBytesReceived is long body ? body / m.ElapsedSeconds / 1e6 : (double?)null;
            var overhead = m.BodyBytesReceived is long b ? (m.BytesReceived - b) / (double)m.Requests : (double?)null;
            return (IReadOnlyList<string>)new[]
            {
                c.Key.Endpoint, c.SizeLabel, c.Key.Concurrency.ToString(CultureInfo.InvariantCulture), c.Key.Target,
                N(m.RequestsPerSecond, "0"), N(sentMBps, "0.00"), receivedMBps is double r ? N(r, "0.00") : "n/a",
                overhead is double o ? N(o, "0.0") : "n/a", overhead is double o2 ? N(100 * o2 / c.Key.SizeBytes, "0.0") + "%" : "n/a",
            };
        }).ToList();
        return new TextTable(new[] { "endpoint", "size", "conc", "target", "req/s", "body MB/s sent", "body MB/s received", "overhead B/response", "overhead / body" }, rows);
    }

    private static string N(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
