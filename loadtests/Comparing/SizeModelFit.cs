using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Comparing;

/// <summary>
/// Fits the run's size models (<see cref="SizeModelSet"/>): for every counted figure judged flat out (a count of work a request: simulated
/// instructions, and where read instructions, system calls, bytes allocated), every target and every endpoint measured at
/// <see cref="LeastSizes"/> sizes or more, one least-squares line per launch through that launch's figure at each size. The launches give
/// the intervals, as they do for every verdict; the pairs' parts are judged by the run's rule over the launches' log ratios, once, with
/// Student's t at that many launches (the model is not a figure the launches were added for).
/// </summary>
public static class SizeModelFit
{
    /// <summary>Three sizes at least: two determine a line and leave nothing to check it by.</summary>
    public const int LeastSizes = 3;

    /// <summary>
    /// The models a report's run carries (<see cref="Reports.RunReport"/> fits them afresh from the cells, whatever the file held: the cells
    /// are the record, the models in results.json are for readers without this code); fitted now where none are attached.
    /// </summary>
    public static SizeModelSet Of(RunResult run) => run.SizeModels ?? Build(run);

    /// <summary>The figures a model is fitted for: counts of work a request that a verdict judges flat out.</summary>
    public static IEnumerable<MetricDescriptor> Figures => Metrics.All.Where(m => m.Judging is { Counted: true } j && j.At.HasFlag(JudgedAt.ClosedLoop));

    public static SizeModelSet Build(RunResult run)
    {
        var rule = PairVerdicts.RuleOf(run.Spec) with { Design = null };
        var cells = run.ComparedCells().Where(c => c.Key.SizeBytes > 0 && c.Summary is not null).ToList();
        var models = new List<SizeModel>();
        foreach (var figure in Figures)
            foreach (var group in cells.GroupBy(c => (c.Key.Target, c.Key.Endpoint, c.Key.Concurrency, c.Key.Cores)))
                if (Fit(figure, group.ToList(), rule) is SizeModel model) models.Add(model);
        var baseline = run.Spec.BaselineTarget;
        var comparisons = models.Where(m => m.Target != baseline)
            .Select(other => (Other: other, Base: models.FirstOrDefault(b => b.Target == baseline && b.Figure == other.Figure && b.Endpoint == other.Endpoint &&
                                                                           b.Concurrency == other.Concurrency && b.Driver == other.Driver)))
            .Where(p => p.Base is not null)
            .Select(p => Compare(p.Base!, p.Other, rule))
            .ToList();
        return new SizeModelSet(models, comparisons);
    }

    /// <summary>A launch's figure at one cell: the mean of its windows' (a simulated figure has one a launch); keyed by launch.</summary>
    private static Dictionary<int, double> PerLaunch(CellResult cell, MetricDescriptor figure)
    {
        var windows = cell.WindowsOf(figure);
        return windows.Select((w, i) => (Launch: w.Launch ?? i, Value: figure.Of(w)))
            .Where(x => x.Value is > 0)
            .GroupBy(x => x.Launch)
            .ToDictionary(g => g.Key, g => g.Average(x => x.Value!.Value));
    }

    /// <summary>One target's model at one endpoint, or null where fewer than <see cref="LeastSizes"/> sizes have the figure in a common launch.</summary>
    public static SizeModel? Fit(MetricDescriptor figure, IReadOnlyList<CellResult> cells, LeadRule rule)
    {
        var sizes = cells.GroupBy(c => c.Key.SizeBytes).Select(g => g.First()).OrderBy(c => c.Key.SizeBytes)
            .Select(c => (Cell: c, Launches: PerLaunch(c, figure))).Where(s => s.Launches.Count > 0).ToList();
        if (sizes.Count < LeastSizes) return null;
        var launches = sizes.Select(s => (IEnumerable<int>)s.Launches.Keys).Aggregate((a, b) => a.Intersect(b)).Order().ToList();
        if (launches.Count == 0) return null;
        static double Kb(CellResult c) => c.Key.SizeBytes / 1024.0;

        var lines = launches.Select(l => (Launch: l, Line: SizeLine.Fit(sizes.Select(s => (Kb(s.Cell), s.Launches[l])).ToList())!.Value)).ToList();
        var points = sizes.Select(s =>
        {
            var values = launches.Select(l => s.Launches[l]).ToList();
            return new SizePoint(s.Cell.Key.SizeBytes, s.Cell.SizeLabel, values.Average(), values.Min(), values.Max());
        }).ToList();
        // Each size against the line through the others, launch by launch: a size where the cost steps (a buffer, a chunk, a copy that
        // changes algorithm) lies off the line the others draw, by more than the launches' spread.
        var residuals = sizes.Select(s =>
        {
            var off = launches.Select(l =>
            {
                var others = SizeLine.Fit(sizes.Where(o => o.Cell != s.Cell).Select(o => (Kb(o.Cell), o.Launches[l])).ToList())!.Value;
                return s.Launches[l] / others.At(Kb(s.Cell)) - 1;
            }).ToList();
            var mean = LaunchMean.Of(off, rule.Confidence);
            return new SizeResidual(s.Cell.Key.SizeBytes, s.Cell.SizeLabel, mean.Mean, mean.Low, mean.High, mean.WhollyBeyond(rule.Equivalence));
        }).ToList();
        ModelEstimate Estimate(Func<SizeLine, double> part) => Over(lines.Select(l => part(l.Line)), rule);
        var first = sizes[0].Cell.Key;
        return new SizeModel(figure.Id, first.Target, first.Endpoint, first.Concurrency, first.Driver, points,
            lines.Select(l => new LaunchLine(l.Launch, l.Line.Fixed, l.Line.PerKb)).ToList(), Estimate(l => l.Fixed), Estimate(l => l.PerKb), residuals)
        {
            Pieces = Pieces(sizes.Select(s => (s.Cell.Key.SizeBytes, s.Cell.SizeLabel, s.Launches)).ToList(), residuals, launches, rule),
        };
    }

