using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Comparing;

/// <summary>A saved run as a history reads it: the result, where it was read from, and the mark that makes it an intended new baseline.</summary>
public sealed record HistoryInput(RunResult Run, string Source, BaselineMark? Baseline = null);

/// <summary>What picks the runs of a history: since when, how many of the newest per group, and which machines' runs.</summary>
/// <param name="Machine">a fingerprint (or its first characters) to keep that machine's runs only; <see cref="EachMachine"/> to chart each machine apart;
/// <see cref="AnyMachine"/> to mix them in one series; null: the runs must all be of one machine</param>
public sealed record HistorySelection(DateTimeOffset? Since = null, int? Last = null, string? Machine = null)
{
    public const string EachMachine = "each";
    public const string AnyMachine = "any";
}

/// <summary>One run in a group's time order, numbered from 1.</summary>
/// <param name="Revisions">the revision of the run (--revision REV) and of each target that has one of its own ("webapi=4f2a")</param>
public sealed record HistoryRun(int Number, string Source, DateTimeOffset StartedAt, string? Label, IReadOnlyList<string> Revisions, bool Partial,
    bool Baseline, string? BaselineReason);

/// <summary>A run's figure: the geometric mean over its launches, with the run's interval over them (none with one launch), and the cell's flags.</summary>
public sealed record HistoryPoint(int Run, double Value, double? Low, double? High, int Launches, IReadOnlyList<string> Flags);

/// <summary>A change point of one series: between run <see cref="Before"/> and run <see cref="After"/>, the medians on either side.</summary>
/// <param name="Worse">the figure moved the bad way (req/s down, a cost or latency up)</param>
/// <param name="Current">found after the newest baseline: it still counts for the gate</param>
public sealed record HistoryChange(int Before, int After, double T, double MedianBefore, double MedianAfter, bool Worse, bool Current)
{
    /// <summary>After over before, minus one.</summary>
    public double Change => MedianAfter / MedianBefore - 1;
}

/// <summary>
/// One target's figure at one cell, run by run, with the changes found in it. <see cref="Gates"/>: the figure the history's gate
/// reads for this target and cell (instructions per request where every run counted them, else req/s, p90 at a fixed rate); the
/// other figures inform. <see cref="Judgment"/> is the gate's word on it; <see cref="WhyNot"/> says why it cannot judge.
/// </summary>
/// <param name="Findable">the smallest step the rule would find in the series as it is since the newest baseline (its run-to-run spread, a step
/// halfway): TThreshold × s × √(2/k) on the logs, k the runs on each side, or the minimum change where that is larger; null where too short</param>
public sealed record HistorySeries(string Target, CellKey Cell, string CellLabel, string Metric, bool Gates, IReadOnlyList<HistoryPoint> Points,
    IReadOnlyList<HistoryChange> Changes, string Judgment, string? WhyNot, double? Findable = null)
{
    public const string Regression = "regression";
    public const string Improvement = "improvement";
    public const string NoChange = "no change";
    public const string CannotJudge = "cannot judge";

    [System.Text.Json.Serialization.JsonIgnore] public MetricDescriptor Descriptor => Metrics.ById(Metric)!;
}

/// <summary>Runs of one machine (or of any, when mixing was asked) and one set of targets, in time order, and their series.</summary>
public sealed record HistoryGroup(string Machine, string MachineText, IReadOnlyList<string> Targets, IReadOnlyList<HistoryRun> Runs, IReadOnlyList<HistorySeries> Series);

/// <summary>
/// A history, immutable: every group's runs and series, the change-point rule it was found by, and the runs that could not be read.
/// The gate fails on a regression of a gating figure after the newest baseline, and cannot pass what it could not judge.
/// </summary>
public sealed record HistoryResult(DateTimeOffset At, ChangePointRule Rule, string RuleText, HistorySelection Selection, IReadOnlyList<HistoryGroup> Groups,
    IReadOnlyList<string> Skipped)
{
    [System.Text.Json.Serialization.JsonIgnore] public IEnumerable<HistorySeries> Gating => Groups.SelectMany(g => g.Series).Where(s => s.Gates);
    public bool HasRegression => Gating.Any(s => s.Judgment == HistorySeries.Regression);
    public bool CannotJudge => Gating.Any(s => s.Judgment == HistorySeries.CannotJudge);
}

