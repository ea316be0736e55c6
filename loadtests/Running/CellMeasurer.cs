using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Running;

/// <summary>
/// One target of a cell: the request it is sent, its process (null for an external target without one: no CPU
/// figures), the CPU's counters of that process (null where not counted), and its runtime's counter session
/// (.NET targets: the warm-up waits on it until the JIT stops compiling).
/// </summary>
public sealed record CellParticipant(LoadRequest Request, int? ServerPid, ICpuCounterReader? CpuCounters = null, RuntimeCounterSession? RuntimeCounters = null);

/// <summary>
/// Measures one cell: a discarded warm-up, then the repeats (as many as <see cref="RepeatRule"/> asks), each with the server's CPU time taken
/// from /proc over exactly that window and the driver's own CPU time over the same window.
/// </summary>
public sealed class CellMeasurer
{
    private readonly ILoadDriver _driver;
    private readonly WindowSettings _window;

    public CellMeasurer(ILoadDriver driver, WindowSettings window)
    {
        _driver = driver;
        _window = window;
    }

    /// <summary>
    /// Measures one cell on several targets at once, interleaved: every target is warmed up, then
    /// each repeat runs every target's window in turn, in the opposite order on every other repeat
    /// (A B C, C B A, A B C...). A drift of the machine over the minutes of a run (another tenant,
    /// heat, the driver's own GC) then lands on every target alike instead of on whichever ran
    /// last. Targets that are idle meanwhile cost next to nothing: their connections wait open.
    /// </summary>
    /// <param name="participants">Each target's request and process id (null for an external target: no CPU figures).</param>
    /// <param name="cold">The targets' first cell: warmed up for <see cref="WindowSettings.ColdWarmup"/> instead.</param>
    /// <param name="roundFinished">Called after every round with the repeats so far, per target.</param>
    public async Task<IReadOnlyList<IReadOnlyList<Measurement>>> MeasureInterleavedAsync(
        IReadOnlyList<CellParticipant> participants, int concurrency, CancellationToken cancellationToken,
        bool cold = false, Action<IReadOnlyList<IReadOnlyList<Measurement>>>? roundFinished = null, double? rate = null)
    {
        // A fixed-rate cell sends at the asked rate in its warm-up and windows alike; the closed loop otherwise.
        Task<DriverWindow> Run(IDriverSession session, TimeSpan duration) =>
            rate is double r ? session.RunAtRateAsync(duration, r, cancellationToken) : session.RunAsync(duration, cancellationToken);
        var sessions = participants.Select(p => _driver.Open(p.Request, concurrency, _window.KeepAlive, _window.RequestTimeout)).ToList();
        var repeats = participants.Select(_ => new List<Measurement>()).ToList();
        var warmup = cold ? _window.ColdWarmup : _window.Warmup;
        try
        {
            var steady = new List<bool?>();
            if (warmup > TimeSpan.Zero)
                for (var t = 0; t < sessions.Count && !cancellationToken.IsCancellationRequested; t++)
                {
                    await Run(sessions[t], warmup);
                    steady.Add(await WarmUntilSteadyAsync(d => Run(sessions[t], d), participants[t].RuntimeCounters, cancellationToken));
                }

            // Rounds until the rule is satisfied: every target within the precision, or the cap.
            for (var i = 0; !cancellationToken.IsCancellationRequested && _window.Rounds.AnotherRound(Rps(repeats)); i++)
            {
                var order = Enumerable.Range(0, sessions.Count).ToList();
                Measurement? Marked(Measurement? m, int t) => m is not null && t < steady.Count && steady[t] == false
                    ? m with { Limitations = m.Limitations.Append(StillCompiling).ToList() } : m;
                var complete = true;
                if (_window.Duet)
                {
                    // Every target's window at once: a swing of the machine lands on all sides of the round alike.
                    var windows = await Task.WhenAll(order.Select(t => MeasureWindowAsync(d => Run(sessions[t], d), participants[t], cancellationToken)));
                    complete = windows.All(w => w is not null);
                    if (complete) foreach (var t in order) repeats[t].Add(Marked(windows[t], t)!);
                }
                else
                    foreach (var t in i % 2 == 0 ? order : Enumerable.Reverse(order))
                    {
                        var measurement = Marked(await MeasureWindowAsync(d => Run(sessions[t], d), participants[t], cancellationToken), t);
                        if (measurement is null) { complete = false; break; } // a window cut short by a stop is not a measurement
                        repeats[t].Add(measurement);
                    }
                if (!complete) break;
                roundFinished?.Invoke(repeats);
            }
        }
        finally
        {
            foreach (var session in sessions) session.Dispose();
        }
        return repeats;
    }