    /// <summary>
    /// A model the line does not hold, in pieces, launch by launch. Where the largest size alone (or the smallest alone) lies off the line,
    /// two: the line through the others and the end segment's slope between the off size and its neighbour. Where more lie off it (a cost
    /// that curves), a segment between each two neighbouring sizes, the first with its value at 0 KB. A lone size off in the middle is a
    /// bump, not a bend: no pieces, the size named.
    /// </summary>
    private static IReadOnlyList<SizePiece>? Pieces(IReadOnlyList<(long Bytes, string Label, Dictionary<int, double> Launches)> sizes,
        IReadOnlyList<SizeResidual> residuals, IReadOnlyList<int> launches, LeadRule rule)
    {
        var off = residuals.Select((r, i) => (r, i)).Where(x => x.r.OffTheLine).Select(x => x.i).ToList();
        if (off.Count == 0 || (off.Count == 1 && off[0] != 0 && off[0] != sizes.Count - 1)) return null;
        static double Kb(long bytes) => bytes / 1024.0;
        ModelEstimate Over(Func<int, double> perLaunch) => SizeModelFit.Over(launches.Select(perLaunch), rule);
        SizePiece Segment((long Bytes, string Label, Dictionary<int, double> Launches) a, (long Bytes, string Label, Dictionary<int, double> Launches) b, bool withFixed)
        {
            double Slope(int l) => (b.Launches[l] - a.Launches[l]) / (Kb(b.Bytes) - Kb(a.Bytes));
            return new SizePiece(a.Bytes, a.Label, b.Bytes, b.Label, withFixed ? Over(l => a.Launches[l] - Slope(l) * Kb(a.Bytes)) : null, Over(Slope));
        }
        if (off.Count > 1)
            return sizes.Zip(sizes.Skip(1), (a, b) => (a, b)).Select((p, i) => Segment(p.a, p.b, withFixed: i == 0)).ToList();

        var end = off[0];
        var on = sizes.Where((_, i) => i != end).ToList();
        var lines = launches.ToDictionary(l => l, l => SizeLine.Fit(on.Select(s => (Kb(s.Bytes), s.Launches[l])).ToList())!.Value);
        var line = new SizePiece(on[0].Bytes, on[0].Label, on[^1].Bytes, on[^1].Label, Over(l => lines[l].Fixed), Over(l => lines[l].PerKb));
        return end == 0 ? new[] { Segment(sizes[0], sizes[1], withFixed: false), line } : new[] { line, Segment(sizes[end - 1], sizes[end], withFixed: false) };
    }

    /// <summary>A part's launch values as the model gives it: their mean and its interval at the run's confidence.</summary>
    private static ModelEstimate Over(IEnumerable<double> perLaunch, LeadRule rule)
    {
        var mean = LaunchMean.Of(perLaunch.ToList(), rule.Confidence);
        return new ModelEstimate(mean.Mean, mean.Low, mean.High);
    }

