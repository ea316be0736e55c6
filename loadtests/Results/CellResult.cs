namespace Comparator.Results;

/// <summary>Identifies a cell: target x endpoint x payload size x concurrency, per driver and allotment of cores; a fixed-rate cell also by its asked rate.</summary>
/// <param name="Rate">requests/s asked at a constant arrival rate (open model); null for the closed loop</param>
/// <param name="Cores">the allotment of cores the server had ("1", "shared": RunSpec.Cores); null in files saved before it was recorded</param>
public sealed record CellKey(string Target, string Endpoint, long SizeBytes, int Concurrency, string Driver, double? Rate = null, string? Cores = null)
{
    /// <summary>"socket", or "socket @2000/s" for a fixed-rate cell: how the load was applied, for tables.</summary>
    public string Load => Rate is double r ? $"{Driver} @{r.ToString("0.#", System.Globalization.CultureInfo.InvariantCulture)}/s" : Driver;
}

/// <summary>
/// One cell: every repeat as measured, and the summary the reports show: the median repeat (by
/// requests/s), with the min and max of requests/s across repeats, and failure totals over all
/// repeats so that no failure can hide behind a median. <see cref="RpsCv"/> is the coefficient of
/// variation (sample standard deviation / mean) of requests/s over the repeats: 0 for one repeat,
/// null where not measured or in files written before it was recorded.
/// </summary>
public sealed record CellResult(
    CellKey Key,
    string Runtime,
    string SizeLabel,
    bool KeepAlive,
    IReadOnlyList<Measurement> Repeats,
    Measurement? Summary,
    double? RpsMin,
    double? RpsMax,
    long FailedTotal,
    long Non2xxTotal,
    IReadOnlyList<string> Flags,
    string? NotMeasuredReason,
    double? RpsCv = null)
{
    /// <summary>What bounded the cell (server, client, machine, wait); null where nothing was measured and in older files.</summary>
    public CellBottleneck? Bottleneck { get; init; }
}

/// <summary>Which endpoints vary by body size: the contract's echo endpoints and a scenario's operations with sizes (their cells carry a size label).</summary>
public static class CellSizes
{
    public const string NoSize = "-";

    public static bool HasSizes(this IEnumerable<CellResult> cells, string endpoint) =>
        System.Linq.Enumerable.Any(cells, c => c.Key.Endpoint == endpoint && c.SizeLabel != NoSize);
}

/// <summary>
/// What one measured window produced. Byte counts come from the sockets (headers and chunk framing
/// included); latency covers successful requests only; CPU figures are null where the server
/// process is not ours to read (an external target).
/// </summary>
public sealed record Measurement(
    long Requests,
    long Failed,
    long Non2xx,
    long Errors,
    long Timeouts,
    double ElapsedSeconds,
    double RequestsPerSecond,
    double LatencyMeanMs,
    double LatencyP50Ms,
    double LatencyP90Ms,
    double LatencyP99Ms,
    double LatencyMaxMs,
    long BytesReceived,
    long? BytesSent,
    long? BodyBytesReceived,
    long? ConnectionsOpened,
    double? ServerCpuSeconds,
    double? ServerPeakRssMb,
    double ClientCpuSeconds,
    IReadOnlyList<string> FailureSamples,
    IReadOnlyList<string> Limitations,
    DateTimeOffset? WindowStartedAt = null,
    int? Launch = null,
    int? Round = null,
    RuntimeCounters? Counters = null,
    double? MachineCpuSeconds = null,
    double? LatencyP999Ms = null,
    long? LateRequests = null,
    long? DroppedRequests = null,
    IReadOnlyList<PercentilePoint>? LatencyDistribution = null,
    string? LatencyHistogram = null,
    ThreadActivity? Threads = null,
    long? TlsHandshakes = null)
{
    // TlsHandshakes: an https target's TLS handshakes in the window, one per connection opened (the bytes then count TLS records); null over plain HTTP.
    // Threads: the server's context switches over the window and its thread count (every thread, /proc); null off Linux, for external targets and in older files.
    // LatencyHistogram: the window's whole HDR histogram (µs, 3 significant digits), compressed and base64
    // encoded as HdrHistogram's own log format writes it ("HISTF..."), so any percentile can be read later.
    // LatencyP999Ms: where the driver records a histogram (socket). LateRequests, DroppedRequests: fixed-rate windows only (see DriverWindow).
    // MachineCpuSeconds: every core's busy time over the window (/proc/stat), whoever used it; null off Linux and in older files.

    /// <summary>
    /// CPU seconds per second of the window used by processes other than the server and the driver
    /// (another tenant, a build, the kernel's own threads); null where either side is not read.
    /// </summary>
    public double? OtherCores => MachineCpuSeconds is double m && ServerCpuSeconds is double s && ElapsedSeconds > 0
        ? Math.Max(0, m - s - ClientCpuSeconds) / ElapsedSeconds
        : null;

    // Counters: the .NET runtime's counters over this window (EventPipe); null for Mono, external targets and older files.
    // Launch: which fresh start of the target this window belongs to (0-based), Round: its round in
    // that launch. Both null in files saved before launches were recorded.

    /// <summary>Requests that completed and passed every check.</summary>
    public long Succeeded => Requests - Failed;

    /// <summary>The server's context switches (voluntary and involuntary, every thread) per successful request.</summary>
    public double? SwitchesPerRequest => Threads is { } t && Succeeded > 0 ? (double)(t.VoluntarySwitches + t.InvoluntarySwitches) / Succeeded : null;

    public double? ServerCpuUsPerRequest => ServerCpuSeconds is double s && Succeeded > 0 ? s * 1e6 / Succeeded : null;

    /// <summary>ab's "Time per request" (mean across all concurrent requests): elapsed / requests.</summary>
    public double TimePerRequestAcrossMs => Succeeded > 0 ? ElapsedSeconds * 1000 / Succeeded : 0;

    public double TransferKBpsReceived => ElapsedSeconds > 0 ? BytesReceived / 1024.0 / ElapsedSeconds : 0;
    public double? TransferKBpsSent => ElapsedSeconds > 0 && BytesSent is long sent ? sent / 1024.0 / ElapsedSeconds : null;
}

/// <summary>
/// A server's thread hand-offs over one window, summed over every thread in /proc/PID/task/*/status:
/// voluntary switches (a thread waited: for a socket, a lock, another thread's work) and involuntary
/// ones (the scheduler took the core away); threads at the window's end, and the CPUs it may run on.
/// Threads that exit during the window take their switches with them (the kernel keeps those only
/// for the process's own getrusage), so the sums are a floor when threads come and go.
/// </summary>
public sealed record ThreadActivity(long VoluntarySwitches, long InvoluntarySwitches, int ThreadsAtEnd, string? CpusAllowed);
