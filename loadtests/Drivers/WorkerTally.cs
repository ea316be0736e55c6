using Comparator.Measuring;
using Comparator.Results;

namespace Comparator.Drivers;

/// <summary>
/// What one in-process worker counted in a window: requests, failures by kind with a few samples,
/// body bytes, latency in an HDR histogram, and, at a fixed rate, late and dropped requests. The
/// window adds the workers' tallies up with the socket counters (<see cref="Window"/>).
/// </summary>
internal sealed class WorkerTally
{
    public const int MaxFailureSamples = 5;

    public long Requests, Failed, Non2xx, Errors, Timeouts, BodyBytes, Late, Dropped;
    public readonly LatencyRecorder Latency = new();
    public readonly List<string> Samples = new();

    /// <summary>One finished exchange: a success records its latency from <paramref name="since"/>, a failure its reason.</summary>
    public void Count(string? failure, long since)
    {
        Requests++;
        if (failure is null)
        {
            Latency.RecordSince(since);
            return;
        }
        Failed++;
        if (Samples.Count < MaxFailureSamples && !Samples.Contains(failure)) Samples.Add(failure);
    }

    /// <summary>A worker whose every failure so far is a refused connection hits a dead target: it waits a little rather than spin a core.</summary>
    public bool OnlyErrors => Errors > 0 && Errors == Failed;

    /// <summary>
    /// The window: every worker's tally, the socket counters' change since <paramref name="before"/>, the elapsed time and this
    /// process's CPU; over TLS (<paramref name="tls"/>) its handshakes too.
    /// </summary>
    public static DriverWindow Window(IReadOnlyList<WorkerTally> tallies, ByteCounters counters, (long Received, long Sent, long Connections, long Handshakes) before,
        double elapsedSeconds, double clientCpuSeconds, bool atRate = false, bool tls = false)
    {
        var latency = new LatencyRecorder();
        foreach (var t in tallies) latency.Add(t.Latency);
        return new DriverWindow(
            Requests: tallies.Sum(t => t.Requests),
            Failed: tallies.Sum(t => t.Failed),
            Non2xx: tallies.Sum(t => t.Non2xx),
            Errors: tallies.Sum(t => t.Errors),
            Timeouts: tallies.Sum(t => t.Timeouts),
            ElapsedSeconds: elapsedSeconds,
            Latency: latency.Summary(),
            BytesReceived: counters.Received - before.Received,
            BytesSent: counters.Sent - before.Sent,
            BodyBytesReceived: tallies.Sum(t => t.BodyBytes),
            ConnectionsOpened: counters.Connections - before.Connections,
            ClientCpuSeconds: clientCpuSeconds,
            FailureSamples: tallies.SelectMany(t => t.Samples).Distinct().Take(MaxFailureSamples).ToList(),
            Limitations: Array.Empty<string>())
        {
            LateRequests = atRate ? tallies.Sum(t => t.Late) : null,
            DroppedRequests = atRate ? tallies.Sum(t => t.Dropped) : null,
            TlsHandshakes = tls ? counters.Handshakes - before.Handshakes : null,
        };
    }
}
