using System.Text;
using Comparator.Results;
using Comparator.Statistics;
using Comparator.Comparing;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Text;

/// <summary>What a line of the verdict is: a pair's heading, its reading note, an endpoint, a size under it, a caution.</summary>
public enum VerdictLineKind { Pair, Note, Table, Endpoint, Size, CautionHeading, Caution }

/// <param name="Table">The compact verdict table of a pair (endpoint × size: ratio, interval, verdict), on a <see cref="VerdictLineKind.Table"/> line.</param>
public sealed record VerdictLine(VerdictLineKind Kind, string Text, TextTable? Table = null);

/// <summary>
/// The answer for an architecture review, on top of every report and last on the terminal: the
/// baseline against each other target, per endpoint, across sizes: who leads in the headline figure
/// (requests/s) and by how much (or that the intervals overlap), where the lead changes hands as the
/// payload grows (<see cref="Crossovers"/>), every other judged figure with its verdict (each named and
/// said by its descriptor), what is only reported beside them, and what the numbers cannot say (flagged cells, targets not measured, runtime or
/// server differences and whether <see cref="Attribution"/>'s steps can split them off).
/// Every sentence is built from the figures it shows; who leads is read from the run's verdicts
/// (<see cref="PairVerdicts"/>, decided by the lead rule), never judged here, so the table, the
/// sentences, the crossovers and results.json cannot disagree. Built here as lines, the cautions in
/// VerdictCautions.cs; <see cref="VerdictRenderer"/> writes them for each output.
/// </summary>
public static partial class Verdict
{
    /// <summary>The flags that limit what a figure can say: named on its line, and explained among the cautions (<see cref="CellFlags.Meanings"/>).</summary>
    private static readonly string[] Limits = { CellFlags.ClientBound, CellFlags.MachineBound, CellFlags.Noisy, CellFlags.WaitBound, CellFlags.Starved, CellFlags.Contended,
        CellFlags.Stolen, CellFlags.Compiling };

    /// <summary>
    /// The verdict of a run; a run under several allotments of cores (--server-cores) gives how the
    /// lead moves across them first, then each allotment's verdict with its cores in every sentence.
    /// </summary>
    public static IReadOnlyList<VerdictLine> Build(RunResult run)
    {
        if (!run.HasSeveralCores()) return Build(run, tagged: false);
        var lines = CoreCrossovers.Lines(run).ToList();
        foreach (var part in run.ByCores()) lines.AddRange(Build(part, tagged: true));
        return lines;
    }

