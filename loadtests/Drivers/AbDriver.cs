using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Measuring;
using Comparator.Results;

namespace Comparator.Drivers;

/// <summary>
/// ApacheBench, the tool of the original WCF vs Web API studies, as a child process: -k for
/// keep-alive, -p for POST bodies, -u for PUT bodies, -e for latency percentiles with fractions of
/// a millisecond. ab is an HTTP/1.0 client and checks only status and response length.
/// </summary>
public sealed class AbDriver : ILoadDriver
{
    public const string DriverName = "ab";
    private readonly string _ab;
    private readonly string? _cpuList;

    public AbDriver(string? cpuList)
    {
        _ab = ToolProcess.Locate("ab", "apache2-utils", "ab.exe comes with the Apache httpd builds for Windows (such as Apache Lounge's), in their bin folder");
        _cpuList = cpuList;
    }

    public string Name => DriverName;

    public string Description =>
        "ApacheBench (Debian apache2-utils) as a child process; an HTTP/1.0 client that checks status and response length, not content";

    public string? CannotMeasure(LoadRequest request, bool keepAlive) =>
        request.Tls ? ToolSession.NotOverTls(DriverName)
        : request.AnswerChunked ? "ab speaks HTTP/1.0, so a streamed answer cannot come back chunked as the target sends it"
        : request.Method is not ("GET" or "HEAD" or "POST" or "PUT") ? $"ab sends GET, HEAD (-i), POST (-p) and PUT (-u) only, not {request.Method}"
        : request.AcceptsNon2xx ? $"ab counts every non-2xx answer as a failure, and this operation expects {string.Join(" or ", request.AcceptedStatus)}"
        : request.Varies is string varies ? $"ab sends one fixed request over and over, and this operation's requests vary ({varies})"
        : null;

    public IDriverSession Open(LoadRequest request, int concurrency, bool keepAlive, TimeSpan requestTimeout) =>
        new Session(this, request, concurrency, keepAlive, requestTimeout);

    /// <summary>
    /// One window from ab's parsed report: ab's failures less its own miscount of requests it sent
    /// after the server closed a kept-alive connection (see <see cref="AbReport"/>), which the
    /// limitations then spell out with ab's raw counts.
    /// </summary>
    public static DriverWindow Window(AbReport report, List<string> limitations, double clientCpuSeconds)
    {
        // Requests ab wrote after the server had ended the connection got no answer and were never
        // the server's to answer: neither requests nor failures here. ab's raw counts go in the note.
        var unanswered = report.UnansweredAfterClose;
        var echoed = report.ExceptionsEchoingClose;
        var requests = report.AnsweredRequests;
        var abFailed = report.RealFailedRequests;
        if (unanswered > 0)
        {
            limitations.Add(
                $"failed, requests: ab reported Complete requests {report.CompleteRequests}, Failed requests {report.FailedRequests} " +
                $"(Connect {report.FailedConnect}, Receive {report.FailedReceive}, Length {report.FailedLength}, Exceptions {report.FailedExceptions}); " +
                $"{unanswered} of those requests got no byte back because ab wrote them on kept-alive connections the server was ending " +
                "(as HTTP allows, e.g. HttpListener's 'Connection: close' after 100 requests, which ab ignores) and never sent them again; " +
                $"ab counted each as a complete request with a 0-byte body (Length) and {echoed} of them a second time as Exceptions (the reset that follows). " +
                $"They are left out of requests ({requests}) and failed ({abFailed} from ab, plus non-2xx); every answer that came back had the document's full length");
            limitations.Add($"latency_p50_ms, latency_p90_ms, latency_p99_ms, latency_max_ms: ab's -e percentiles include its {unanswered} unanswered requests; latency_mean_ms is concurrency x time / {requests}");
        }

        var failed = abFailed + report.Non2xxResponses;
        if (abFailed > 0 && report.Non2xxResponses > 0)
            limitations.Add("failed: ab counts a non-2xx answer whose length also differs in both 'Failed requests' and 'Non-2xx responses'");
        var samples = new List<string>();
        if (report.Non2xxResponses > 0) samples.Add($"non-2xx: {report.Non2xxResponses}");
        if (abFailed > 0)
            samples.Add($"ab failed requests: connect {report.FailedConnect}, receive {report.FailedReceive}, length {report.FailedLength - unanswered}, exceptions {report.FailedExceptions - echoed}" +
                (unanswered > 0 ? $" (after leaving out {unanswered} length and {echoed} exceptions counted for requests sent after the server's close)" : ""));
        double P(int percent) => report.PercentilesMs.TryGetValue(percent, out var ms) ? ms : 0;
        var meanMs = requests > 0 ? report.TimePerRequestMeanMs * report.CompleteRequests / requests : 0;
        return new DriverWindow(
            Requests: requests,
            Failed: Math.Min(failed, requests),
            Non2xx: report.Non2xxResponses,
            Errors: report.FailedConnect + report.FailedReceive + report.FailedExceptions - echoed,
            Timeouts: 0,
            ElapsedSeconds: report.TimeTakenSeconds,
            Latency: new LatencySummary(meanMs, P(50), P(90), P(99), P(100)),
            BytesReceived: report.TotalTransferred,
            BytesSent: report.TotalBodySent,
            BodyBytesReceived: report.HtmlTransferred,
            ConnectionsOpened: null,
            ClientCpuSeconds: clientCpuSeconds,
            FailureSamples: samples,
            Limitations: limitations);
    }