    /// <summary>
    /// One target's warm-up alone (the cold one for its first cell), then, for a .NET target, the hold until its JIT is steady:
    /// what precedes a window, for a pass that loads one target at a time without measuring it (a profile). Null where there was no
    /// runtime to wait on, true when steady, false when the bound came first.
    /// </summary>
    public async Task<bool?> WarmAsync(IDriverSession session, RuntimeCounterSession? runtime, bool cold, CancellationToken cancellationToken)
    {
        var warmup = cold ? _window.ColdWarmup : _window.Warmup;
        if (warmup > TimeSpan.Zero) await session.RunAsync(warmup, cancellationToken);
        return await WarmUntilSteadyAsync(d => session.RunAsync(d, cancellationToken), runtime, cancellationToken);
    }

    private static IReadOnlyList<IReadOnlyList<double>> Rps(List<List<Measurement>> repeats) =>
        repeats.Select(r => (IReadOnlyList<double>)r.Select(m => m.RequestsPerSecond).ToList()).ToList();

    /// <summary>
    /// JIT milliseconds per second of load at or under which a .NET target's runtime counts as steady: 1% of one core, a
    /// fifth of the window flag's threshold (<see cref="CellFlags.CompilingJitMsPerSecond"/>), so that a steady warm-up
    /// leaves room for the few rejits a warmed process still makes.
    /// </summary>
    public const double SteadyJitMsPerSecond = 10;

    /// <summary>What a window of a target whose warm-up ended at its bound, the runtime still compiling, says of itself.</summary>
    public const string StillCompiling = "the runtime was still compiling when the warm-up reached its bound (--steady-bound): the window carries JIT work a long-running process has finished";

    private static readonly TimeSpan SteadyStep = TimeSpan.FromSeconds(1);

    /// <summary>Seconds of load this measurer spent holding .NET targets until their JIT stopped, beyond the planned warm-ups (charged to the run's budget).</summary>
    public double SteadyLoadSeconds { get; private set; }

    /// <summary>
    /// After the warm-up, a .NET target is loaded on in one-second steps while its runtime reports more than
    /// <see cref="SteadyJitMsPerSecond"/> of JIT (tiered compilation's rejits go on for seconds into a load, and a
    /// window that catches them measures the compiler), up to the bound. True when steady, false when the bound came
    /// first, null where there is no runtime to ask (Mono compiles each method once, on its first call, within the warm-up).
    /// </summary>
    private async Task<bool?> WarmUntilSteadyAsync(Func<TimeSpan, Task<DriverWindow>> run, RuntimeCounterSession? runtime, CancellationToken cancellationToken)
    {
        if (runtime is null || _window.SteadyBound <= TimeSpan.Zero) return null;
        var start = DateTimeOffset.UtcNow;
        var deadline = start + _window.SteadyBound;
        // The load goes on step after step; each step asks the newest sample that stands wholly for loaded time (a sample
        // arrives up to a second after its interval, so the answer lags a step rather than the load pausing for it).
        for (var step = 1; !cancellationToken.IsCancellationRequested; step++)
        {
            await run(SteadyStep);
            SteadyLoadSeconds += SteadyStep.TotalSeconds;
            var jit = runtime.LatestJitMsPerSecond(start);
            if (jit <= SteadyJitMsPerSecond) return true;
            if (jit is null && step >= 3) return null; // three seconds without a sample: the runtime publishes no JIT time to wait on
            if (DateTimeOffset.UtcNow >= deadline) return jit is null ? null : false; // no sample at all: nothing was known
        }
        return null;
    }

