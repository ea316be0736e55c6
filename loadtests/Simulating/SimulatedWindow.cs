using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Running;

namespace Comparator.Simulating;

/// <summary>
/// A simulated window of at least a count of requests and at least a time. Where the driver stops at an exact count (the socket driver), the
/// window is a whole multiple of the server's requests per connection where it announces one (Mono's HttpListener closes a kept-alive connection
/// after 101 requests, and a window of 120-150 requests held one reconnect or two: about 6% between them). Else the driver's closed loop runs in short slices (each ends when its last answer is in, so no request is in flight
/// between them) until the window has both. Either way at most <see cref="SimulationSettings.WindowLimit"/>. A slower machine counts the same work
/// more slowly, not less of it; a fast service counts more. The parts' figures are summed into one window.
/// </summary>
public static class SimulatedWindow
{
    /// <param name="limit">the window's longest time; null: <see cref="SimulationSettings.WindowLimit"/></param>
    /// <param name="pause">the wait after each answer before the next request, where the driver counts (<see cref="SimulationSettings.DotNetPause"/>)</param>
    /// <param name="wholeConnections">false: exactly <paramref name="requests"/> where the driver counts (the part before the windows, which sets where in a
    /// connection's life every window starts)</param>
    public static async Task<DriverWindow> RunAsync(IDriverSession load, int requests, TimeSpan least, CancellationToken cancellationToken, TimeSpan? limit = null,
        bool wholeConnections = true, TimeSpan pause = default)
    {
        var longest = limit ?? SimulationSettings.WindowLimit;
        var clock = Stopwatch.StartNew();
        DriverWindow? window = null;
        // The least time is the window's own (its parts' times summed), the limit the clock's.
        while (!cancellationToken.IsCancellationRequested && ((window?.Requests ?? 0) < requests || (window?.ElapsedSeconds ?? 0) < least.TotalSeconds) &&
               clock.Elapsed < longest)
        {
            var part = load.RunsCounts
                ? await load.RunCountAsync(Next(window, requests, least, wholeConnections ? load.ServerLimit ?? 1 : 1), longest - clock.Elapsed, cancellationToken, pause)
                : await load.RunAsync(SimulationSettings.Slice, cancellationToken);
            window = window is null ? part : Sum(window, part);
        }
        return window ?? await load.RunAsync(TimeSpan.Zero, cancellationToken);
    }

    /// <summary>
    /// The requests the next counted part asks for: the first reaches the count, a later one the least time at the rate so far (a tenth more);
    /// either rounded up to whole multiples of <paramref name="unit"/>, so the window stays one.
    /// </summary>
    public static long Next(DriverWindow? sofar, int requests, TimeSpan least, long unit)
    {
        double wanted = sofar is null ? requests
            : Math.Max(1, (least.TotalSeconds - sofar.ElapsedSeconds) * 1.1 * sofar.Requests / Math.Max(sofar.ElapsedSeconds, 1e-3));
        return Math.Max(1, (long)Math.Ceiling(wanted / unit)) * unit;
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
