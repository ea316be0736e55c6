using System;
using System.Collections.Generic;
using System.Linq;
using Comparator.Results;

namespace Comparator.Statistics;

/// <summary>
/// The rules that say when a cell's figures should not be taken at face value. On a shared
/// machine the driver competes with the server for the same cores, so these are part of the result.
/// </summary>
public static class CellFlags
{
    public const string Failed = "failed";
    public const string ClientBound = "client-bound";
    public const string MachineBound = "machine-bound";
    public const string Noisy = "noisy";
    public const string NoServerCpu = "no-server-cpu";
    public const string NotMeasured = "not-measured";
    /// <summary>The driver cannot measure this endpoint faithfully (e.g. ab and chunked answers); not a failure.</summary>
    public const string NotApplicable = "n/a";
    public const string DriversDisagree = "drivers-disagree";
    /// <summary>The cores the cell could use were less than half busy: a wait, not the framework's work, set its pace (<see cref="BottleneckRule"/>).</summary>
    public const string WaitBound = "wait-bound";
    /// <summary>A .NET target's thread pool had work queued while it was adding threads: blocked threads set the pace.</summary>
    public const string Starved = "starved";

    /// <summary>A fixed-rate cell whose target did not keep up: it answered under the asked rate, or requests due in a window could not be sent.</summary>
    public const string Overloaded = "overloaded";

    /// <summary>The share of the asked rate under which a fixed-rate window did not keep up.</summary>
    public const double KeptUpShare = 0.97;

    /// <summary>Processes other than the server and the driver used CPU in the window: the machine was shared with them.</summary>
    public const string Contended = "contended";

    /// <summary>Cores' worth of CPU used by other processes in a window, at or above which it is contended: a quarter core, or a tenth of the machine.</summary>
    public static double ContendedCores(int logicalCores) => Math.Max(0.25, 0.1 * logicalCores);

    /// <summary>Threads the pool added within one window, at or above which a queued pool is starving rather than settling.</summary>
    public const double StarvedInjectedThreads = 2;

    /// <summary>The driver used this share of one core or more.</summary>
    public const double ClientBoundShare = 0.90;
    /// <summary>Driver plus server used this share of all cores or more.</summary>
    public const double MachineBoundShare = 0.90;
    /// <summary>
    /// Coefficient of variation of requests/s across repeats above which a cell is noisy when no
    /// precision is given; a run passes its --precision (default 5%): a cell is noisy when it is
    /// still above it after the most repeats it was allowed.
    /// </summary>
    public const double NoisyCv = RepeatRule.DefaultPrecision;

    /// <summary>What to do about a flag, for the outputs that show it.</summary>
    public static string? Hint(string flag) => flag switch
    {
        ClientBound => "client-bound cells measure the driver: try --pin 0:1, fewer connections (--concurrency), or --driver wrk; server CPU µs/req stays valid",
        MachineBound => "machine-bound cells share the cores between driver and server: compare server CPU µs/req rather than req/s, or use --pin",
        Noisy => "noisy cells varied more than --precision (CV of req/s over launches and rounds, see the cv column): their intervals are wide; more --launches narrow them, a quieter machine or --pin lowers the spread",
        DriversDisagree => "drivers disagree: the lower figure is usually a client-bound driver (see the drivers view)",
        Failed => "failed requests are out of req/s and latency; see failureSamples in results.json",
        WaitBound => "wait-bound cells kept the cores they could use less than half busy while each request stayed in flight far longer than its CPU cost " +
                     "(Little's law: concurrency ÷ req/s): a timer, a delayed ACK, a lock or a blocked pool set the pace, not the framework's work; no lead is claimed there (see \"What bounded each cell\")",
        Overloaded => "overloaded cells asked more than the target answered (achieved below 97% of the asked rate, or requests due that could not be sent): their latency is the queue's; ask a lower --rate",
        Contended => "contended cells shared the machine with other processes (a build, another tenant): their figures are lower and noisier than the stacks alone would give; measure on a quiet machine",
        Starved => "starved cells had work queued on the .NET thread pool while it was adding threads or while the cores stood idle: blocking calls held the pool's threads, " +
                   "so req/s and latency measure the pool, not the framework's work; no lead is claimed there (see the runtime counters)",
        _ => null,
    };