    /// <param name="tagged">Whether each sentence names the part's cores (one allotment among several); the pair's line always does.</param>
    private static IReadOnlyList<VerdictLine> Build(RunResult run, bool tagged)
    {
        var lines = new List<VerdictLine>();
        var on = tagged ? " " + CoreParts.Short(run.Spec) : "";
        var driver = run.ComparedDriver();
        var cells = run.ComparedCells();
        var baseline = run.Spec.BaselineTarget;
        var targetNames = run.Targets.Select(t => t.Name).Concat(cells.Select(c => c.Key.Target)).Distinct().ToList();
        var others = targetNames.Where(t => t != baseline && cells.Any(c => c.Key.Target == t && c.Summary is not null)).ToList();
        var baseInfo = run.Targets.FirstOrDefault(t => t.Name == baseline);
        var crossovers = Crossovers.Find(run);
        var verdicts = run.Headline();
        var costs = run.ClosedLoopOthers();
        var headline = Metrics.Headline;
        var rule = PairVerdicts.RuleOf(run.Spec);
        var endpoints = run.Spec.Endpoints.Concat(cells.Select(c => c.Key.Endpoint)).Distinct().ToList();
        var concurrencies = cells.Select(c => c.Key.Concurrency).Distinct().OrderBy(c => c).ToList();

        if (baseInfo is { Measured: false } || !cells.Any(c => c.Key.Target == baseline && c.Summary is not null))
            lines.Add(new(VerdictLineKind.Pair, $"No verdict: the baseline {baseline} was not measured" +
                (baseInfo?.NotMeasuredReason is string why ? $" ({why})" : "")));
        else if (others.Count == 0)
            lines.Add(new(VerdictLineKind.Pair, $"No verdict: {baseline} is the only target measured in this run"));
        else
        {
            foreach (var other in others)
            {
                lines.Add(new(VerdictLineKind.Pair, $"{other} against {baseline} (baseline), {CoreParts.Short(run.Spec)}"));
                var pairVerdicts = verdicts.Where(v => v.Baseline == baseline && v.Other == other).ToList();
                // Launch counts as the rule used them (stored with each verdict); counted from the cells for files without them.
                var launches = pairVerdicts.Select(v => v.Launches).OfType<int>().ToList();
                if (launches.Count == 0)
                    launches = cells.Where(c => c.Key.Target is var t && (t == other || t == baseline) && c.Summary is not null)
                        .Select(c => LeadRule.UnitKeys(c.Repeats).Select(k => k.Launch).Distinct().Count()).DefaultIfEmpty(0).ToList();
                lines.Add(new(VerdictLineKind.Note,
                    $"Ratios are {other}/{baseline} in {headline.Judging!.Short} over {launches.Min()}" + (launches.Max() != launches.Min() ? $" to {launches.Max()}" : "") +
                    $" launch(es) (driver {driver}); {rule.Statement}. Other figures are {other} vs {baseline}, median window."));
                lines.Add(new(VerdictLineKind.Note, Cores(run.Spec)));
                // The noise floor: half the width of each interval on the log scale, as a percentage; a smaller gap cannot be resolved here.
                var halfWidths = pairVerdicts.Where(v => v.RatioLow > 0 && v.RatioHigh > 0)
                    .Select(v => Math.Exp(Math.Log(v.RatioHigh!.Value / v.RatioLow!.Value) / 2) - 1).OrderBy(h => h).ToList();
                if (halfWidths.Count > 0)
                    lines.Add(new(VerdictLineKind.Note, $"Noise floor of this run: the intervals reach ±{Format.Percent(Math.Round(halfWidths[0], 3))} " +
                        $"to ±{Format.Percent(Math.Round(halfWidths[^1], 3))} around their ratio; a smaller gap than a cell's own is not resolved there."));
                if (Family(run, run.InReportOrder().Where(v => v.Baseline == baseline && v.Other == other).ToList()) is string family)
                    lines.Add(new(VerdictLineKind.Note, family));
                lines.Add(new(VerdictLineKind.Table, "", Table(pairVerdicts, cells)));
                foreach (var endpoint in endpoints)
                foreach (var conc in concurrencies)
                {
                    var group = cells.Where(c => c.Key.Endpoint == endpoint && c.Key.Concurrency == conc && (c.Key.Target == other || c.Key.Target == baseline)).ToList();
                    if (group.Count == 0) continue;
                    var label = endpoint + (concurrencies.Count > 1 ? $" c={conc}" : "");
                    var sizes = group.Select(c => (c.Key.SizeBytes, c.SizeLabel)).Distinct().OrderBy(s => s.SizeBytes).ToList();
                    CellVerdict? VerdictAt(long? size) => pairVerdicts.FirstOrDefault(v => v.Endpoint == endpoint && v.Concurrency == conc && v.SizeBytes == size);
                    string SizeText(CellResult? a, CellResult? b) => Compare(baseline, a, other, b, VerdictAt((b ?? a)?.Key.SizeBytes),
                        costs.Where(v => v.Baseline == baseline && v.Other == other && v.Endpoint == endpoint && v.Concurrency == conc && v.SizeBytes == (b ?? a)?.Key.SizeBytes).ToList());
                    CellResult? Cell(string t, long size) => group.FirstOrDefault(c => c.Key.Target == t && c.Key.SizeBytes == size);
                    if (sizes.Count == 1)
                    {
                        var size = sizes[0];
                        var at = cells.HasSizes(endpoint) ? $"{label} {size.SizeLabel}" : label;
                        lines.Add(new(VerdictLineKind.Endpoint, $"{at}{on}: {SizeText(Cell(baseline, size.SizeBytes), Cell(other, size.SizeBytes))}"));
                        continue;
                    }
                    var crossover = crossovers.FirstOrDefault(x => x.Endpoint == endpoint && x.Concurrency == conc && x.Baseline == baseline && x.Other == other);
                    lines.Add(new(VerdictLineKind.Endpoint, label + on + ": " + Curve(crossover, baseline, other,
                        sizes.Select(s => (s.SizeLabel, Cell(baseline, s.SizeBytes), Cell(other, s.SizeBytes), VerdictAt(s.SizeBytes)?.Ratio)).ToList())));
                    foreach (var size in sizes)
                        lines.Add(new(VerdictLineKind.Size, $"{size.SizeLabel}: {SizeText(Cell(baseline, size.SizeBytes), Cell(other, size.SizeBytes))}"));
                }
                lines.AddRange(AtRate(run, driver, baseline, other, on));
            }
        }

        var cautions = Cautions(run, cells, baseline, others).ToList();
        if (cautions.Count > 0)
        {
            lines.Add(new(VerdictLineKind.CautionHeading, "What these numbers cannot say" + on));
            lines.AddRange(cautions.Select(c => new VerdictLine(VerdictLineKind.Caution, c)));
        }
        return lines;
    }

