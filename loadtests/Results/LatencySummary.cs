using System;
using System.Linq;

namespace Comparator.Results;

/// <summary>Latency of the successful requests of a window, in milliseconds.</summary>
public sealed record LatencySummary(double MeanMs, double P50Ms, double P90Ms, double P99Ms, double MaxMs)
{
    public static LatencySummary Empty { get; } = new(0, 0, 0, 0, 0);

    /// <summary>From every request's latency, ascending; percentiles by nearest rank.</summary>
    public static LatencySummary FromSorted(double[] sorted) => sorted.Length == 0
        ? Empty
        : new(sorted.Average(), Percentile(sorted, 50), Percentile(sorted, 90), Percentile(sorted, 99), sorted[^1]);

    public static double Percentile(double[] sorted, double percent)
    {
        if (sorted.Length == 0) return 0;
        var rank = (int)Math.Ceiling(percent / 100.0 * sorted.Length);
        return sorted[Math.Clamp(rank, 1, sorted.Length) - 1];
    }
}
