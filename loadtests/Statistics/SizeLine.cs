using Perfolizer.Mathematics.Distributions.ContinuousDistributions;

namespace Comparator.Statistics;

/// <summary>
/// A straight line through a stack's cost a request at each body size, by least squares: what a request costs before its body
/// (<see cref="Fixed"/>, the line at 0 KB) and what each KB of body adds (<see cref="PerKb"/>). A sizing guide's two numbers.
/// </summary>
public readonly record struct SizeLine(double Fixed, double PerKb)
{
    /// <summary>The line's cost at a body of <paramref name="kb"/> KB.</summary>
    public double At(double kb) => Fixed + PerKb * kb;

    /// <summary>The size in KB where this line meets <paramref name="other"/>; null where they run parallel.</summary>
    public double? Meets(SizeLine other) => PerKb == other.PerKb ? null : (other.Fixed - Fixed) / (PerKb - other.PerKb);

    /// <summary>The least-squares line through the points; null with fewer than two distinct sizes.</summary>
    public static SizeLine? Fit(IReadOnlyList<(double Kb, double Cost)> points)
    {
        if (points.Select(p => p.Kb).Distinct().Count() < 2) return null;
        var meanKb = points.Average(p => p.Kb);
        var meanCost = points.Average(p => p.Cost);
        var sxx = points.Sum(p => (p.Kb - meanKb) * (p.Kb - meanKb));
        var sxy = points.Sum(p => (p.Kb - meanKb) * (p.Cost - meanCost));
        var perKb = sxy / sxx;
        return new SizeLine(meanCost - perKb * meanKb, perKb);
    }
}

/// <summary>
/// An estimate made once per launch (a line's part, a size's distance from the line), over the launches: their mean and its two-sided
/// Student's t interval at the run's confidence; no interval from one launch.
/// </summary>
public sealed record LaunchMean(double Mean, double? Low, double? High, int Launches)
{
    public static LaunchMean Of(IReadOnlyList<double> values, double confidence)
    {
        var mean = values.Average();
        if (values.Count < 2) return new LaunchMean(mean, null, null, values.Count);
        var sd = Math.Sqrt(values.Sum(v => (v - mean) * (v - mean)) / (values.Count - 1));
        var half = new StudentDistribution(values.Count - 1).Quantile(1 - (1 - confidence) / 2) * sd / Math.Sqrt(values.Count);
        return new LaunchMean(mean, mean - half, mean + half, values.Count);
    }

    /// <summary>Whether the interval lies wholly beyond ±<paramref name="margin"/> (no interval: not known to).</summary>
    public bool WhollyBeyond(double margin) => Low > margin || High < -margin;
}