    /// <summary>
    /// The fixed-rate cells of a pair: at the same asked rate, every figure judged there (its descriptor says
    /// which: the costs a request takes and the p90 from each request's intended send time) with its verdict,
    /// then what is only reported (the cores busy, the other percentiles).
    /// </summary>
    private static IEnumerable<VerdictLine> AtRate(RunResult run, string? driver, string baseline, string other, string on)
    {
        var rated = run.ComparedCells(fixedRate: true).Where(c => (c.Key.Target == baseline || c.Key.Target == other)).ToList();
        var verdicts = run.AtFixedRate().Where(v => v.Baseline == baseline && v.Other == other).ToList();
        var groups = rated.GroupBy(c => c.Key with { Target = CellKey.AnyTarget }).Where(g => g.Any(c => c.Key.Target == other)).ToList();
        if (groups.Count == 0) yield break;
        var judged = Metrics.VerdictFigures(fixedRate: true).ToList();
        var reportedFigures = Reported(JudgedAt.FixedRate, judged);
        yield return new(VerdictLineKind.Note, $"At a fixed rate (open model: requests sent at a constant rate whatever the server does, latency from each request's intended send time), " +
                                               $"{other} vs {baseline}; {Join(judged.Select(m => m.Label + (m.Judging!.WhereRead ? " (where read)" : "")).ToList())} are judged by the same interval rule, " +
                                               $"the better side leading; {Join(reportedFigures.Select(m => m.Label).ToList())} are reported, not judged (a window holds too few requests above p99).");
        foreach (var g in groups)
        {
            var a = g.FirstOrDefault(c => c.Key.Target == baseline)?.Summary;
            var b = g.FirstOrDefault(c => c.Key.Target == other)?.Summary;
            var key = g.Key;
            var at = $"{key.Endpoint}{(rated.HasSizes(key.Endpoint) ? " " + g.First().SizeLabel : "")} @{N(key.Rate!.Value, "0")}/s{on}";
            if (a is null || b is null) { yield return new(VerdictLineKind.Endpoint, $"{at}: not measured on both"); continue; }
            var parts = judged.Select(m => CostLine.Judged(m, verdicts.FirstOrDefault(x => x.Metric == m.VerdictId && x.Key with { Target = CellKey.AnyTarget } == key), a, b))
                .OfType<string>().ToList();
            var reported = reportedFigures.Where(m => m.Of(a) is not null || m.Of(b) is not null)
                .Select(m => $"{m.Label} {m.Show(m.Of(b))} vs {m.Show(m.Of(a))}");
            yield return new(VerdictLineKind.Endpoint,
                $"{at}: achieved {N(b.RequestsPerSecond, "0")} vs {N(a.RequestsPerSecond, "0")} req/s; " + string.Join("; ", parts) +
                $"; reported: {string.Join(", ", reported)}" +
                Flagged(g.ToList()));
        }
    }