    /// <summary>The other's model against the baseline's: each part judged over the launches both have, and where the lines cross.</summary>
    public static SizeModelComparison Compare(SizeModel baseline, SizeModel other, LeadRule rule)
    {
        var figure = Metrics.ById(baseline.Figure)!;
        var paired = baseline.Launches.Join(other.Launches, b => b.Launch, o => o.Launch, (b, o) => (Base: b, Other: o)).ToList();
        var largest = Math.Min(baseline.LargestKb, other.LargestKb);

        ModelPartVerdict Part(Func<LaunchLine, double> part, string name)
        {
            if (paired.Any(p => part(p.Base) <= 0 || part(p.Other) <= 0))
                return new ModelPartVerdict(null, null, null, null, null, paired.Count, $"a launch's {name} is zero or less on one side: no ratio");
            var ratio = paired.Average(p => part(p.Other)) / paired.Average(p => part(p.Base));
            // The one judge, so which side leads follows from the outcome and the figure's direction as everywhere else.
            var judged = MetricJudge.FromLogRatios(rule, figure, paired.Select(p => Math.Log(part(p.Other) / part(p.Base))).ToList());
            if (judged.Interval is not { } interval) return new ModelPartVerdict(ratio, null, null, null, null, paired.Count, judged.WhyNot);
            var leader = judged.Better switch { Side.Base => baseline.Target, Side.New => other.Target, _ => null };
            var outcome = judged.Outcome switch
            {
                Outcome.Higher => CellVerdict.Higher,
                Outcome.Lower => CellVerdict.Lower,
                Outcome.Equivalent => CellVerdict.Equivalent,
                _ => CellVerdict.Unsettled,
            };
            return new ModelPartVerdict(interval.Ratio, interval.Low, interval.High, outcome, leader, interval.Units, null);
        }

        var atLargest = Part(l => l.Fixed + l.PerKb * largest, "cost at the largest size");
        var fixedPart = Part(l => l.Fixed, "fixed cost");
        return new SizeModelComparison(baseline.Figure, baseline.Endpoint, baseline.Concurrency, baseline.Target, other.Target,
            fixedPart, Part(l => l.PerKb, "cost per KB"), Crossing(baseline, other, paired, rule, fixedPart, atLargest, largest));
    }

    /// <summary>
    /// Where the lines meet, said only as far as the launches settle it. Two straight lines cross between 0 KB and the largest size exactly
    /// when their order differs at the two ends, so the two ends are judged by the rule (the fixed parts; the lines at the largest size):
    /// the same side cheaper at both, settled, and they do not cross within the sizes measured; each side cheaper at one end, and they
    /// cross, at the mean lines' meeting with the interval of the launches'. An end the rule did not settle leaves the crossing not settled
    /// (a crossing of lines whose difference is noise lies anywhere); an end the same within the margin is said as such.
    /// </summary>
    private static LineCrossing Crossing(SizeModel baseline, SizeModel other, IReadOnlyList<(LaunchLine Base, LaunchLine Other)> paired, LeadRule rule,
        ModelPartVerdict atZero, ModelPartVerdict atLargest, double largest)
    {
        var range = $"0 to {Kb(largest)}";
        static bool Differ(ModelPartVerdict v) => v.Leader is not null;
        static bool Same(ModelPartVerdict v) => v.Outcome == CellVerdict.Equivalent;
        if (!(Differ(atZero) || Same(atZero)) || !(Differ(atLargest) || Same(atLargest)))
        {
            var which = !(Differ(atZero) || Same(atZero)) ? "the fixed costs (at 0 KB)" : $"the costs at {Kb(largest)}";
            return new LineCrossing(null, null, null, false, $"where the lines cross is not settled: {which} are not told apart nor the same within the margin");
        }
        if (Same(atZero) && Same(atLargest))
            return new LineCrossing(null, null, null, false, $"the lines are the same within the margin from {range}");
        if (Same(atZero))
            return new LineCrossing(null, null, null, false, $"the lines start the same within the margin and part with size: {atLargest.Leader} costs less at {Kb(largest)}");
        if (Same(atLargest))
            return new LineCrossing(null, null, null, false, $"{atZero.Leader} costs less before the body; at {Kb(largest)} the lines are the same within the margin");

        var a = new SizeLine(baseline.Fixed.Value, baseline.PerKb.Value);
        var b = new SizeLine(other.Fixed.Value, other.PerKb.Value);
        var at = a.Meets(b);
        if (atZero.Leader == atLargest.Leader)
            return at is double past && past > largest
                ? new LineCrossing(past, null, null, false,
                    $"the lines do not cross within the sizes measured ({range}): {atZero.Leader} costs less at every one; drawn on, they would meet at {Kb(past)}, past the largest size measured")
                : new LineCrossing(null, null, null, false, $"the lines do not cross at any size: {atZero.Leader} costs less at every size ({range} measured)");
        var kb = at!.Value;
        var each = paired.Select(p => new SizeLine(p.Base.Fixed, p.Base.PerKb).Meets(new SizeLine(p.Other.Fixed, p.Other.PerKb))).ToList();
        var interval = each.All(x => x is double v && v > 0) ? LaunchMean.Of(each.Select(x => x!.Value).ToList(), rule.Confidence) : null;
        var spread = interval?.Low is double low && interval.High is double high ? $" ({Format.Percent(rule.Confidence)} interval {Kb(Math.Max(0, low))}–{Kb(high)})" : "";
        return new LineCrossing(kb, interval?.Low, interval?.High, true, $"the lines cross at {Kb(kb)}{spread}: {atLargest.Leader} costs less above it");
    }

    /// <summary>"12.5 KB", "640 B".</summary>
    public static string Kb(double kb) => kb < 1
        ? (kb * 1024).ToString("0", System.Globalization.CultureInfo.InvariantCulture) + " B"
        : kb.ToString(kb < 10 ? "0.#" : "0", System.Globalization.CultureInfo.InvariantCulture) + " KB";
}
