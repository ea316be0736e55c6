using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Comparing;

/// <summary>
/// Capacities compared by the one lead rule: per cell, each target against the baseline, from the
/// launches where both found a capacity (the log of their ratio per launch, Student's t over launches).
/// Where one target held no rate in any launch and the other did, that is said instead of a ratio.
/// </summary>
public static class CapacityVerdicts
{
    public static IReadOnlyList<CapacityVerdict> Build(IReadOnlyList<CapacityCell> cells, string baseline, LeadRule rule, IReadOnlyList<string> objectives)
    {
        var verdicts = new List<CapacityVerdict>();
        foreach (var group in cells.GroupBy(c => (c.Key.Endpoint, c.Key.SizeBytes, c.Key.Concurrency, c.Key.Cores)))
        {
            var b = group.FirstOrDefault(c => c.Key.Target == baseline);
            if (b is null) continue;
            foreach (var o in group.Where(c => c.Key.Target != baseline))
                verdicts.Add(Judge(b, o, rule, string.Join(" and ", objectives)));
        }
        return verdicts;
    }

    private static CapacityVerdict Judge(CapacityCell baseline, CapacityCell other, LeadRule rule, string objectives)
    {
        var k = other.Key;
        CapacityVerdict Verdict(string outcome, string? leader, RatioInterval? i, int units, string? reason) =>
            new(k.Endpoint, k.SizeBytes, k.Concurrency, k.Cores, baseline.Key.Target, other.Key.Target, outcome, leader, i?.Ratio, i?.Low, i?.High, units, reason);

        var (bs, os) = (baseline.Summary, other.Summary);
        if (bs is { Launches: 0, FailedEverywhere: > 0 } && os is { Launches: > 0 })
            return Verdict(CellVerdict.Unsettled, null, null, 0, $"{objectives} breaks at every rate tried on {baseline.Key.Target} while {other.Key.Target} holds it up to {os.Capacity:0} req/s");
        if (os is { Launches: 0, FailedEverywhere: > 0 } && bs is { Launches: > 0 })
            return Verdict(CellVerdict.Unsettled, null, null, 0, $"{objectives} breaks at every rate tried on {other.Key.Target} while {baseline.Key.Target} holds it up to {bs.Capacity:0} req/s");

        var logRatios = other.Launches.Join(baseline.Launches, l => l.Launch, l => l.Launch, (o, b) => (o.Held, b.Held))
            .Where(p => p.Item1 is > 0 && p.Item2 is > 0).Select(p => Math.Log(p.Item1!.Value / p.Item2!.Value)).ToList();
        var judged = MetricJudge.FromLogRatios(rule, Metrics.Capacity, logRatios);
        if (judged.Interval is not RatioInterval interval)
            return Verdict(CellVerdict.Unsettled, null, null, logRatios.Count, judged.WhyNot);
        return judged.Outcome switch
        {
            Outcome.Higher => Verdict(CellVerdict.Higher, Leader(judged), interval, interval.Units, null),
            Outcome.Lower => Verdict(CellVerdict.Lower, Leader(judged), interval, interval.Units, null),
            Outcome.Equivalent => Verdict(CellVerdict.Equivalent, null, interval, interval.Units, $"within ±{Format.Percent(rule.Equivalence)}"),
            _ => Verdict(CellVerdict.Unsettled, null, interval, interval.Units, $"the interval {Format.Ratio(interval.Low)}–{Format.Ratio(interval.High)} reaches inside ±{Format.Percent(rule.MinEffect)}"),
        };
        string? Leader(Comparison c) => c.Better switch { Side.New => other.Key.Target, Side.Base => baseline.Key.Target, _ => null };
    }
}