/// <summary>
/// Builds a history from saved runs: groups by machine fingerprint and target set, orders by start, and per target, cell (matched as
/// `diff` matches them) and judged figure finds the change points of the series with <see cref="ChangePoints"/>. A baseline mark
/// splits a series: no change is looked for across it (the step at it is intended), and only changes after the newest one gate.
/// </summary>
public static class RunHistory
{
    /// <summary>The fingerprint a run's machine is known by; a file saved before fingerprints were recorded is fingerprinted from what it has.</summary>
    public static string MachineOf(RunResult run) => run.Spec.Machine.Fingerprint ?? run.Spec.Machine.FingerprintOfFacts();

    public static HistoryResult Build(IReadOnlyList<HistoryInput> inputs, HistorySelection selection, DateTimeOffset at, IReadOnlyList<string>? skipped = null,
        ChangePointRule? rule = null)
    {
        rule ??= ChangePointRule.Default;
        var chosen = inputs.Where(i => selection.Since is not DateTimeOffset since || i.Run.StartedAt >= since).ToList();
        if (selection.Machine is string m && m != HistorySelection.EachMachine && m != HistorySelection.AnyMachine)
            chosen = chosen.Where(i => MachineOf(i.Run).StartsWith(m, StringComparison.OrdinalIgnoreCase)).ToList();
        var mixed = selection.Machine == HistorySelection.AnyMachine;
        var groups = chosen
            .GroupBy(i => (Machine: mixed ? HistorySelection.AnyMachine : MachineOf(i.Run), Targets: string.Join('\n', i.Run.Spec.Targets.OrderBy(t => t, StringComparer.Ordinal))))
            .Select(g => Group(g.Key.Machine, mixed, g.OrderBy(i => i.Run.StartedAt).TakeLast(selection.Last ?? int.MaxValue).ToList(), rule))
            .OrderBy(g => g.Machine, StringComparer.Ordinal).ThenBy(g => string.Join(' ', g.Targets), StringComparer.Ordinal)
            .ToList();
        return new HistoryResult(at, rule, rule.Describe(), selection, groups, skipped ?? Array.Empty<string>());
    }

    /// <summary>The machines of these runs, with how many runs each: more than one, and a history must be told what to do with them.</summary>
    public static IReadOnlyList<(string Fingerprint, string Text, int Runs)> Machines(IEnumerable<HistoryInput> inputs) =>
        inputs.GroupBy(i => MachineOf(i.Run)).Select(g => (g.Key, Describe(g.First().Run.Spec.Machine), g.Count())).OrderBy(x => x.Key, StringComparer.Ordinal).ToList();

    private static string Describe(MachineInfo m) => $"{m.CpuModel}, {m.LogicalCores} cores, {m.OperatingSystem}";

