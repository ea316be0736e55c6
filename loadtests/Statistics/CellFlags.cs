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
    public static double ContendedCores(int logicalCores) => Math.Max(ContendedMinCores, ContendedShareOfCores * logicalCores);
    public const double ContendedMinCores = 0.25;
    public const double ContendedShareOfCores = 0.1;

    /// <summary>The hypervisor took CPU from this machine in a window (steal time): the cores the run counted on were not all there.</summary>
    public const string Stolen = "stolen";

    /// <summary>Cores' worth of steal time in a window at or above which it is flagged: a twentieth of a core.</summary>
    public const double StolenCores = 0.05;

    /// <summary>A .NET target's runtime compiled methods in a window (tiered JIT still at work): the window carries the compiler's cost.</summary>
    public const string Compiling = "compiling";

    /// <summary>
    /// JIT milliseconds per second of a window above which the runtime was still compiling in earnest: 5% of one core.
    /// A warmed .NET 10 target still rejits a few methods now and then (kestrel and aspnetcore on this project's 2-core
    /// machine: 0 to 25 ms/s per window after the steady warm-up), where an unwarmed first window compiles 200 to 560 ms/s.
    /// </summary>
    public const double CompilingJitMsPerSecond = 50;

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

    /// <summary>A flag in a reviewer's words, for a cell's line in report.html (the flag's name stays in the tables and the meanings).</summary>
    public static string Words(string flag) => flag switch
    {
        Failed => "some requests failed",
        ClientBound => "the load generator was the limit",
        MachineBound => "shared the CPU with the load generator",
        Noisy => "moved from launch to launch",
        WaitBound => "paced by a wait, not by work",
        Starved => "the thread pool was starved",
        Overloaded => "did not keep up with the rate",
        Contended => "another process took CPU",
        Stolen => "the hypervisor took CPU",
        Compiling => "still compiling",
        DriversDisagree => "the drivers disagree",
        _ => flag,
    };

    /// <summary>
    /// Every flag as every output explains it, in the order they list them: what it means, its threshold
    /// read from the constants above, and what to do where a run has it. <paramref name="precisionPercent"/>
    /// is the run's --precision, where it recorded one.
    /// </summary>
    public static IReadOnlyList<FlagMeaning> Meanings(double? precisionPercent = null) => new FlagMeaning[]
    {
        new(Failed, "some requests failed: non-2xx, error, timeout or a wrong body; they are out of req/s and latency, and counted in `failed`",
            "see failureSamples in results.json"),
        new(ClientBound, $"the driver used {Percent(ClientBoundShare)} or more of one core: the figures may measure the driver, not the server",
            "try --pin 0:1, fewer connections (--concurrency), or --driver wrk; server CPU µs/req stays valid"),
        new(MachineBound, $"driver and server together used {Percent(MachineBoundShare)} or more of all cores: they compete for CPU, and the machine may cap both",
            "compare server CPU µs/req rather than req/s, or use --pin"),
        new(Noisy, $"the CV of req/s over its launches and rounds, the cv column, was above {(precisionPercent is double p ? Percent(p / 100) : "--precision")}: " +
                   "the figure moves from process to process, and the interval of its ratio is wide there",
            "more --launches narrow the interval; a quieter machine or --pin lowers the spread"),
        new(WaitBound, $"the cores the cell could use were less than {Percent(BottleneckRule.WaitBoundShare)} busy while each request stayed in flight far longer than its CPU cost: " +
                       "a wait set the pace, not the framework's work, so no lead is claimed there",
            "a timer, a delayed ACK, a lock or a blocked pool is the usual wait; time in flight is concurrency ÷ req/s (Little's law), see \"What bounded each cell\""),
        new(Starved, $"a .NET target's thread pool kept work queued while its cores were less than {Percent(MachineBoundShare)} busy and it added {StarvedInjectedThreads} threads or more in a window, or while the cores stood idle: " +
                     "blocked threads set the pace, so no lead is claimed there",
            "req/s and latency measure the pool, not the framework's work: find the blocking calls that hold its threads (see the runtime counters)"),
        new(Contended, $"other processes on the machine used {N(ContendedMinCores)} core or more during a window, or {Percent(ContendedShareOfCores)} of the cores on larger machines: " +
                       "the stacks shared the cores with them",
            "their figures are lower and noisier than the stacks alone would give: measure on a quiet machine"),
        new(Stolen, $"the hypervisor took {N(StolenCores)} core or more of this machine's CPU during a window (steal time in /proc/stat): the stacks ran on less than the machine's cores",
            "the time-based figures (req/s, CPU time, latency) moved with it; instructions per request did not: a dedicated machine or host has none"),
        new(Compiling, $"a .NET target's runtime spent more than {N(CompilingJitMsPerSecond)} ms a second compiling methods in a window (tiered JIT still at work): its figures carry the compiler's work",
            "a longer --steady-bound lets the warm-up run until the JIT stops; the window's jit_ms_per_s column shows how much"),
        new(Overloaded, $"a fixed-rate cell answered below {Percent(KeptUpShare)} of the asked rate, or requests due in a window could not be sent: its latency is the queue's",
            "ask a lower --rate"),
        new(DriversDisagree, $"two drivers on the same cell differ by more than {Percent(DriverAgreement.RpsTolerance)} in requests/s, " +
                             $"or by more than {N(DriverAgreement.HeaderBytesTolerance)} bytes a response, more than headers explain",
            "the lower figure is usually a client-bound driver (see the drivers view)"),
        new(NotApplicable, "the driver cannot measure this endpoint faithfully; the reason is in not_measured_reason"),
        new(NoServerCpu, "the server is not a process of this run, an external target, so CPU figures are absent"),
        new(NotMeasured, "see not_measured_reason in results.csv"),
    };

    /// <summary>One flag's meaning, or null for a name that is no flag.</summary>
    public static FlagMeaning? Meaning(string flag, double? precisionPercent = null) => Meanings(precisionPercent).FirstOrDefault(m => m.Name == flag);

    private static string Percent(double share) => N(100 * share) + "%";
    private static string N(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);

    /// <summary>
    /// A window of a .NET target whose thread pool kept work queued (a core's worth or more, median
    /// sample) while it was adding threads, or while the cores stood mostly idle: work waiting for a
    /// thread that no core is busy with means the pool's threads are blocked. A queue on busy cores
    /// with a steady pool is saturation, not starvation. (The pool does not always inject: when blocked
    /// threads still finish items now and then, its starvation check sees progress and waits.)
    /// </summary>
    /// <remarks>
    /// A queue while the cores it could use were saturated is work waiting for CPU, and the pool's
    /// hill climbing adds threads there too (a bare kestrel at 64 connections on 2 shared cores: 3 to 8
    /// threads, 24 items queued, 92% busy): that is a machine-bound cell, not a blocked pool.
    /// </remarks>
    public static bool IsStarved(Measurement window, int concurrency, int logicalCores) =>
        window.RuntimeCounters is { } c && c.ThreadPoolQueueLengthMedian >= logicalCores &&
        BottleneckRule.Of(new[] { window }, concurrency, logicalCores, Array.Empty<string>()) is { BusyShare: < MachineBoundShare } b &&
        (c.ThreadsInjected >= StarvedInjectedThreads || b.Kind == CellBottleneck.Wait);

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
        AddMachineFlags(repeats, flags);
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
        AddMachineFlags(repeats, flags);
        return flags;
    }

    /// <summary>The hypervisor's steal and the runtime's compiling: what took from a window or added to it besides the request's work.</summary>
    private static void AddMachineFlags(IReadOnlyList<Measurement> repeats, List<string> flags)
    {
        if (repeats.Any(r => Metrics.StolenCores.Of(r) >= StolenCores)) flags.Add(Stolen);
        if (repeats.Any(r => r.RuntimeCounters?.JitMsPerSecond > CompilingJitMsPerSecond)) flags.Add(Compiling);
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

/// <summary>A flag as every output explains it (<see cref="CellFlags.Meanings"/>): its name, what it means, and what to do about it.</summary>
public sealed record FlagMeaning(string Name, string Meaning, string? Advice = null)
{
    /// <summary>What the outputs say of a flag a run has: what it means and what to do; null where there is nothing to do.</summary>
    public string? Hint => Advice is null ? null : $"{Name}: {Meaning}; {Advice}";
}
