namespace Comparator.Results;

/// <summary>
/// The one identity of a cell: target x endpoint x payload size x concurrency, per driver and allotment of
/// cores; a fixed-rate cell also by its asked rate. The plan, the journal, the results, the verdicts,
/// `diff` and capacity all key a cell by it (the plan and a capacity with <see cref="AnyTarget"/>).
/// </summary>
/// <param name="Rate">requests/s asked at a constant arrival rate (open model); null for the closed loop</param>
/// <param name="Cores">the allotment of cores the server had ("1", "shared": RunSpec.Cores); null in files saved before it was recorded</param>
public sealed record CellKey(string Target, string Endpoint, long SizeBytes, int Concurrency, string Driver, double? Rate = null, string? Cores = null)
{
    /// <summary>The target of a key that stands for the cell on every target (the plan's, a capacity found in the first launch).</summary>
    public const string AnyTarget = "";

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

    /// <summary>
    /// The windows of the simulated pass (--counters simulated): the target run on valgrind's simulated CPU in launches of its own, after
    /// the measured windows; null where the cell was not simulated.
    /// </summary>
    public IReadOnlyList<Measurement>? Simulated { get; init; }

    /// <summary>
    /// The windows a figure is read from: the measured ones, or for a simulated figure one per launch of the simulated pass (<see cref="PerLaunch"/>).
    /// </summary>
    public IReadOnlyList<Measurement> WindowsOf(MetricDescriptor figure) =>
        figure.Pass == MetricPass.Simulated ? PerLaunch(Simulated ?? Array.Empty<Measurement>()) : Repeats;

    /// <summary>
    /// A simulated launch's windows as one: the median of its windows' counts a request, the mean of the middle two of its four. A window can
    /// take in work a launch's others do not (a major collection: webapi-selfhost's echo-put 64KB counted about 590k a request and one window
    /// in nine about 715k), which the median leaves out where a launch's whole count would carry it (A/A: 7% between launches there). And a
    /// collection can come every other window (wcf-classic's echo-put 4KB, windows of 101 requests: about 851k and 920k by turns): the median
    /// of three then took one or the other by the draw (A/A: 7% between launches), where the middle two of four hold one of each.
    /// </summary>
    public static IReadOnlyList<Measurement> PerLaunch(IReadOnlyList<Measurement> windows) =>
        windows.GroupBy(w => w.Launch).Select(launch =>
        {
            var requests = launch.Sum(w => w.Requests);
            var failed = launch.Sum(w => w.Failed);
            var counts = launch.Select(w => Metrics.SimulatedInstructionsPerRequest.Of(w)).ToList();
            var perRequest = counts.Any(c => c is null) ? null : Median(counts.OfType<double>().ToList());
            return Measurement.Of((Metrics.Requests, requests), (Metrics.Failed, failed), (Metrics.ElapsedSeconds, launch.Sum(w => w.ElapsedSeconds)),
                (Metrics.SimulatedInstructions, perRequest * (requests - failed)), (Metrics.SimulatedCompilerInstructions, launch.Sum(w => Metrics.SimulatedCompilerInstructions.Of(w) ?? 0)),
                (Metrics.SimulatedInstructionsPerRequest, perRequest))
                with { Launch = launch.Key, Round = 0 };
        }).ToList();

    /// <summary>The median, the mean of the middle two of an even count; null for none.</summary>
    public static double? Median(IReadOnlyList<double> values)
    {
        if (values.Count == 0) return null;
        var sorted = values.Order().ToList();
        return (sorted[(sorted.Count - 1) / 2] + sorted[sorted.Count / 2]) / 2;
    }
}

/// <summary>Which endpoints vary by body size: the contract's echo endpoints and a scenario's operations with sizes (their cells carry a size label).</summary>
public static class CellSizes
{
    public const string NoSize = "-";

    public static bool HasSizes(this IEnumerable<CellResult> cells, string endpoint) =>
        System.Linq.Enumerable.Any(cells, c => c.Key.Endpoint == endpoint && c.SizeLabel != NoSize);
}

/// <summary>
/// A server's thread hand-offs over one window, summed over every thread in /proc/PID/task/*/status:
/// voluntary switches (a thread waited: for a socket, a lock, another thread's work) and involuntary
/// ones (the scheduler took the core away); threads at the window's end, and the CPUs it may run on.
/// Threads that exit during the window take their switches with them (the kernel keeps those only
/// for the process's own getrusage), so the sums are a floor when threads come and go.
/// </summary>
public sealed record ThreadActivity(long VoluntarySwitches, long InvoluntarySwitches, int ThreadsAtEnd, string? CpusAllowed);
