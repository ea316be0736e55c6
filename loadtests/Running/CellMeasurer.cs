using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Results;

namespace Comparator.Running;

/// <summary>
/// Measures one cell: a discarded warm-up, then the repeats, each with the server's CPU time taken
/// from /proc over exactly that window and the driver's own CPU time over the same window.
/// </summary>
public sealed class CellMeasurer
{
    private readonly ILoadDriver _driver;
    private readonly RunOptions _options;

    public CellMeasurer(ILoadDriver driver, RunOptions options)
    {
        _driver = driver;
        _options = options;
    }

    /// <param name="serverPid">The target's process, or null for an external target (no CPU figures).</param>
    public async Task<IReadOnlyList<Measurement>> MeasureAsync(LoadRequest request, int concurrency, int? serverPid, CancellationToken cancellationToken)
    {
        using var session = _driver.Open(request, concurrency, _options.KeepAlive, _options.RequestTimeout);
        if (_options.Warmup > TimeSpan.Zero) await session.RunAsync(_options.Warmup, cancellationToken);

        var repeats = new List<Measurement>();
        for (var i = 0; i < _options.Repeat && !cancellationToken.IsCancellationRequested; i++)
        {
            var serverCpuBefore = serverPid is int p ? ProcessSampler.CpuSeconds(p) : null;
            var window = await session.RunAsync(_options.Duration, cancellationToken);
            if (cancellationToken.IsCancellationRequested) break; // a window cut short by a stop is not a measurement
            var serverCpuAfter = serverPid is int q ? ProcessSampler.CpuSeconds(q) : null;
            var rss = serverPid is int r ? ProcessSampler.PeakRssMb(r) : null;
            repeats.Add(ToMeasurement(window, serverCpuAfter - serverCpuBefore, rss));
        }
        return repeats;
    }

    public static Measurement ToMeasurement(DriverWindow w, double? serverCpuSeconds, double? serverPeakRssMb)
    {
        var succeeded = w.Requests - w.Failed;
        return new Measurement(
            w.Requests, w.Failed, w.Non2xx, w.Errors, w.Timeouts, w.ElapsedSeconds,
            RequestsPerSecond: w.ElapsedSeconds > 0 ? succeeded / w.ElapsedSeconds : 0,
            w.Latency.MeanMs, w.Latency.P50Ms, w.Latency.P90Ms, w.Latency.P99Ms, w.Latency.MaxMs,
            w.BytesReceived, w.BytesSent, w.BodyBytesReceived, w.ConnectionsOpened,
            serverCpuSeconds, serverPeakRssMb, w.ClientCpuSeconds, w.FailureSamples, w.Limitations);
    }

    /// <summary>
    /// The repeat whose requests/s is the median (the lower middle for an even count). Every
    /// figure of a summary row then comes from one real window, so per-request ratios stay exact.
    /// </summary>
    public static Measurement MedianRepeat(IReadOnlyList<Measurement> repeats) =>
        repeats.OrderBy(r => r.RequestsPerSecond).ElementAt((repeats.Count - 1) / 2);
}