    /// <summary>
    /// The figures a verdict's line reports beside the judged ones at these cells (<see cref="MetricDescriptor.ReportedAt"/>): a figure judged at
    /// other cells first (the server's CPU time flat out), then the rest in the catalogue's order.
    /// </summary>
    private static IReadOnlyList<MetricDescriptor> Reported(JudgedAt at, IReadOnlyList<MetricDescriptor> judged) =>
        Metrics.All.Where(m => m.ReportedAt.HasFlag(at) && !judged.Contains(m)).OrderBy(m => m.Verdicts == JudgedAt.Never).ToList();

    private static string Join(IReadOnlyList<string> items) =>
        items.Count <= 1 ? string.Concat(items) : string.Join(", ", items.Take(items.Count - 1)) + " and " + items[^1];

    private static string Flagged(IReadOnlyList<CellResult> cells)
    {
        var flags = cells.Where(c => c.Flags.Count > 0).Select(c => $"{c.Key.Target}: {string.Join(" ", c.Flags)}").ToList();
        return flags.Count == 0 ? "" : " [" + string.Join("; ", flags) + "]";
    }

    /// <summary>
    /// One size of a pair: the headline's lead with its interval, or the noise with its interval, or why no verdict; then every other
    /// figure judged in the closed loop (<paramref name="others"/>), the costs reported beside them, and the flags.
    /// </summary>
    public static string Compare(string baseline, CellResult? a, string other, CellResult? b, CellVerdict? verdict, IReadOnlyList<CellVerdict>? others = null)
    {
        if (a?.Summary is null || b?.Summary is null || a.FailedTotal > 0 || b.FailedTotal > 0 || verdict is null)
            return (verdict?.Reason ?? "not compared") + ": no verdict";

        var headline = verdict.Figure ?? Metrics.Headline;
        var figures = $"{headline.Show(headline.Of(b.Summary))} vs {headline.Show(headline.Of(a.Summary))} {headline.Label}";
        var text = new StringBuilder(Lead(verdict, headline, figures));
        var judged = Metrics.VerdictFigures(fixedRate: false).Where(m => m != headline).ToList();
        foreach (var figure in judged)
            if (CostLine.Judged(figure, others?.FirstOrDefault(v => v.Metric == figure.VerdictId), a.Summary, b.Summary) is string line) text.Append("; ").Append(line);
        // Reported beside the judged figures, as their descriptors say (the server's CPU time, judged at a fixed rate, not flat out; p99), and the wire bytes.
        foreach (var shown in Reported(JudgedAt.ClosedLoop, judged))
        {
            var (x, y) = (shown.Of(a.Summary), shown.Of(b.Summary));
            text.Append(x is null && y is null ? $"; {shown.Label} n/a" : $"; {shown.Label} {shown.Show(y)} vs {shown.Show(x)} ({(x > 0 && y is double yy ? X(yy / x.Value) : "n/a")})");
        }
        text.Append($"; {WireBytes(b)} vs {WireBytes(a)} per response");
        var flags = Limits.Select(f => (f, onA: a.Flags.Contains(f), onB: b.Flags.Contains(f)))
            .Where(f => f.onA || f.onB).Select(f => $"{f.f}: {(f.onA && f.onB ? "both" : f.onA ? baseline : other)}").ToList();
        if (flags.Count > 0) text.Append(" [").Append(string.Join("; ", flags)).Append(']');
        foreach (var counted in others ?? Array.Empty<CellVerdict>())
            if (CostLine.Disagreement(verdict, counted, baseline, a.Summary, other, b.Summary) is string opposite) text.Append(". ").Append(opposite);
        return text.ToString();
    }

