using System;
using System.Collections.Generic;
using System.Linq;

namespace Comparator.Running;

public static class Statistics
{
    /// <summary>Median; the mean of the middle two for an even count.</summary>
    public static double Median(IEnumerable<double> values)
    {
        var v = values.OrderBy(x => x).ToArray();
        if (v.Length == 0) return 0;
        return v.Length % 2 == 1 ? v[v.Length / 2] : (v[v.Length / 2 - 1] + v[v.Length / 2]) / 2;
    }

    public static double? Median(IEnumerable<double?> values)
    {
        var present = values.Where(x => x.HasValue).Select(x => x!.Value).ToList();
        return present.Count == 0 ? null : Median(present);
    }

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
