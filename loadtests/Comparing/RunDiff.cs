using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Comparing;

/// <summary>What the diff concluded on one figure of a cell: the word every renderer of it (Markdown, JUnit) reads.</summary>
public enum FigureOutcome { Regression, Improvement, Equivalent, WithinThreshold, NotSettled, NotJudged }

/// <summary>One matched cell: its label and the figures that moved.</summary>
/// <param name="OneLaunch">a side has fewer than two launches in this cell: nothing in it can be judged</param>
/// <param name="FixedRate">a cell at a fixed rate (its figures are costs at the same asked load), not the closed loop</param>
public sealed record CellDiff(string Label, IReadOnlyList<Comparison> Changes, string Verdict, bool OneLaunch = false, bool FixedRate = false);

/// <summary>
/// The comparison of two sides (two runs, or two targets of one run), cell by cell, judged by the one
/// rule (<see cref="LeadRule"/>): a figure is a regression only when its interval for new/base lies
/// wholly beyond the threshold the bad way, equivalent when its 90% interval lies within the margin,
/// and not settled otherwise. Between two runs the interval is Welch's t over each run's launches,
/// between two targets of one run the paired interval over launches with the run's own design. A
/// figure that did not change is called a regression at most (1 − confidence) / 2 of the time.
/// With fewer than two launches on a side nothing can be judged (<see cref="CannotJudge"/>); a diff
/// asked to gate anyway (<see cref="PointEstimates"/>) compares the medians with the threshold and says so.
/// </summary>
public sealed record RunDiff(string BaseLabel, string NewLabel, LeadRule Rule, bool Paired, IReadOnlyList<CellDiff> Cells,
    IReadOnlyList<string> OnlyInBase, IReadOnlyList<string> OnlyInNew, bool PointEstimates = false)
{
    public const string Regression = "REGRESSION";
    public const string Improvement = "improvement";
    public const string Equivalent = "equivalent";
    public const string NotSettled = "not settled";
    public const string NotJudged = "not judged (no interval)";
    public const string OneLaunch = "cannot judge (one launch on a side)";
    public const string UnchangedByPoint = "no change beyond threshold (point estimates)";
    public const string SetByTheRate = "set by the rate asked at a fixed rate: shown, not judged";

    /// <summary>The threshold: the smallest change the interval must lie beyond.</summary>
    public double Threshold => Rule.MinEffect;

    /// <summary>The size models both sides fitted (<see cref="SizeModelDiff"/>): their parts gate like any judged figure.</summary>
    public IReadOnlyList<ModelDiff> Models { get; init; } = Array.Empty<ModelDiff>();

    public bool HasRegression => Cells.Any(c => c.Verdict == Regression) || Models.Any(m => m.Parts.Any(p => OutcomeOf(p.Change) == FigureOutcome.Regression));

    /// <summary>Some cell has fewer than two launches on a side: no interval, so no judgment either way.</summary>
    public bool CannotJudge => Cells.Any(c => c.OneLaunch);

    /// <summary>
    /// Cells whose lead figure the rule settled neither way nor as equivalent (or could not judge): too little evidence
    /// for a gate. The lead figure is instructions per request where both sides counted them, else req/s.
    /// </summary>
    public IReadOnlyList<CellDiff> Unsettled => Cells.Where(c => c.Verdict != Regression && c.Verdict != Improvement &&
        Lead(c) is var lead && !(lead.IsEquivalent || lead.IsImprovement || lead.IsRegression)).ToList();

    /// <summary>One figure's outcome, as the cell's verdict was reached: by its interval, or (a diff gating on medians) by its median against the threshold.</summary>
    public FigureOutcome OutcomeOf(Comparison change) => Outcome(change, PointEstimates);

    private static FigureOutcome Outcome(Comparison m, bool points) =>
        m.WhyNot == SetByTheRate ? FigureOutcome.NotJudged
        : m.IsRegression || (points && m.PointRegression) ? FigureOutcome.Regression
        : m.IsImprovement ? FigureOutcome.Improvement
        : m.IsEquivalent ? FigureOutcome.Equivalent
        : points && m.Change is not null ? FigureOutcome.WithinThreshold
        : m.Interval is null ? FigureOutcome.NotJudged
        : FigureOutcome.NotSettled;

    /// <summary>
    /// A cell's lead figure, by the one rule of <see cref="Metrics.Deciding"/>: a count of work where both sides have an interval of it,
    /// else the figure that decides at this kind of cell (req/s flat out, server CPU at a fixed rate); the first gated figure otherwise.
    /// </summary>
    public static Comparison Lead(CellDiff cell) =>
        Metrics.Deciding(cell.Changes.Select(c => c.Metric), cell.FixedRate, m => cell.Changes.Any(c => c.Metric == m && c.Interval is not null)) is { } deciding
            ? cell.Changes.First(c => c.Metric == deciding)
            : cell.Changes[0];

    /// <summary>Two runs: cells matched by what was asked of them (<see cref="CellMatch"/>: target, endpoint, size, concurrency, driver, the rate as asked); Welch's t, one look.</summary>
    public static RunDiff BetweenRuns(RunResult baseRun, RunResult newRun, double threshold, string baseLabel, string newLabel,
        double confidence = LeadRule.DefaultConfidence, bool pointEstimates = false)
    {
        var recorded = PairVerdicts.RuleOf(newRun.Spec);
        var rule = new LeadRule(confidence, threshold, recorded.Equivalence);
        return Build(Matched(baseRun, baseRun.Cells, anyTarget: false), Matched(newRun, newRun.Cells, anyTarget: false), (m, c) => $"{c.Key.Target} {m.Label(c)}",
            rule, paired: false, baseLabel, newLabel, pointEstimates) with { Models = SizeModelDiff.BetweenRuns(baseRun, newRun, rule with { Design = null }) };
    }

    /// <summary>Two targets of one run (the migration question): cells matched by what was asked but the target, windows paired by launch, the run's own design.</summary>
    public static RunDiff BetweenTargets(RunResult run, string from, string to, double threshold, double confidence = LeadRule.DefaultConfidence,
        bool pointEstimates = false)
    {
        var rule = PairVerdicts.RuleOf(run.Spec) with { Confidence = confidence, MinEffect = threshold };
        return Build(Matched(run, run.Cells.Where(c => c.Key.Target == from), anyTarget: true), Matched(run, run.Cells.Where(c => c.Key.Target == to), anyTarget: true),
            (m, c) => m.Label(c), rule, paired: true, from, to, pointEstimates) with { Models = SizeModelDiff.BetweenTargets(run, from, to, rule with { Design = null }) };
    }

    private static Dictionary<CellMatch, CellResult> Matched(RunResult run, IEnumerable<CellResult> cells, bool anyTarget) =>
        cells.Where(c => c.Summary is not null).ToDictionary(c => CellMatch.Of(run, c) is var m && anyTarget ? m.AnyTarget : CellMatch.Of(run, c));

    private static RunDiff Build(Dictionary<CellMatch, CellResult> b, Dictionary<CellMatch, CellResult> n, Func<CellMatch, CellResult, string> label,
        LeadRule rule, bool paired, string baseLabel, string newLabel, bool pointEstimates)
    {
        var cells = b.Keys.Where(n.ContainsKey).Select(k => Compare(label(k, n[k]), b[k], n[k], rule, paired)).ToList();
        // Gating on medians is only ever a fallback for a side without launches to judge.
        var points = pointEstimates && cells.Any(c => c.OneLaunch);
        if (points)
            cells = cells.Select(c => c with { Verdict = c.Changes.Any(m => Outcome(m, points: true) == FigureOutcome.Regression) ? Regression : UnchangedByPoint }).ToList();
        return new RunDiff(baseLabel, newLabel, rule, paired, cells,
            b.Keys.Where(k => !n.ContainsKey(k)).Select(k => label(k, b[k])).ToList(), n.Keys.Where(k => !b.ContainsKey(k)).Select(k => label(k, n[k])).ToList(), points);
    }

    private static CellDiff Compare(string label, CellResult b, CellResult n, LeadRule rule, bool paired)
    {
        // Every gated figure keeps its column; one the asked rate sets (req/s at a fixed rate) is shown, not judged.
        var fixedRate = b.Key.Rate is not null;
        var changes = Metrics.Gated.Select(m => m.GatedAt(fixedRate)
            ? MetricJudge.Compare(rule, m, b.WindowsOf(m), n.WindowsOf(m), paired, b.Summary, n.Summary) is var judged && judged.Base is null && judged.New is null
                ? judged with { Base = MedianOf(b, m), New = MedianOf(n, m) }
                : judged
            : new Comparison(m, b.Summary is null ? null : m.Of(b.Summary), n.Summary is null ? null : m.Of(n.Summary), null, SetByTheRate, null, rule)).ToList();
        var oneLaunch = Launches(b) < 2 || Launches(n) < 2;
        var judged = changes.Where(c => c.Interval is not null).ToList();
        var verdict = changes.Any(c => c.IsRegression) ? Regression
            : changes.Any(c => c.IsImprovement) ? Improvement
            : oneLaunch ? OneLaunch
            : judged.Count == 0 ? NotJudged
            : judged.All(c => c.IsEquivalent) ? Equivalent
            : NotSettled;
        return new CellDiff(label, changes, verdict, oneLaunch, b.Key.Rate is not null);
    }

    /// <summary>A figure the median window does not hold (a simulated count, read from its own pass's windows): the median of the windows it is read from.</summary>
    private static double? MedianOf(CellResult cell, MetricDescriptor figure) =>
        CellResult.Median(cell.WindowsOf(figure).Select(figure.Of).OfType<double>().ToList());

    private static int Launches(CellResult c) => LeadRule.UnitKeys(c.Repeats).Select(k => k.Launch).Distinct().Count();
}
