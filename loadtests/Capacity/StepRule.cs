using Comparator.Measuring;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Capacity;

/// <summary>Whether one fixed-rate window held: it kept up with the rate, failed nothing and met every objective.</summary>
public static class StepRule
{
    /// <summary>Null when the step held; else the first thing that broke, in words.</summary>
    public static string? Failure(Measurement window, double rate, IReadOnlyList<LatencyObjective> objectives, IReadOnlyList<double?> latencies)
    {
        if (window.Failed > 0)
            return $"failed: {window.Failed} of {window.Requests} requests" + (window.FailureSamples.FirstOrDefault() is string s ? $" ({s})" : "");
        if (window.RequestsPerSecond < CellFlags.KeptUpShare * rate || window.DroppedRequests > 0)
            return string.Create(CultureInfo.InvariantCulture,
                $"overloaded: {window.RequestsPerSecond:0} of {rate:0} req/s answered, {window.DroppedRequests ?? 0} dropped");
        for (var i = 0; i < objectives.Count; i++)
        {
            var o = objectives[i];
            if (latencies[i] is not double ms) return $"no p{o.Percentile:0.###} latency in the window";
            if (ms > o.BoundMs) return string.Create(CultureInfo.InvariantCulture, $"p{o.Percentile:0.###} {ms:0.##} ms over {o.BoundMs:0.###} ms");
        }
        return null;
    }
}