    private static HistoryGroup Group(string machine, bool mixed, IReadOnlyList<HistoryInput> inputs, ChangePointRule rule)
    {
        var runs = inputs.Select((i, n) => new HistoryRun(n + 1, i.Source, i.Run.StartedAt, i.Run.Spec.Label, Revisions(i.Run), i.Run.Partial,
            i.Baseline is not null, i.Baseline?.Reason)).ToList();
        var targets = inputs[^1].Run.Spec.Targets;
        var baselines = runs.Where(r => r.Baseline).Select(r => r.Number).ToList();
        var series = new List<HistorySeries>();
        var cells = inputs.SelectMany((i, n) => i.Run.Cells.Where(c => c.Summary is not null).Select(c => (Run: n + 1, Rule: PairVerdicts.RuleOf(i.Run.Spec), Cell: c,
                Match: CellMatch.Of(i.Run, c))))
            .GroupBy(x => x.Match)
            .OrderBy(g => Math.Max(0, targets.ToList().IndexOf(g.Key.Key.Target))).ThenBy(g => g.Key.Key.Endpoint, StringComparer.Ordinal)
            .ThenBy(g => g.Key.Key.SizeBytes).ThenBy(g => g.Key.Key.Concurrency).ThenBy(g => g.Key.Key.Driver, StringComparer.Ordinal)
            .ThenBy(g => g.Key.Rate is null ? 0 : 1).ThenBy(g => g.Key.Rate, StringComparer.Ordinal);
        foreach (var cell in cells)
        {
            var points = Metrics.Gated.Where(m => m.GatedAt(cell.Key.Rate is not null))
                .ToDictionary(m => m, m => cell.Select(x => Point(x.Run, x.Cell, m, x.Rule)).OfType<HistoryPoint>().ToList());
            var gate = Gate(points, cell.Key.Rate is not null);
            var last = cell.Last().Cell;
            var label = cell.Key.Label(last);
            foreach (var (metric, list) in points.Where(p => p.Value.Count > 0))
                series.Add(Series(cell.Key.Key.Target, last.Key, label, metric, metric == gate, list, baselines, rule));
        }
        series.AddRange(ModelSeries(inputs, baselines, rule));
        var first = inputs[0].Run.Spec.Machine;
        return new HistoryGroup(machine, mixed ? "runs of any machine, mixed as asked" : Describe(first), targets, runs, series);
    }

    /// <summary>
    /// The figure that gates a cell, by the one rule of <see cref="Metrics.Deciding"/>: a count of work where every run that measured the
    /// cell has it, else the figure that decides at this kind of cell (req/s flat out, server CPU at a fixed rate).
    /// </summary>
    private static MetricDescriptor? Gate(Dictionary<MetricDescriptor, List<HistoryPoint>> points, bool fixedRate)
    {
        var most = points.Values.Max(p => p.Count);
        return Metrics.Deciding(points.Keys, fixedRate, m => points[m].Count > 0 && points[m].Count >= most);
    }

    /// <summary>
    /// The size models' parts as series of their own (a model's fixed cost a request, its cost per KB), per target, endpoint, concurrency,
    /// driver and the sizes fitted over: they gate as a cell's figures do, the first counted figure every run with the model has.
    /// </summary>
    private static IEnumerable<HistorySeries> ModelSeries(IReadOnlyList<HistoryInput> inputs, IReadOnlyList<int> baselines, ChangePointRule rule)
    {
        var models = inputs.SelectMany((i, n) => SizeModelFit.Build(i.Run).Models.Select(m => (Run: n + 1, Rule: PairVerdicts.RuleOf(i.Run.Spec), Model: m)))
            .GroupBy(x => (x.Model.Target, x.Model.Endpoint, x.Model.Concurrency, x.Model.Driver, Sizes: string.Join(',', x.Model.Points.Select(p => p.SizeBytes))));
        foreach (var model in models)
        {
            var byFigure = model.GroupBy(x => x.Model.Figure).ToDictionary(f => f.Key, f => f.ToList());
            var most = byFigure.Values.Max(l => l.Count);
            var gate = SizeModelFit.Figures.FirstOrDefault(f => byFigure.TryGetValue(f.Id, out var l) && l.Count == most);
            var key = new CellKey(model.Key.Target, model.Key.Endpoint, 0, model.Key.Concurrency, model.Key.Driver);
            foreach (var (figure, fits) in byFigure)
            foreach (var (part, of) in new (string, Func<LaunchLine, double>)[] { (ModelDiff.FixedPart, l => l.Fixed), (ModelDiff.PerKbPart, l => l.PerKb) })
            {
                var points = fits.Select(x => ModelPoint(x.Run, x.Model, of, x.Rule)).OfType<HistoryPoint>().ToList();
                if (points.Count == 0) continue;
                var metric = Metrics.ById(figure)!;
                yield return Series(model.Key.Target, key, $"{model.Key.Endpoint} c={model.Key.Concurrency} {model.Key.Driver} size model ({part})", metric,
                    metric == gate, points, baselines, rule);
            }
        }
    }

