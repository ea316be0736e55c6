namespace Comparator.Statistics;

/// <summary>How much a set of figures varies: a description of spread, never a decision (that is <see cref="LeadRule"/>'s).</summary>
public static class Spread
{
    /// <summary>Coefficient of variation (sample standard deviation / mean); 0 for fewer than two values.</summary>
    public static double CoefficientOfVariation(IReadOnlyList<double> values)
    {
        if (values.Count < 2) return 0;
        var mean = values.Average();
        if (mean == 0) return 0;
        var variance = values.Sum(v => (v - mean) * (v - mean)) / (values.Count - 1);
        return Math.Sqrt(variance) / mean;
    }
}
