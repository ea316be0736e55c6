using System.Threading;
using System.Threading.Tasks;
using Comparator.Results;

namespace Comparator.Drivers;

/// <summary>
/// A load generator. Every driver produces the same <see cref="DriverWindow"/>, so the results,
/// the flags and the reports do not depend on which driver ran.
/// </summary>
public interface ILoadDriver
{
    /// <summary>Short name, written in every row of every output.</summary>
    string Name { get; }

    /// <summary>One sentence on what the driver is, for the run spec and the reports.</summary>
    string Description { get; }

    /// <summary>Why this driver cannot measure an endpoint faithfully, or null when it can.</summary>
    string? CannotMeasure(LoadRequest request, bool keepAlive);

    /// <summary>Whether the driver can send at a constant arrival rate (<see cref="IDriverSession.RunAtRateAsync"/>).</summary>
    bool HoldsRate => false;

    /// <summary>Opens a cell: a fresh connection pool (or tool invocation) for one request shape and concurrency.</summary>
    IDriverSession Open(LoadRequest request, int concurrency, bool keepAlive, TimeSpan requestTimeout);
}

/// <summary>One cell's connections; each window runs on them (warm-up first, then the repeats).</summary>
public interface IDriverSession : IDisposable
{
    /// <summary>
    /// Runs a closed loop (each of N workers sends its next request when its last one finished)
    /// for the duration, then waits for the requests in flight.
    /// </summary>
    Task<DriverWindow> RunAsync(TimeSpan duration, CancellationToken cancellationToken);

    /// <summary>
    /// Runs an open model for the duration: requests due at a constant rate whatever the server does,
    /// each one's latency counted from its intended send time (coordinated omission corrected, as wrk2).
    /// Only drivers whose <see cref="ILoadDriver.HoldsRate"/> is true implement it.
    /// </summary>
    Task<DriverWindow> RunAtRateAsync(TimeSpan duration, double rate, CancellationToken cancellationToken) =>
        throw new NotSupportedException("this driver runs a closed loop only");

    /// <summary>Whether <see cref="RunCountAsync"/> runs: the driver stops its closed loop at an exact count of requests.</summary>
    bool RunsCounts => false;

    /// <summary>
    /// The closed loop until exactly <paramref name="requests"/> answers are in, or until <paramref name="limit"/>; each connection waits
    /// <paramref name="pause"/> after an answer before its next request (zero: back to back). Only where <see cref="RunsCounts"/>.
    /// </summary>
    Task<DriverWindow> RunCountAsync(long requests, TimeSpan limit, CancellationToken cancellationToken, TimeSpan pause = default) =>
        throw new NotSupportedException("this driver runs for a time, not a count of requests");

    /// <summary>The requests the server serves on one connection before closing it, where it announces a limit (Keep-Alive: max=N); else null.</summary>
    long? ServerLimit => null;
}

/// <summary>
/// What a driver saw in one window. A figure the driver cannot give is null, and
/// <see cref="Limitations"/> says why: nothing is estimated to fill the gap.
/// </summary>
public sealed record DriverWindow(
    long Requests,
    long Failed,
    long Non2xx,
    long Errors,
    long Timeouts,
    double ElapsedSeconds,
    LatencySummary Latency,
    long BytesReceived,
    long? BytesSent,
    long? BodyBytesReceived,
    long? ConnectionsOpened,
    double ClientCpuSeconds,
    IReadOnlyList<string> FailureSamples,
    IReadOnlyList<string> Limitations)
{
    /// <summary>Fixed-rate windows: requests due while their connection still waited for the previous answer.</summary>
    public long? LateRequests { get; init; }

    /// <summary>Fixed-rate windows: requests due in the window that were never sent before it ended.</summary>
    public long? DroppedRequests { get; init; }

    /// <summary>TLS handshakes in the window, one per connection opened to an https target; null over plain HTTP and for drivers that do not count connections.</summary>
    public long? TlsHandshakes { get; init; }
}
