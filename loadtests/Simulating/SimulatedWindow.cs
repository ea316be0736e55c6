using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Running;

namespace Comparator.Simulating;

/// <summary>
/// A simulated window of at least a count of requests and at least a time: the driver's closed loop runs in short slices (each ends when its
/// last answer is in, so no request is in flight between them) until the window has both, or until <see cref="SimulationSettings.WindowLimit"/>.
/// A slower machine then counts the same work more slowly, not less of it; a fast service counts more. The slices' figures are summed into one window.
/// </summary>
public static class SimulatedWindow
{
    /// <param name="limit">the window's longest time; null: <see cref="SimulationSettings.WindowLimit"/></param>
    public static async Task<DriverWindow> RunAsync(IDriverSession load, int requests, TimeSpan least, CancellationToken cancellationToken, TimeSpan? limit = null)
    {
        var clock = Stopwatch.StartNew();
        DriverWindow? window = null;
        while (!cancellationToken.IsCancellationRequested && ((window?.Requests ?? 0) < requests || clock.Elapsed < least) &&
               clock.Elapsed < (limit ?? SimulationSettings.WindowLimit))
        {
            var slice = await load.RunAsync(SimulationSettings.Slice, cancellationToken);
            window = window is null ? slice : Sum(window, slice);
        }
        return window ?? await load.RunAsync(TimeSpan.Zero, cancellationToken);
    }

    /// <summary>Two slices of one window as one: counts and times summed, the second's latency summary kept (the pass reads no latency).</summary>
    public static DriverWindow Sum(DriverWindow a, DriverWindow b) => a with
    {
        Requests = a.Requests + b.Requests,
        Failed = a.Failed + b.Failed,
        Non2xx = a.Non2xx + b.Non2xx,
        Errors = a.Errors + b.Errors,
        Timeouts = a.Timeouts + b.Timeouts,
        ElapsedSeconds = a.ElapsedSeconds + b.ElapsedSeconds,
        BytesReceived = a.BytesReceived + b.BytesReceived,
        BytesSent = a.BytesSent + b.BytesSent,
        BodyBytesReceived = a.BodyBytesReceived + b.BodyBytesReceived,
        ConnectionsOpened = a.ConnectionsOpened + b.ConnectionsOpened,
        ClientCpuSeconds = a.ClientCpuSeconds + b.ClientCpuSeconds,
        FailureSamples = a.FailureSamples.Concat(b.FailureSamples).Take(10).ToList(),
        Limitations = a.Limitations.Union(b.Limitations).ToList(),
    };
}
