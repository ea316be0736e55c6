namespace Comparator.Statistics;

/// <summary>
/// Where a series of runs changed: Mozilla Perfherder's windowed t-test, on the log of each run's figure (a ratio moves a log
/// additively). At every point the runs just before it (up to <see cref="Window"/>, at least <see cref="MinRuns"/>) are compared
/// with the runs from it on by Welch's t; a point is a change when its |t| is above <see cref="TThreshold"/>, the largest within
/// its window on either side (one step is one change, not one per neighbour), and the medians on either side differ by more than
/// <see cref="MinChange"/> (a change too small to act on is not raised, however sure). Stated parameters, no tuning per series.
/// </summary>
/// <param name="Window">how many runs on each side a point is judged on (Perfherder: 12)</param>
/// <param name="MinRuns">the fewest runs a side may have: a change is never called on one or two runs</param>
/// <param name="TThreshold">Welch's |t| a change must exceed (Perfherder: 7, against its noisier series)</param>
/// <param name="MinChange">the smallest relative change of the medians raised (3%: the run's minimum effect)</param>
public sealed record ChangePointRule(int Window = 12, int MinRuns = 3, double TThreshold = 7, double MinChange = 0.03)
{
    public static readonly ChangePointRule Default = new();

    public string Describe() => string.Create(CultureInfo.InvariantCulture,
        $"a windowed Welch t-test (Perfherder's): up to {Window} runs on each side, at least {MinRuns}, |t| above {TThreshold:0.#} on the log of the figure, the largest within its window, and medians apart by more than {MinChange * 100:0.#}%");
}

/// <summary>A change found between two runs: the index of the first run after it, its t, and the medians before and after.</summary>
public sealed record ChangePoint(int Index, double T, double MedianBefore, double MedianAfter)
{
    /// <summary>After over before, minus one: +0.12 is 12% higher after the change.</summary>
    public double Change => MedianAfter / MedianBefore - 1;
}

public static class ChangePoints
{
    /// <summary>The changes in a series of positive figures, in time order; none where the series is too short to have a side of <see cref="ChangePointRule.MinRuns"/>.</summary>
    public static IReadOnlyList<ChangePoint> Find(IReadOnlyList<double> series, ChangePointRule? rule = null)
    {
        rule ??= ChangePointRule.Default;
        if (series.Any(v => !(v > 0))) throw new ArgumentException("the figures of a series must be positive (they are compared on their logs)", nameof(series));
        var logs = series.Select(v => Math.Log(v)).ToList();
        var t = new double[series.Count];
        for (var i = rule.MinRuns; i <= series.Count - rule.MinRuns; i++)
        {
            var before = logs.Skip(Math.Max(0, i - rule.Window)).Take(i - Math.Max(0, i - rule.Window)).ToList();
            var after = logs.Skip(i).Take(rule.Window).ToList();
            t[i] = Welch(before, after);
        }
        var found = new List<ChangePoint>();
        for (var i = rule.MinRuns; i <= series.Count - rule.MinRuns; i++)
        {
            if (Math.Abs(t[i]) <= rule.TThreshold) continue;
            var from = Math.Max(rule.MinRuns, i - rule.Window);
            var to = Math.Min(series.Count - rule.MinRuns, i + rule.Window);
            if (Enumerable.Range(from, to - from + 1).Any(j => j != i && (Math.Abs(t[j]) > Math.Abs(t[i]) || (Math.Abs(t[j]) == Math.Abs(t[i]) && j < i)))) continue;
            var before = Median(series.Skip(Math.Max(0, i - rule.Window)).Take(i - Math.Max(0, i - rule.Window)));
            var after = Median(series.Skip(i).Take(rule.Window));
            if (Math.Abs(after / before - 1) > rule.MinChange) found.Add(new ChangePoint(i, t[i], before, after));
        }
        return found;
    }

    /// <summary>Welch's t of the second sample's mean against the first's; a step between two constant sides is infinitely sure.</summary>
    private static double Welch(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        double Mean(IReadOnlyList<double> x) => x.Average();
        double Var(IReadOnlyList<double> x) => x.Sum(v => (v - Mean(x)) * (v - Mean(x))) / (x.Count - 1);
        var diff = Mean(b) - Mean(a);
        var se = Math.Sqrt(Var(a) / a.Count + Var(b) / b.Count);
        return se > 0 ? diff / se : diff == 0 ? 0 : Math.Sign(diff) * double.PositiveInfinity;
    }

    private static double Median(IEnumerable<double> values)
    {
        var sorted = values.OrderBy(v => v).ToList();
        return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[sorted.Count / 2 - 1] + sorted[sorted.Count / 2]) / 2;
    }
}