    private sealed class Session : ToolSession
    {
        private readonly AbDriver _driver;
        private readonly bool _keepAlive;

        public Session(AbDriver driver, LoadRequest request, int concurrency, bool keepAlive, TimeSpan timeout)
            : base(DriverName, request, concurrency, timeout)
        {
            _driver = driver;
            _keepAlive = keepAlive;
        }

        private string PercentileFile => ScratchFile("percentiles.csv");

        public override async Task<DriverWindow> RunAsync(TimeSpan duration, CancellationToken cancellationToken)
        {
            var (seconds, rounded) = WholeSeconds(DriverName, duration);
            var args = new List<string>();
            if (_keepAlive) args.Add("-k");
            if (Request.Method == "HEAD") args.Add("-i");
            args.AddRange(new[] { "-q", "-c", I(Concurrency), "-t", I(seconds), "-n", "100000000", "-s", I((int)Math.Ceiling(Timeout.TotalSeconds)), "-e", PercentileFile });
            if (BodyFile is not null) args.AddRange(new[] { Request.Method == "PUT" ? "-u" : "-p", BodyFile, "-T", Request.ContentType ?? ContentTypes.Binary });
            foreach (var (name, value) in Request.Headers)
                if (!name.Equals("Content-Type", StringComparison.OrdinalIgnoreCase)) args.AddRange(new[] { "-H", $"{name}: {value}" });
            args.Add(Request.Url.ToString());

            var run = await ToolProcess.RunAsync(_driver._ab, args, _driver._cpuList, TimeSpan.FromSeconds(seconds) + Timeout + TimeSpan.FromSeconds(10), cancellationToken);
            var limitations = new List<string>
            {
                "connections_opened: ab does not report connections",
                "latency_mean_ms: ab's 'Time per request (mean)', concurrency x time / requests",
            };
            if (rounded is not null) limitations.Add(rounded);
            if (Request.Body is null) limitations.Add("bytes_sent: ab reports bytes sent only for requests with a body");

            AbReport report;
            try
            {
                report = AbReport.Parse(run.Stdout, File.Exists(PercentileFile) ? await File.ReadAllTextAsync(PercentileFile, CancellationToken.None) : null);
            }
            catch (InvalidDataException)
            {
                // ab stops on its first socket error or timeout and then prints no report.
                var reason = run.TimedOut ? "timeout: ab did not finish" : "error: ab stopped: " + LastLine(run.Stderr + "\n" + run.Stdout);
                return new DriverWindow(1, 1, 0, run.TimedOut ? 0 : 1, run.TimedOut ? 1 : 0, seconds, LatencySummary.Empty, 0, null, null, null,
                    run.CpuSeconds, new[] { reason }, limitations);
            }

            return Window(report, limitations, run.CpuSeconds);
        }

        private static string LastLine(string text)
        {
            var lines = text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
            return lines.Length == 0 ? "no output" : lines[^1];
        }
    }
}