    private async Task<Measurement?> MeasureWindowAsync(Func<TimeSpan, Task<DriverWindow>> run, CellParticipant participant, CancellationToken cancellationToken)
    {
        var serverPid = participant.ServerPid;
        // The driver's own counters, attached for this window only: a target started later by this process must not be counted with it.
        using var driver = AttachDriver();
        var driverBefore = driver?.Read();
        var startedAt = DateTimeOffset.UtcNow;
        var serverCpuBefore = serverPid is int p ? ProcessSampler.CpuSeconds(p) : null;
        var machineBefore = ProcessSampler.MachineTimes();
        var switchesBefore = serverPid is int t0 ? ProcessSampler.ThreadSwitches(t0) : null;
        var countsBefore = participant.CpuCounters?.Read();
        var window = await run(_window.Duration);
        if (cancellationToken.IsCancellationRequested) return null;
        var countsAfter = participant.CpuCounters?.Read();
        var driverAfter = driver?.Read();
        var machineAfter = ProcessSampler.MachineTimes();
        var serverCpuAfter = serverPid is int q ? ProcessSampler.CpuSeconds(q) : null;
        var switchesAfter = serverPid is int t1 ? ProcessSampler.ThreadSwitches(t1) : null;
        var rss = serverPid is int r ? ProcessSampler.PeakRssMb(r) : null;
        // A thread that exited in the window takes its switches with it: the difference is clamped at 0, never negative.
        var threads = switchesBefore is { } b && switchesAfter is { } e
            ? new ThreadActivity(Math.Max(0, e.Voluntary - b.Voluntary), Math.Max(0, e.Involuntary - b.Involuntary), e.Threads, e.CpusAllowed)
            : null;
        var measurement = ToMeasurement(window, serverCpuAfter - serverCpuBefore, rss)
            .With(Metrics.MachineCpuSeconds, machineAfter.Busy - machineBefore.Busy)
            .With(Metrics.StealSeconds, machineAfter.Steal - machineBefore.Steal) with
        {
            WindowStartedAt = startedAt, Threads = threads,
        };
        if (driverBefore is not null && driverAfter is not null) measurement = WithCounts(measurement, CpuCounterWindow.Between(driverBefore, driverAfter));
        return countsBefore is null || countsAfter is null ? measurement : WithCounts(measurement, CpuCounterWindow.Between(countsBefore, countsAfter));
    }

    private CpuCounters? AttachDriver()
    {
        if (_window.DriverCpuCounters is not CpuCounterSet set) return null;
        try { return CpuCounters.Attach(Environment.ProcessId, set); }
        catch (CpuCounterException) { return null; } // the run's counters line already says why
    }

    /// <summary>The CPU's counts of a window as its figures (each event's name is its figure's); a multiplexed window says its counts are scaled estimates.</summary>
    public static Measurement WithCounts(Measurement measurement, CpuCounterWindow counts)
    {
        foreach (var metric in Metrics.StoredFigures)
            if (counts.Counts.TryGetValue(metric.Id, out var value)) measurement = measurement.With(metric, value);
        return counts.Multiplexed
            ? measurement with { Limitations = measurement.Limitations.Append("the CPU's counters were multiplexed (more events than registers): counts scaled by time enabled/running, estimates").ToList() }
            : measurement;
    }

    /// <summary>A driver's window as the figures of the catalogue, with the server's CPU and peak memory where its process is ours to read.</summary>
    public static Measurement ToMeasurement(DriverWindow w, double? serverCpuSeconds, double? serverPeakRssMb)
    {
        var succeeded = w.Requests - w.Failed;
        return Measurement.Of(
            (Metrics.Requests, w.Requests), (Metrics.Failed, w.Failed), (Metrics.Non2xx, w.Non2xx), (Metrics.Errors, w.Errors), (Metrics.Timeouts, w.Timeouts),
            (Metrics.ElapsedSeconds, w.ElapsedSeconds),
            (Metrics.RequestsPerSecond, w.ElapsedSeconds > 0 ? succeeded / w.ElapsedSeconds : 0),
            (Metrics.LatencyMeanMs, w.Latency.MeanMs), (Metrics.LatencyP50Ms, w.Latency.P50Ms), (Metrics.LatencyP90Ms, w.Latency.P90Ms),
            (Metrics.LatencyP99Ms, w.Latency.P99Ms), (Metrics.LatencyMaxMs, w.Latency.MaxMs), (Metrics.LatencyP999Ms, w.Latency.P999Ms),
            (Metrics.BytesReceived, w.BytesReceived), (Metrics.BytesSent, w.BytesSent), (Metrics.BodyBytesReceived, w.BodyBytesReceived),
            (Metrics.ConnectionsOpened, w.ConnectionsOpened), (Metrics.TlsHandshakes, w.TlsHandshakes),
            (Metrics.LateRequests, w.LateRequests), (Metrics.DroppedRequests, w.DroppedRequests),
            (Metrics.ServerCpuSeconds, serverCpuSeconds), (Metrics.ServerPeakRssMb, serverPeakRssMb), (Metrics.ClientCpuSeconds, w.ClientCpuSeconds)) with
        {
            FailureSamples = w.FailureSamples,
            Limitations = w.Limitations,
            LatencyDistribution = w.Latency.Distribution,
            LatencyHistogram = w.Latency.Histogram,
        };
    }

    /// <summary>
    /// The repeat whose requests/s is the median (the lower middle for an even count). Every
    /// figure of a summary row then comes from one real window, so per-request ratios stay exact.
    /// </summary>
    public static Measurement MedianRepeat(IReadOnlyList<Measurement> repeats) =>
        repeats.OrderBy(r => r.RequestsPerSecond).ElementAt((repeats.Count - 1) / 2);
}