    /// <summary>A run's model part: the geometric mean of its launches' lines' parts with their interval; none where a launch's is zero or less.</summary>
    private static HistoryPoint? ModelPoint(int run, SizeModel model, Func<LaunchLine, double> part, LeadRule rule)
    {
        if (model.Launches.Any(l => part(l) <= 0)) return null;
        var logs = model.Launches.Select(l => Math.Log(part(l))).ToList();
        var interval = rule.Interval(logs, out _);
        return new HistoryPoint(run, Math.Exp(logs.Average()), interval?.Low, interval?.High, logs.Count, Array.Empty<string>());
    }

    private static HistoryPoint? Point(int run, CellResult cell, MetricDescriptor metric, LeadRule rule)
    {
        if (LeadRule.LaunchLogMeans(cell.WindowsOf(metric), metric.Of) is not { Count: > 0 } logs) return null;
        var interval = rule.Interval(logs, out _);
        return new HistoryPoint(run, Math.Exp(logs.Average()), interval?.Low, interval?.High, logs.Count, cell.Flags);
    }

    private static HistorySeries Series(string target, CellKey cell, string label, MetricDescriptor metric, bool gates, IReadOnlyList<HistoryPoint> points,
        IReadOnlyList<int> baselines, ChangePointRule rule)
    {
        // A baseline run opens a segment of its own: changes are looked for within segments, never across a mark.
        var segments = points.GroupBy(p => baselines.Count(b => b <= p.Run)).Select(g => g.ToList()).ToList();
        var changes = new List<HistoryChange>();
        foreach (var (segment, index) in segments.Select((s, i) => (s, i)))
        foreach (var found in ChangePoints.Find(segment.Select(p => p.Value).ToList(), rule))
        {
            var worse = MetricJudge.IsWorse(metric, found.Change);
            changes.Add(new HistoryChange(segment[found.Index - 1].Run, segment[found.Index].Run, found.T, found.MedianBefore, found.MedianAfter, worse,
                Current: index == segments.Count - 1));
        }
        var current = segments[^1];
        var since = baselines.Count > 0 && current[0].Run >= baselines.Max() ? $"since the baseline of run {current[0].Run}" : "in the series";
        string? whyNot = current.Count < 2 * rule.MinRuns
            ? $"{current.Count} run(s) {since}; a change needs {rule.MinRuns} on each side"
            : null;
        var judgment = changes.Any(c => c.Current && c.Worse) ? HistorySeries.Regression
            : changes.Any(c => c.Current) ? HistorySeries.Improvement
            : whyNot is not null ? HistorySeries.CannotJudge
            : HistorySeries.NoChange;
        return new HistorySeries(target, cell, label, metric.Id, gates, points, changes, judgment, whyNot, whyNot is null ? Findable(current, changes, rule) : null);
    }

    /// <summary>
    /// The smallest step the rule finds in a segment of this spread: the run-to-run standard deviation of the logs (pooled over the pieces
    /// between the changes found, so a step is not taken for spread), at a step halfway with as many runs on each side as the window allows.
    /// </summary>
    private static double Findable(IReadOnlyList<HistoryPoint> segment, IReadOnlyList<HistoryChange> changes, ChangePointRule rule)
    {
        var cuts = changes.Where(c => c.Current).Select(c => c.After).ToList();
        var pieces = segment.GroupBy(p => cuts.Count(c => c <= p.Run)).Select(g => g.Select(p => Math.Log(p.Value)).ToList()).Where(g => g.Count > 1).ToList();
        var freedom = pieces.Sum(p => p.Count - 1);
        var pooled = freedom > 0 ? Math.Sqrt(pieces.Sum(p => p.Sum(v => (v - p.Average()) * (v - p.Average()))) / freedom) : 0;
        var side = Math.Min(rule.Window, segment.Count / 2);
        return Math.Max(rule.MinChange, Math.Exp(rule.TThreshold * pooled * Math.Sqrt(2.0 / side)) - 1);
    }

    private static IReadOnlyList<string> Revisions(RunResult run) =>
        (run.Spec.Revision is string r ? new[] { r } : Array.Empty<string>())
        .Concat(run.Targets.Where(t => t.Revision is not null && t.Revision != run.Spec.Revision).Select(t => $"{t.Name}={t.Revision}")).ToList();
}
