namespace Comparator.Results;

/// <summary>One point of a latency distribution: the percentile (0 to 100) and the latency at it.</summary>
public sealed record PercentilePoint(double Percentile, double Ms)
{
    /// <summary>The percentiles an HDR plot shows: evenly spaced on its log 1/(1-p) axis from the median on.</summary>
    public static readonly double[] Standard = { 0, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100 };
}

/// <summary>Latency of the successful requests of a window, in milliseconds.</summary>
public sealed record LatencySummary(double MeanMs, double P50Ms, double P90Ms, double P99Ms, double MaxMs)
{
    /// <summary>The 99.9th percentile, where the driver records a histogram (socket); null otherwise.</summary>
    public double? P999Ms { get; init; }

    /// <summary>Latency at <see cref="PercentilePoint.Standard"/> percentiles, for the HDR plot; null where no histogram was kept.</summary>
    public IReadOnlyList<PercentilePoint>? Distribution { get; init; }

    /// <summary>The whole histogram, compressed and base64 encoded (see <see cref="Measurement.LatencyHistogram"/>); null where none was recorded.</summary>
    public string? Histogram { get; init; }

    public static LatencySummary Empty { get; } = new(0, 0, 0, 0, 0);
}