    /// <summary>
    /// A window of a .NET target whose thread pool kept work queued (a core's worth or more, median
    /// sample) while it was adding threads, or while the cores stood mostly idle: work waiting for a
    /// thread that no core is busy with means the pool's threads are blocked. A queue on busy cores
    /// with a steady pool is saturation, not starvation. (The pool does not always inject: when blocked
    /// threads still finish items now and then, its starvation check sees progress and waits.)
    /// </summary>
    public static bool IsStarved(Measurement window, int concurrency, int logicalCores) =>
        window.Counters is { } c && c.ThreadPoolQueueLengthMedian >= logicalCores &&
        (c.ThreadsInjected >= StarvedInjectedThreads ||
         BottleneckRule.Of(new[] { window }, concurrency, logicalCores, Array.Empty<string>()) is { Kind: CellBottleneck.Wait });

    /// <param name="logicalCores">the driver's machine's cores</param>
    /// <param name="rate">the asked rate of a fixed-rate cell: its pace is the rate, so it is judged on keeping up, not on its spread or its idle cores</param>
    /// <param name="serverCores">where the server ran on a machine of its own (a crank run with separate agents), that machine's cores; null when it shared the driver's</param>
    public static IReadOnlyList<string> For(IReadOnlyList<Measurement> repeats, int concurrency, int logicalCores, double precision = NoisyCv, double? rate = null, int? serverCores = null)
    {
        if (rate is double asked) return ForRate(repeats, asked, logicalCores, serverCores);
        var flags = new List<string>();
        if (repeats.Any(r => r.Failed > 0)) flags.Add(Failed);
        if (repeats.Any(r => r.ElapsedSeconds > 0 && r.ClientCpuSeconds / r.ElapsedSeconds >= ClientBoundShare)) flags.Add(ClientBound);
        if (repeats.Any(r => MachineBusy(r, serverCores) is double busy && busy >= MachineBoundShare * logicalCores)) flags.Add(MachineBound);
        if (Spread.CoefficientOfVariation(repeats.Select(r => r.RequestsPerSecond).ToList()) > precision) flags.Add(Noisy);
        if (repeats.Count > 0 && repeats.All(r => r.ServerCpuSeconds is null)) flags.Add(NoServerCpu);
        if (repeats.Any(r => Others(r, serverCores) >= ContendedCores(logicalCores))) flags.Add(Contended);
        if (BottleneckRule.Of(repeats, concurrency, logicalCores, flags, serverCores: serverCores) is { Kind: CellBottleneck.Wait }) flags.Add(WaitBound);
        if (repeats.Any(r => IsStarved(r, concurrency, serverCores ?? logicalCores))) flags.Add(Starved);
        return flags;
    }

    private static IReadOnlyList<string> ForRate(IReadOnlyList<Measurement> repeats, double asked, int logicalCores, int? serverCores)
    {
        var flags = new List<string>();
        if (repeats.Any(r => r.Failed > 0)) flags.Add(Failed);
        if (repeats.Any(r => r.RequestsPerSecond < KeptUpShare * asked || r.DroppedRequests > 0)) flags.Add(Overloaded);
        if (repeats.Any(r => r.ElapsedSeconds > 0 && r.ClientCpuSeconds / r.ElapsedSeconds >= ClientBoundShare)) flags.Add(ClientBound);
        if (repeats.Count > 0 && repeats.All(r => r.ServerCpuSeconds is null)) flags.Add(NoServerCpu);
        if (repeats.Any(r => Others(r, serverCores) >= ContendedCores(logicalCores))) flags.Add(Contended);
        return flags;
    }

    /// <summary>
    /// Cores the driver's machine was busy with the cell's work: driver plus server where they share it;
    /// on a machine of the driver's own, the whole machine as /proc/stat counted it (the server is elsewhere).
    /// </summary>
    private static double? MachineBusy(Measurement r, int? serverCores) => r.ElapsedSeconds <= 0 ? null
        : serverCores is null ? (r.ServerCpuSeconds is double s ? (s + r.ClientCpuSeconds) / r.ElapsedSeconds : null)
        : r.MachineCpuSeconds / r.ElapsedSeconds;

    /// <summary>Cores used on the driver's machine by processes other than the cell's own.</summary>
    private static double? Others(Measurement r, int? serverCores) => serverCores is null ? r.OtherCores
        : r.MachineCpuSeconds is double m && r.ElapsedSeconds > 0 ? Math.Max(0, m - r.ClientCpuSeconds) / r.ElapsedSeconds : null;
}