    /// <summary>
    /// "webapi-selfhost is 1.14x faster (99% interval 1.08x–1.21x; ...)": a lead is stated from the
    /// leader's side, so its ratio is above 1; "equivalent within ±5%" and "not settled: between 0.85x
    /// and 1.19x" keep other/baseline.
    /// </summary>
    private static string Lead(CellVerdict v, MetricDescriptor figure, string figures)
    {
        var confidence = Format.Percent(v.Confidence);
        var launches = v.Launches is int n ? $", {n} launches" : "";
        var unit = figure.Judging!.Short;
        if (v.Leader is string leader && v.Ratio is double r && v.RatioLow is double lo && v.RatioHigh is double hi)
        {
            var (ratio, low, high) = JudgedTable.Advantage(v, leader);
            var small = v.WithinMargin ? $", by less than the equivalence margin" : "";
            return $"{leader} is {X(ratio)} {figure.Judging.Comparative}{small} ({confidence} interval {X(low)}–{X(high)}{launches}; {figures})";
        }
        if (v.Outcome == CellVerdict.Equivalent && v.EquivalenceLow is double el && v.EquivalenceHigh is double eh)
            return $"equivalent, {X(v.Ratio!.Value)} {unit} (90% interval {X(el)}–{X(eh)} within the margin{launches}; {figures})";
        if (v.RatioLow is not null && !FewLaunches.Bounds(v))
            return $"not settled: {FewLaunches.Words(v)} ({X(v.Ratio!.Value)}; {figures})";
        if (v.RatioLow is double l && v.RatioHigh is double h)
            return $"not settled: between {X(l)} and {X(h)} {unit} cannot be ruled out ({X(v.Ratio!.Value)}, {confidence} interval{launches}; {figures})";
        return $"{v.Reason}: {(v.Ratio is double m ? X(m) : "n/a")} {unit} ({figures})";
    }

    /// <summary>The compact table on top of a pair's verdict: one row per endpoint and size.</summary>
    private static TextTable Table(IReadOnlyList<CellVerdict> verdicts, IReadOnlyList<CellResult> cells)
    {
        var multipleConcurrency = verdicts.Select(v => v.Concurrency).Distinct().Count() > 1;
        string Size(CellVerdict v) => cells.HasSizes(v.Endpoint)
            ? cells.FirstOrDefault(c => c.Key.SizeBytes == v.SizeBytes)?.SizeLabel ?? v.SizeBytes.ToString(CultureInfo.InvariantCulture) + "B"
            : "-";
        string Interval(CellVerdict v) => v.RatioLow is double l && v.RatioHigh is double h
            ? FewLaunches.Bounds(v) ? $"{X(l)}–{X(h)}" : $"none from {v.Launches} launches" : "none";
        string Said(CellVerdict v) => v.Said();
        var header = new List<string> { "endpoint", "size" };
        if (multipleConcurrency) header.Add("conc");
        header.AddRange(new[] { "ratio", $"{Format.Percent(verdicts.FirstOrDefault()?.Confidence ?? LeadRule.DefaultConfidence)} interval", "verdict" });
        return new TextTable(header, verdicts.Select(v =>
        {
            var row = new List<string> { v.Endpoint, Size(v) };
            if (multipleConcurrency) row.Add(v.Concurrency.ToString(CultureInfo.InvariantCulture));
            row.AddRange(new[] { v.Ratio is double r ? X(r) : "n/a", Interval(v), Said(v) });
            return (IReadOnlyList<string>)row;
        }).ToList());
    }

