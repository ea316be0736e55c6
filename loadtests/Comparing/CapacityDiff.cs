using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Comparing;

/// <summary>
/// Capacities between two capacity runs (a migration's before and after, a regression test): per target
/// and cell in both, new / base from each run's per-launch capacities (Welch's t over their logs, the
/// runs being independent), judged by the lead rule with the threshold as its minimum effect: a capacity
/// lower beyond it is a regression, higher an improvement; equivalent within the runs' margin; else not settled.
/// </summary>
public sealed record CapacityDiff(IReadOnlyList<CapacityDiff.Row> Rows, double Threshold, double Confidence, IReadOnlyList<string> Objectives)
{
    public sealed record Row(CellKey Key, double? Base, double? New, RatioInterval? Interval, string Outcome, string? Reason);

    public bool HasRegression => Rows.Any(r => r.Outcome == RunDiff.Regression);
    public bool CannotJudge => Rows.Any(r => r.Interval is null || r.Outcome == PairVerdicts.NotSettled);

    public static CapacityDiff Between(CapacityResult baseRun, CapacityResult newRun, double threshold, double confidence)
    {
        if (!baseRun.Capacity.Objectives.SequenceEqual(newRun.Capacity.Objectives))
            throw new ArgumentException($"the runs searched under different objectives ({string.Join(", ", baseRun.Capacity.Objectives)} against {string.Join(", ", newRun.Capacity.Objectives)}): their capacities answer different questions");
        var rule = new LeadRule(confidence, threshold, (newRun.Spec.EquivalencePercent ?? LeadRule.DefaultEquivalence * 100) / 100);
        var rows = new List<Row>();
        foreach (var b in baseRun.Cells)
        {
            var n = newRun.Cells.FirstOrDefault(c => c.Key == b.Key);
            if (n is null) continue;
            var (before, after) = (Logs(b), Logs(n));
            var judged = before.Count == 0 || after.Count == 0 ? null : MetricJudge.FromIndependentLogs(rule, Metrics.Capacity, before, after);
            var interval = judged?.Interval;
            string? reason = null;
            var outcome = PairVerdicts.NotSettled;
            if (judged is null) reason = "no capacity on " + (before.Count == 0 ? "the base" : "the new") + " side: no rate held the objectives";
            else if (interval is null) reason = LeadRule.OneUnit;
            else outcome = judged.IsRegression ? RunDiff.Regression : judged.IsImprovement ? RunDiff.Improvement
                : judged.IsEquivalent ? PairVerdicts.Equivalent : PairVerdicts.NotSettled;
            rows.Add(new Row(b.Key, b.Summary?.Capacity, n.Summary?.Capacity, interval, outcome, reason));
        }
        return new CapacityDiff(rows, threshold, confidence, baseRun.Capacity.Objectives);
    }

    private static List<double> Logs(CapacityCell cell) => cell.Launches.Where(l => l.Held is > 0).Select(l => Math.Log(l.Held!.Value)).ToList();
}
