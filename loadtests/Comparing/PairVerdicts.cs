using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Comparing;

/// <summary>
/// The decisions of a run, made once by the <see cref="LeadRule"/> its spec names: for the baseline
/// against every other target, per endpoint, size and concurrency (first driver, as the charts), the
/// ratio of requests/s with its interval and the leader, or the reason none is named. Stored in
/// results.json; every renderer reads these rather than judging the figures again.
/// </summary>
public static class PairVerdicts
{
    /// <summary>The run's stored verdicts, or, for a result built in memory without them, the rule's judgement now.</summary>
    public static IReadOnlyList<CellVerdict> Judged(this RunResult run) => (run.Verdicts ?? Build(run)).Where(v => v.Rate is null).ToList();

    /// <summary>The decisions on the fixed-rate cells: server CPU and p99 at the same asked rate, lower leading.</summary>
    public static IReadOnlyList<CellVerdict> JudgedAtRate(this RunResult run) => (run.Verdicts ?? Build(run)).Where(v => v.Rate is not null).ToList();

    /// <summary>The reason of a figure the rule could not settle (its interval says what cannot be ruled out).</summary>
    public const string NotSettled = "not settled";
    /// <summary>The reason of a figure the rule found equivalent (within the margin).</summary>
    public const string Equivalent = "equivalent";

    /// <summary>The flags that say a cell was paced by something other than the framework's work, and what set the pace.</summary>
    public static readonly (string Flag, string Meaning)[] PacedBy =
    {
        (CellFlags.Starved, "the thread pool's injection set the pace"),
        (CellFlags.WaitBound, "a wait set the pace, not the framework's work"),
    };

    /// <summary>The rule a run was judged by: its recorded settings, or the defaults for files saved before they were recorded.</summary>
    public static LeadRule RuleOf(RunSpec spec) => new(
        spec.Confidence ?? LeadRule.DefaultConfidence,
        spec.MinEffectPercent is double m ? m / 100 : LeadRule.DefaultMinEffect,
        spec.EquivalencePercent is double e ? e / 100 : LeadRule.DefaultEquivalence,
        spec.Sequential is SequentialSpec q ? new SequentialDesign(q.FirstLook, q.MaxLaunches) : null);

    /// <summary>What a verdict says in a table cell: "X leads", "X leads, within ±5%", "equivalent", "not settled", or why none.</summary>
    public static string Said(this CellVerdict v) =>
        v.Leader is string leader ? leader + " leads" + (v.WithinMargin ? " (by less than the margin)" : "")
        : v.Outcome == CellVerdict.Equivalent ? "equivalent"
        : v.Outcome == CellVerdict.Unsettled && v.RatioLow is not null ? NotSettled
        : v.Reason ?? "";

    public static IReadOnlyList<CellVerdict> Build(RunResult run)
    {
        var rule = RuleOf(run.Spec);
        var driver = run.Spec.Drivers.FirstOrDefault()?.Name;
        var cells = run.Cells.Where(c => c.Key.Driver == driver && c.Key.Rate is null).ToList();
        var baseline = run.Spec.BaselineTarget;
        var others = run.Targets.Select(t => t.Name).Concat(cells.Select(c => c.Key.Target)).Distinct()
            .Where(t => t != baseline && cells.Any(c => c.Key.Target == t)).ToList();
        var verdicts = new List<CellVerdict>();
        foreach (var other in others)
        foreach (var b in cells.Where(c => c.Key.Target == other))
        {
            var a = cells.FirstOrDefault(c => c.Key.Target == baseline && c.Key.Endpoint == b.Key.Endpoint &&
                                              c.Key.SizeBytes == b.Key.SizeBytes && c.Key.Concurrency == b.Key.Concurrency && c.Key.Cores == b.Key.Cores);
            verdicts.Add(Decide(rule, b.Key, baseline, a, other, b));
        }
        var rated = run.Cells.Where(c => c.Key.Driver == driver && c.Key.Rate is not null).ToList();
        foreach (var other in others)
        foreach (var b in rated.Where(c => c.Key.Target == other))
        {
            var a = rated.FirstOrDefault(c => c.Key with { Target = other } == b.Key && c.Key.Target == baseline);
            verdicts.Add(DecideCost(rule, b.Key, baseline, a, other, b, CellVerdict.ServerCpu, m => m.ServerCpuUsPerRequest));
            verdicts.Add(DecideCost(rule, b.Key, baseline, a, other, b, CellVerdict.P90, m => m.LatencyP90Ms));
        }
        return verdicts;
    }