    /// <summary>
    /// An endpoint across sizes: Crossovers' sentence, then how the req/s ratio moves from the smallest to the largest size with a verdict.
    /// The ratio is the verdict's (the table's), judged once; a size without one falls back to the ratio of the medians.
    /// </summary>
    private static string Curve(Crossover? crossover, string baseline, string other, IReadOnlyList<(string Size, CellResult? A, CellResult? B, double? Judged)> sizes)
    {
        var usable = sizes.Where(s => s.A?.Summary is { RequestsPerSecond: > 0 } && s.B?.Summary is not null && s.A.FailedTotal == 0 && s.B.FailedTotal == 0).ToList();
        if (crossover is null || usable.Count == 0) return $"no size measured without failures on both {other} and {baseline}: no verdict";
        var sentence = crossover.Sentence()[(crossover.Endpoint.Length + 2)..];
        if (usable.Count == 1) return sentence;
        string R((string Size, CellResult? A, CellResult? B, double? Judged) s) => $"{X(s.Judged ?? s.B!.Summary!.RequestsPerSecond / s.A!.Summary!.RequestsPerSecond)} at {s.Size}";
        return $"{sentence}; {other}/{baseline} req/s {R(usable[0])} to {R(usable[^1])}";
    }

    /// <summary>How many cores each server had and where the driver ran: the answer can flip with them.</summary>
    public static string Cores(RunSpec spec)
    {
        if (spec.SeparateServerCores is int separate) return $"Cores: each server on its own machine of {separate} core(s), the driver on another.";
        var cores = spec.Machine.LogicalCores;
        if (spec.Cores is null && spec.Pin is string pin) return $"Cores: {pin} ({cores} on the machine); every target ran on the servers' CPUs, one at a time.";
        return $"Cores: the servers {CoreParts.Phrase(spec)} ({cores} on the machine), one at a time; the lead can change with the cores a server gets (--server-cores measures several).";
    }

    /// <summary>
    /// The family of judgments: how many the run made, what each settled, and the largest chance under
    /// A/A that any of them is a false lead (the simulated worst single rate times their count).
    /// </summary>
    internal static string? Family(RunResult run, IReadOnlyList<CellVerdict> judged)
    {
        var withInterval = judged.Where(v => v.RatioLow is not null).ToList();
        if (withInterval.Count == 0) return null;
        var rule = PairVerdicts.RuleOf(run.Spec);
        var single = RuleSimulation.WorstFalseLeadRate(rule, withInterval.Max(v => v.Launches ?? 2));
        var settled = withInterval.Count(v => v.Settled);
        var leads = withInterval.Count(v => v.Leader is not null);
        var equivalent = withInterval.Count(v => v.Outcome == CellVerdict.Equivalent);
        var stop = run.Spec.Sequential is SequentialSpec q ? $" Launches were added to unsettled cells: {q.LaunchesRun} launch(es), {q.LoadSeconds:0} s of load, stopped at {q.Stopped}." : "";
        return $"This run made {withInterval.Count} judgments: {leads} lead(s), {equivalent} equivalent, {withInterval.Count - settled} not settled. " +
               $"The chance that any of them is a false lead between identical services is at most {Format.Percent(Math.Min(1, Math.Round(single * withInterval.Count, 4)))} " +
               $"({withInterval.Count} × {Format.Percent(Math.Round(single, 5))}, the worst single rate simulated over spreads of 1% to 30%).{stop}";
    }

    private static string WireBytes(CellResult cell) =>
        cell.Summary is { Requests: > 0 } s ? Bytes((double)s.BytesReceived / s.Requests) : "n/a";

    private static string Bytes(double b) => b < 10 * 1024 ? N(b, "0") + " B" : b < 10 * 1024 * 1024 ? N(b / 1024, "0.0") + " KB" : N(b / 1024 / 1024, "0.00") + " MB";

    private static string Ms(double ms) => N(ms, ms >= 100 ? "0" : ms >= 10 ? "0.0" : "0.00");

    private static string X(double ratio) => Format.Ratio(ratio);

    private static string N(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
    private static string N(double? value, string format) => value is double v ? N(v, format) : "n/a";
}
