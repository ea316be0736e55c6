using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Measuring;
using Comparator.Results;

namespace Comparator.Drivers;

/// <summary>
/// wrk as a child process, one thread (it leaves the other core to the server), HTTP/1.1; a Lua
/// script sets the method and body and prints exact figures when done. wrk counts only received
/// bytes and does not look at bodies: non-2xx answers and socket errors are its failures.
/// </summary>
public sealed class WrkDriver : ILoadDriver
{
    public const string DriverName = "wrk";
    public const int Threads = 1;
    private readonly string _wrk;
    private readonly string? _cpuList;

    public WrkDriver(string? cpuList)
    {
        _wrk = ToolProcess.Locate("wrk", "wrk", "wrk has no Windows build; use --driver socket, httpclient or ab");
        _cpuList = cpuList;
    }

    public string Name => DriverName;

    public string Description =>
        $"wrk (Debian) as a child process, {Threads} thread, HTTP/1.1, method and body from a Lua script; counts received bytes only and does not check bodies";

    public string? CannotMeasure(LoadRequest request, bool keepAlive) =>
        request.Tls ? ToolSession.NotOverTls(DriverName)
        : request.Method == "HEAD" ? "wrk waits for the body a HEAD answer announces but never sends (its parser is not told the method), so it counts no request"
        : request.AcceptsNon2xx ? $"wrk counts every non-2xx answer as a failure, and this operation expects {string.Join(" or ", request.AcceptedStatus)}"
        : request.Varies is string varies ? $"wrk sends the one request its script sets at start, and this operation's requests vary ({varies})"
        : null;

    public IDriverSession Open(LoadRequest request, int concurrency, bool keepAlive, TimeSpan requestTimeout) =>
        new Session(this, request, concurrency, keepAlive, requestTimeout);

    /// <summary>The Lua script for one request shape.</summary>
    public static string Script(LoadRequest request, string? bodyFile, bool keepAlive)
    {
        var lua = new StringBuilder();
        lua.AppendLine($"wrk.method = {Lua(request.Method)}");
        foreach (var (name, value) in request.Headers)
            lua.AppendLine($"wrk.headers[{Lua(name)}] = {Lua(value)}");
        if (bodyFile is not null)
        {
            lua.AppendLine($"local f = assert(io.open({Lua(bodyFile)}, \"rb\"))");
            lua.AppendLine("wrk.body = f:read(\"*all\")");
            lua.AppendLine("f:close()");
        }
        if (!keepAlive) lua.AppendLine("wrk.headers[\"Connection\"] = \"close\"");
        lua.AppendLine(WrkReport.DoneCallback);
        return lua.ToString();
    }

    /// <summary>A Lua string literal: quotes, backslashes and control characters escaped.</summary>
    private static string Lua(string text) =>
        "\"" + text.Replace("\\", "\\\\").Replace("\"", "\\\"").Replace("\n", "\\n").Replace("\r", "\\r") + "\"";

    private sealed class Session : ToolSession
    {
        private readonly WrkDriver _driver;

        public Session(WrkDriver driver, LoadRequest request, int concurrency, bool keepAlive, TimeSpan timeout)
            : base(DriverName, request, concurrency, timeout)
        {
            _driver = driver;
            File.WriteAllText(ScriptFile, Script(request, BodyFile, keepAlive));
        }

        private string ScriptFile => ScratchFile("request.lua");

        public override async Task<DriverWindow> RunAsync(TimeSpan duration, CancellationToken cancellationToken)
        {
            var (seconds, rounded) = WholeSeconds(DriverName, duration);
            var args = new List<string>
            {
                "-t", I(Threads), "-c", I(Math.Max(Concurrency, Threads)), "-d", I(seconds) + "s",
                "--timeout", I((int)Math.Ceiling(Timeout.TotalSeconds)) + "s", "--latency", "-s", ScriptFile, Request.Url.ToString(),
            };
            var run = await ToolProcess.RunAsync(_driver._wrk, args, _driver._cpuList, TimeSpan.FromSeconds(seconds) + Timeout + TimeSpan.FromSeconds(10), cancellationToken);
            var limitations = new List<string>
            {
                "bytes_sent: wrk counts only received bytes",
                "body_bytes_received: wrk does not separate bodies from heads",
                "connections_opened: wrk does not report connections",
                "latency: wrk's figures include non-2xx answers; bodies are not checked",
            };
            if (rounded is not null) limitations.Add(rounded);

            WrkReport report;
            try
            {
                report = WrkReport.Parse(run.Stdout);
            }
            catch (InvalidDataException e)
            {
                var reason = run.TimedOut ? "timeout: wrk did not finish" : "error: " + e.Message + ": " + run.Stderr.Trim();
                return new DriverWindow(1, 1, 0, 1, 0, seconds, LatencySummary.Empty, 0, null, null, null, run.CpuSeconds, new[] { reason }, limitations);
            }

            var errors = report.ConnectErrors + report.ReadErrors + report.WriteErrors;
            var succeeded = Math.Max(0, report.Requests - report.StatusErrors);
            var failed = report.StatusErrors + errors + report.Timeouts;
            var samples = new List<string>();
            if (report.StatusErrors > 0) samples.Add($"non-2xx or 3xx: {report.StatusErrors}");
            if (errors + report.Timeouts > 0)
                samples.Add($"socket errors: connect {report.ConnectErrors}, read {report.ReadErrors}, write {report.WriteErrors}, timeout {report.Timeouts}");
            return new DriverWindow(
                Requests: succeeded + failed,
                Failed: failed,
                Non2xx: report.StatusErrors,
                Errors: errors,
                Timeouts: report.Timeouts,
                ElapsedSeconds: report.DurationSeconds,
                Latency: new LatencySummary(report.LatencyMeanMs, report.LatencyP50Ms, report.LatencyP90Ms, report.LatencyP99Ms, report.LatencyMaxMs),
                BytesReceived: report.BytesRead,
                BytesSent: null,
                BodyBytesReceived: null,
                ConnectionsOpened: null,
                ClientCpuSeconds: run.CpuSeconds,
                FailureSamples: samples,
                Limitations: limitations);
        }
    }
}
