using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Comparing;

/// <summary>
/// The decisions of a run, made once by the <see cref="LeadRule"/> its spec names: for the baseline
/// against every other target, per endpoint, size and concurrency (first driver, as the charts), every
/// judged figure of <see cref="Metrics.VerdictFigures"/> at the cells its descriptor names: the ratio
/// other/baseline with its interval and the leader, or the reason none is named. Stored in results.json;
/// every renderer reads these rather than judging the figures again.
/// </summary>
public static class PairVerdicts
{
    /// <summary>Every verdict of the run: stored, or, for a result built in memory without them, the rule's judgement now.</summary>
    public static IReadOnlyList<CellVerdict> AllJudged(this RunResult run) => run.Verdicts ?? Build(run);

    /// <summary>The decisions on the headline figure in the closed loop (<see cref="Metrics.Headline"/>: req/s); the curves, crossovers, the table and the answer's first sentences read these.</summary>
    public static IReadOnlyList<CellVerdict> Headline(this RunResult run) =>
        run.AllJudged().Where(v => v.Rate is null && v.Metric == Metrics.Headline.VerdictId).ToList();

    /// <summary>The decisions on every other figure judged in the closed loop (the counts of work, where read).</summary>
    public static IReadOnlyList<CellVerdict> ClosedLoopOthers(this RunResult run) =>
        run.AllJudged().Where(v => v.Rate is null && v.Metric != Metrics.Headline.VerdictId).ToList();

    /// <summary>The decisions on the fixed-rate cells: every figure judged at the same asked rate (costs and latency).</summary>
    public static IReadOnlyList<CellVerdict> AtFixedRate(this RunResult run) => run.AllJudged().Where(v => v.Rate is not null).ToList();

    /// <summary>Every decision in the order the reports give them: the headline, the closed loop's other figures, the fixed rate's.</summary>
    public static IReadOnlyList<CellVerdict> InReportOrder(this RunResult run) => run.Headline().Concat(run.ClosedLoopOthers()).Concat(run.AtFixedRate()).ToList();

    /// <summary>The reason of a figure the rule could not settle (its interval says what cannot be ruled out).</summary>
    public const string NotSettled = "not settled";
    /// <summary>The reason of a figure the rule found equivalent (within the margin).</summary>
    public const string Equivalent = "equivalent";
    /// <summary>The start of the reason of a figure one side did not have (the CPU's counters not read, a process not ours): no comparison, and no fault of the run.</summary>
    public const string NoFigure = "no figure";

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

    /// <summary>The simulated pass's own sequential design, where it added launches until settled; null where it ran a fixed count.</summary>
    public static SequentialDesign? SimulatedDesignOf(RunSpec spec) =>
        spec.SimulatedSequential is SequentialSpec q ? new SequentialDesign(q.FirstLook, q.MaxLaunches) : null;

    /// <summary>What a verdict says in a table cell: "X leads", "X leads, within ±5%", "equivalent", "not settled", or why none.</summary>
    public static string Said(this CellVerdict v) =>
        v.Leader is string leader ? leader + " leads" + (v.WithinMargin ? " (by less than the margin)" : "")
        : v.Outcome == CellVerdict.Equivalent ? "equivalent"
        : v.Outcome == CellVerdict.Unsettled && v.RatioLow is not null ? NotSettled
        : v.Reason ?? "";

    public static IReadOnlyList<CellVerdict> Build(RunResult run)
    {
        var rule = RuleOf(run.Spec);
        var baseline = run.Spec.BaselineTarget;
        var verdicts = new List<CellVerdict>();
        foreach (var fixedRate in new[] { false, true })
        {
            var cells = run.ComparedCells(fixedRate);
            var others = run.Targets.Select(t => t.Name).Concat(cells.Select(c => c.Key.Target)).Distinct()
                .Where(t => t != baseline && cells.Any(c => c.Key.Target == t)).ToList();
            foreach (var other in others)
            foreach (var b in cells.Where(c => c.Key.Target == other))
            {
                var a = cells.FirstOrDefault(c => c.Key == b.Key with { Target = baseline });
                foreach (var metric in Metrics.VerdictFigures(fixedRate))
                    if (!metric.Judging!.WhereRead || Read(metric, a) || Read(metric, b))
                        verdicts.Add(Decide(rule, metric, baseline, a, b, SimulatedDesignOf(run.Spec)));
            }
        }
        return verdicts;
    }

    /// <summary>Whether any window of a cell has the figure.</summary>
    private static bool Read(MetricDescriptor metric, CellResult? cell) => cell?.WindowsOf(metric).Any(m => metric.Of(m) is not null) == true;

