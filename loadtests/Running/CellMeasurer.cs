using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Running;

/// <summary>
/// What a cell's windows are, and all a <see cref="CellMeasurer"/> is told: the warm-up (the cold one for
/// a target's first cell), each window's length, how many rounds (<see cref="RepeatRule"/>), and how
/// each connection is used.
/// </summary>
public sealed record WindowSettings(TimeSpan Warmup, TimeSpan ColdWarmup, TimeSpan Duration, RepeatRule Rounds, bool KeepAlive, TimeSpan RequestTimeout);

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
        IReadOnlyList<(LoadRequest Request, int? ServerPid)> participants, int concurrency, CancellationToken cancellationToken,
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
            if (warmup > TimeSpan.Zero)
                foreach (var session in sessions)
                {
                    if (cancellationToken.IsCancellationRequested) break;
                    await Run(session, warmup);
                }

            // Rounds until the rule is satisfied: every target within the precision, or the cap.
            for (var i = 0; !cancellationToken.IsCancellationRequested && _window.Rounds.AnotherRound(Rps(repeats)); i++)
            {
                var order = Enumerable.Range(0, sessions.Count);
                var complete = true;
                foreach (var t in i % 2 == 0 ? order : order.Reverse())
                {
                    var measurement = await MeasureWindowAsync(d => Run(sessions[t], d), participants[t].ServerPid, cancellationToken);
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

    private static IReadOnlyList<IReadOnlyList<double>> Rps(List<List<Measurement>> repeats) =>
        repeats.Select(r => (IReadOnlyList<double>)r.Select(m => m.RequestsPerSecond).ToList()).ToList();

    private async Task<Measurement?> MeasureWindowAsync(Func<TimeSpan, Task<DriverWindow>> run, int? serverPid, CancellationToken cancellationToken)
    {
        var startedAt = DateTimeOffset.UtcNow;
        var serverCpuBefore = serverPid is int p ? ProcessSampler.CpuSeconds(p) : null;
        var machineBefore = ProcessSampler.MachineBusySeconds();
        var switchesBefore = serverPid is int t0 ? ProcessSampler.ThreadSwitches(t0) : null;
        var window = await run(_window.Duration);
        if (cancellationToken.IsCancellationRequested) return null;
        var machineAfter = ProcessSampler.MachineBusySeconds();
        var serverCpuAfter = serverPid is int q ? ProcessSampler.CpuSeconds(q) : null;
        var switchesAfter = serverPid is int t1 ? ProcessSampler.ThreadSwitches(t1) : null;
        var rss = serverPid is int r ? ProcessSampler.PeakRssMb(r) : null;
        // A thread that exited in the window takes its switches with it: the difference is clamped at 0, never negative.
        var threads = switchesBefore is { } b && switchesAfter is { } e
            ? new ThreadActivity(Math.Max(0, e.Voluntary - b.Voluntary), Math.Max(0, e.Involuntary - b.Involuntary), e.Threads, e.CpusAllowed)
            : null;
        return ToMeasurement(window, serverCpuAfter - serverCpuBefore, rss).With(Metrics.MachineCpuSeconds, machineAfter - machineBefore) with
        {
            WindowStartedAt = startedAt, Threads = threads,
        };
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