    /// <summary>
    /// A cost at the same asked rate (server CPU, p90): the interval of other/baseline, the lower side
    /// leading when it lies wholly beyond the minimum effect. A side that did not keep up is no comparison.
    /// </summary>
    public static CellVerdict DecideCost(LeadRule rule, CellKey key, string baseline, CellResult? a, string other, CellResult b, string metric,
        System.Func<Measurement, double?> value)
    {
        CellVerdict Verdict(double? ratio, RatioInterval? interval, string? leader, string? reason) =>
            new(key.Endpoint, key.SizeBytes, key.Concurrency, baseline, other, metric,
                interval?.Ratio ?? ratio, interval?.Low, interval?.High, rule.Confidence, leader, reason, key.Rate) { Cores = key.Cores };

        var missing = new[] { (baseline, a), (other, b) }.Where(x => x.Item2?.Summary is null).ToList();
        if (missing.Count > 0) return Verdict(null, null, null, string.Join("; ", missing.Select(m => $"not measured on {m.Item1}")));
        foreach (var flag in new[] { CellFlags.Failed, CellFlags.Overloaded })
        {
            var on = new[] { (baseline, a!), (other, b) }.Where(x => x.Item2.Flags.Contains(flag)).Select(x => x.Item1).ToList();
            if (on.Count > 0) return Verdict(null, null, null, $"{flag} on {(on.Count == 2 ? "both" : on[0])}: not the same load");
        }
        var median = value(a!.Summary!) is double va && va > 0 && value(b.Summary!) is double vb ? vb / va : (double?)null;
        var interval = rule.Paired(a.Repeats, b.Repeats, value, out var whyNot);
        if (interval is null) return Verdict(median, null, null, whyNot);
        // other costs more: the baseline leads
        return Judged(Verdict(null, interval, null, null), rule.Judge(interval), higherLeader: baseline, lowerLeader: other);
    }

    /// <summary>A verdict with the rule's judgment written in: outcome, leader, reason and both intervals.</summary>
    private static CellVerdict Judged(CellVerdict v, Judgment j, string higherLeader, string lowerLeader) => v with
    {
        Outcome = j.Outcome switch
        {
            Statistics.Outcome.Higher => CellVerdict.Higher,
            Statistics.Outcome.Lower => CellVerdict.Lower,
            Statistics.Outcome.Equivalent => CellVerdict.Equivalent,
            _ => CellVerdict.Unsettled,
        },
        Leader = j.Outcome switch { Statistics.Outcome.Higher => higherLeader, Statistics.Outcome.Lower => lowerLeader, _ => null },
        Reason = j.Outcome switch { Statistics.Outcome.Equivalent => Equivalent, Statistics.Outcome.Unsettled => NotSettled, _ => null },
        EquivalenceLow = double.IsNaN(j.Interval.EquivalenceLow) ? null : j.Interval.EquivalenceLow,
        EquivalenceHigh = double.IsNaN(j.Interval.EquivalenceHigh) ? null : j.Interval.EquivalenceHigh,
        Launches = j.Interval.Units,
        WithinMargin = j.AlsoWithinMargin,
    };

    /// <summary>One compared cell: the interval of other/baseline in requests/s, and who leads by the rule.</summary>
    public static CellVerdict Decide(LeadRule rule, CellKey key, string baseline, CellResult? a, string other, CellResult b)
    {
        CellVerdict Verdict(double? ratio, RatioInterval? interval, string? leader, string? reason) =>
            new(key.Endpoint, key.SizeBytes, key.Concurrency, baseline, other, CellVerdict.RequestsPerSecond,
                interval?.Ratio ?? ratio, interval?.Low, interval?.High, rule.Confidence, leader, reason) { Cores = key.Cores };

        var missing = new[] { (baseline, a), (other, b) }.Where(x => x.Item2?.Summary is null).ToList();
        if (missing.Count > 0)
            return Verdict(null, null, null, string.Join("; ", missing.Select(m => $"not measured on {m.Item1}" +
                (m.Item2?.NotMeasuredReason is string why ? $" ({why})" : ""))));
        var failed = new[] { (baseline, a!), (other, b) }.Where(x => x.Item2.FailedTotal > 0).ToList();
        if (failed.Count > 0)
            return Verdict(null, null, null, string.Join("; ", failed.Select(x =>
                $"failed requests on {x.Item1} ({x.Item2.FailedTotal.ToString(CultureInfo.InvariantCulture)})")));

        var median = a!.Summary!.RequestsPerSecond > 0 ? b.Summary!.RequestsPerSecond / a.Summary.RequestsPerSecond : (double?)null;
        // A cell paced by a wait or a starved pool measures the wait: whatever the interval, it names no leader.
        foreach (var (flag, meaning) in PacedBy)
        {
            var on = new[] { (baseline, a), (other, b) }.Where(x => x.Item2.Flags.Contains(flag)).Select(x => x.Item1).ToList();
            if (on.Count > 0) return Verdict(median, null, null, $"{flag} on {(on.Count == 2 ? "both" : on[0])}: {meaning}");
        }
        var interval = rule.Paired(a.Repeats, b.Repeats, m => m.RequestsPerSecond, out var whyNot);
        if (interval is null) return Verdict(median, null, null, whyNot);
        return Judged(Verdict(null, interval, null, null), rule.Judge(interval), higherLeader: other, lowerLeader: baseline);
    }
}