    /// <summary>
    /// One figure of one compared cell: the interval of other/baseline and who leads by the rule. A side
    /// not measured, or with failures, is no comparison; at the closed loop a cell paced by a wait or a
    /// starved pool names no leader (it measured the wait); at a fixed rate a side that did not keep up
    /// (overloaded) was not under the same load.
    /// </summary>
    /// <param name="simulatedDesign">how the simulated pass added its launches (<see cref="SimulatedDesignOf"/>); null for a fixed count</param>
    public static CellVerdict Decide(LeadRule rule, MetricDescriptor metric, string baseline, CellResult? a, CellResult b, SequentialDesign? simulatedDesign = null)
    {
        var key = b.Key;
        var other = key.Target;
        var fixedRate = key.Rate is not null;
        CellVerdict Verdict(double? ratio, string? reason, string? pacedBy = null) =>
            new(key, baseline, metric.VerdictId!, ratio, null, null, rule.Confidence, null, reason) { PacedBy = pacedBy };

        var sides = new[] { (Name: baseline, Cell: a), (Name: other, Cell: (CellResult?)b) };
        var missing = sides.Where(x => x.Cell?.Summary is null).ToList();
        if (missing.Count > 0)
            return Verdict(null, string.Join("; ", missing.Select(m => $"not measured on {m.Name}" +
                (!fixedRate && m.Cell?.NotMeasuredReason is string why ? $" ({why})" : ""))));
        string On(string flag) { var on = sides.Where(x => x.Cell!.Flags.Contains(flag)).Select(x => x.Name).ToList(); return on.Count == 0 ? "" : on.Count == 2 ? "both" : on[0]; }
        if (fixedRate)
        {
            foreach (var flag in new[] { CellFlags.Failed, CellFlags.Overloaded })
                if (On(flag) is { Length: > 0 } where) return Verdict(null, $"{flag} on {where}: not the same load");
        }
        else
        {
            var failed = sides.Where(x => x.Cell!.FailedTotal > 0).ToList();
            if (failed.Count > 0)
                return Verdict(null, string.Join("; ", failed.Select(x => $"failed requests on {x.Name} ({x.Cell!.FailedTotal.ToString(CultureInfo.InvariantCulture)})")));
        }
        var absent = sides.Where(x => metric.Of(x.Cell!.Summary!) is null).Select(x => x.Name).ToList();
        if (absent.Count > 0) return Verdict(null, $"{NoFigure}: {metric.Label} not read on {(absent.Count == 2 ? "either side" : absent[0])}");
        var median = metric.Of(a!.Summary!) is double va && va > 0 && metric.Of(b.Summary!) is double vb ? vb / va : (double?)null;
        // A cell paced by a wait or a starved pool measures the wait: whatever the interval, it names no leader. Not so the simulated count:
        // its pass runs in launches of its own on one connection, and counts work, not pace; the measured cell's flags say nothing of it.
        if (!fixedRate && metric.Pass != MetricPass.Simulated)
            foreach (var (flag, meaning) in PacedBy)
                if (On(flag) is { Length: > 0 } where) return Verdict(median, $"{flag} on {where}: {meaning}", flag);

        // The simulated pass adds launches by a design of its own (its first look at 3 launches, its own horizon and budget), or runs a fixed
        // count looked at once (Student's t at that count): never the measured launches' design.
        var figureRule = metric.Pass == MetricPass.Simulated ? rule with { Design = simulatedDesign } : rule;
        var judged = MetricJudge.Compare(figureRule, metric, a.WindowsOf(metric), b.WindowsOf(metric), paired: true);
        if (judged.Interval is not RatioInterval interval) return Verdict(median, judged.WhyNot);
        var j = judged.Judgment!;
        return Verdict(interval.Ratio, j.Outcome switch { Outcome.Equivalent => Equivalent, Outcome.Unsettled => NotSettled, _ => null }) with
        {
            RatioLow = interval.Low,
            RatioHigh = interval.High,
            Outcome = j.Outcome switch
            {
                Outcome.Higher => CellVerdict.Higher,
                Outcome.Lower => CellVerdict.Lower,
                Outcome.Equivalent => CellVerdict.Equivalent,
                _ => CellVerdict.Unsettled,
            },
            Leader = judged.Better switch { Side.New => other, Side.Base => baseline, _ => null },
            EquivalenceLow = double.IsNaN(interval.EquivalenceLow) ? null : interval.EquivalenceLow,
            EquivalenceHigh = double.IsNaN(interval.EquivalenceHigh) ? null : interval.EquivalenceHigh,
            Launches = interval.Units,
            WithinMargin = j.AlsoWithinMargin,
        };
    }
}
