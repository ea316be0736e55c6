using Comparator.Comparing;
using Comparator.Results;
using Comparator.Reports.Sections;
using Comparator.Statistics;

namespace Comparator.Reports.Text;

/// <summary>
/// The size models in words and tables: each target's fixed cost and cost per KB with the points behind them and whether the line holds at
/// every size, each pair's parts as the rule judged them with where the lines cross, and one sentence per endpoint for the answer.
/// </summary>
public static class SizeModelText
{
    public const string Explanation =
        "Each target's cost a request at each body size, fitted as fixed + per KB × size by least squares, one line per launch; the fixed cost is " +
        "the line at 0 KB, the cost per KB what each 1,024 bytes of body adds, each the mean over launches with its interval. A size is off the line " +
        "where the line through the other sizes misses it by more than the equivalence margin, with the launches' interval wholly beyond it " +
        "(a buffer, a chunk, a copy that switches algorithm): there the cost per KB changes with size, and the sizes' own figures say more than " +
        "the line. Where the line does not hold the model is given in pieces as well: where the largest or the smallest size alone lies off " +
        "it, the line through the other sizes and the end segment's cost per KB; where more do (a cost that curves), each segment between " +
        "neighbouring sizes. Between two targets each part's ratio is judged by the lead rule over the launches. Nothing is said past the largest size measured.";

    /// <summary>The table of models: a row per figure, endpoint and target; null where the run has none.</summary>
    public static TextTable? Models(SizeModelSet set)
    {
        if (set.Models.Count == 0) return null;
        return new TextTable(new[] { "figure", "endpoint", "target", "fixed a request", "per KB", "measured (mean a request)", "line" },
            set.Models.Select(m =>
            {
                var figure = Figure(m.Figure);
                return (IReadOnlyList<string>)new[]
                {
                    figure.Label, m.Endpoint, m.Target, Estimate(figure, m.Fixed), Estimate(figure, m.PerKb),
                    string.Join(", ", m.Points.Select(p => $"{p.SizeLabel} {figure.Show(p.Mean)}")), Line(m, figure),
                };
            }).ToList());
    }

    /// <summary>The table of pairs: each part's ratio other/baseline as judged, and where the lines cross; null where the run has none.</summary>
    public static TextTable? Comparisons(SizeModelSet set)
    {
        if (set.Comparisons.Count == 0) return null;
        return new TextTable(new[] { "figure", "endpoint", "pair", "fixed cost", "cost per KB", "where the lines cross" },
            set.Comparisons.Select(c => (IReadOnlyList<string>)new[]
            {
                Figure(c.Figure).Label, c.Endpoint, $"{c.Other}/{c.Baseline}", Part(c.Fixed), Part(c.PerKb), c.Crossing.Said,
            }).ToList());
    }

    /// <summary>
    /// One sentence per endpoint where a part settled, for the first figure the pair has models of (simulated instructions where counted):
    /// "At echo-post, wcf-classic costs 1.43x webapi-selfhost's fixed cost a request (99% interval 1.40x–1.46x) and 1.15x its cost per KB (...)".
    /// </summary>
    public static IEnumerable<string> Sentences(RunResult run, string other, string baseline)
    {
        var set = SizeModelFit.Of(run);
        var pair = set.Comparisons.Where(c => c.Other == other && c.Baseline == baseline).ToList();
        var said = SizeModelFit.Figures.Select(f => f.Id).FirstOrDefault(id => pair.Any(c => c.Figure == id));
        foreach (var c in pair.Where(c => c.Figure == said && (Settled(c.Fixed) || Settled(c.PerKb))))
        {
            var figure = Figure(c.Figure);
            var noun = figure.Judging!.Noun;
            var off = set.Models.Where(m => m.Figure == c.Figure && m.Endpoint == c.Endpoint && (m.Target == other || m.Target == baseline) && !m.Holds)
                .Select(m => $"{m.Target} at {string.Join(" and ", m.Residuals.Where(r => r.OffTheLine).Select(r => $"{r.SizeLabel} ({Format.Signed(r.OffBy)})"))}" +
                             (m.Pieces is { } pieces ? $" (in pieces: {string.Join(", ", pieces.Select(p => $"{figure.Show(p.PerKb.Value)} a KB from {p.FromLabel} to {p.ToLabel}"))})" : ""))
                .ToList();
            yield return $"In {noun} at {c.Endpoint}, {other} costs {Said(c.Fixed, $"{baseline}'s fixed cost a request")} and {Said(c.PerKb, "its cost per KB of body")}; " +
                         c.Crossing.Said +
                         (off.Count > 0 ? $". The line is off at {string.Join("; ", off)}: there the cost per KB changes with size" : "") + ".";
        }
    }

    private static bool Settled(ModelPartVerdict v) => v.Outcome is CellVerdict.Higher or CellVerdict.Lower or CellVerdict.Equivalent;

    /// <summary>"1.43x webapi-selfhost's fixed cost (99% interval 1.40x–1.46x)", or the same within the margin, or not settled with its interval.</summary>
    private static string Said(ModelPartVerdict v, string part) => v switch
    {
        { Ratio: null } => $"{part}: not judged ({v.Reason})",
        { Outcome: CellVerdict.Equivalent } => $"the same as {part} within the margin ({Format.Ratio(v.Ratio.Value)})",
        { Outcome: CellVerdict.Higher or CellVerdict.Lower } => $"{Format.Ratio(v.Ratio.Value)} {part} ({Interval(v)})",
        _ => $"{Format.Ratio(v.Ratio.Value)} {part}, not settled ({Interval(v)})",
    };

    /// <summary>A part in the pairs' table: "1.43x, lower cost on webapi-selfhost (1.40x–1.46x)", "equivalent", "not settled (...)".</summary>
    private static string Part(ModelPartVerdict v) => v.Ratio is not double ratio ? $"not judged: {v.Reason}"
        : v.Leader is string leader ? $"{Format.Ratio(ratio)}, {leader} cheaper ({Interval(v)})"
        : v.Outcome == CellVerdict.Equivalent ? $"{Format.Ratio(ratio)}, the same within the margin ({Interval(v)})"
        : v.Low is null ? $"{Format.Ratio(ratio)}, not judged: {v.Reason}"
        : $"{Format.Ratio(ratio)}, not settled ({Interval(v)})";

    private static string Interval(ModelPartVerdict v) =>
        v.Low is double low && v.High is double high ? $"interval {Format.Ratio(low)}–{Format.Ratio(high)}, {v.Launches} launches" : $"{v.Launches} launch(es)";

    /// <summary>"437.3k (430.1k–444.5k)".</summary>
    private static string Estimate(MetricDescriptor figure, ModelEstimate e) =>
        figure.Show(e.Value) + (e.Low is double low && e.High is double high ? $" ({figure.Show(low)}–{figure.Show(high)})" : "");

    /// <summary>
    /// "holds at every size" (at three: a bend between two of them would not show, and it says so), or the sizes off it with how far, and
    /// the model's pieces.
    /// </summary>
    private static string Line(SizeModel m, MetricDescriptor figure) => m.Holds
        ? m.Residuals.All(r => r.Low is null) ? "one launch: not checked"
        : m.Points.Count == SizeModelFit.LeastSizes ? $"holds at its {m.Points.Count} sizes (a bend between two of them would not show: a fourth size checks it)"
        : "holds at every size"
        : "off at " + string.Join(", ", m.Residuals.Where(r => r.OffTheLine).Select(r => $"{r.SizeLabel} ({Format.Signed(r.OffBy)})")) +
          (m.Pieces is { } pieces ? "; in pieces: " + string.Join("; ", pieces.Select(p => Piece(p, figure))) : "");

    /// <summary>"500B–4KB: 866.9k (…) + 5.2k (…) a KB", "4KB–64KB: 2.9k (…) a KB".</summary>
    private static string Piece(SizePiece p, MetricDescriptor figure) =>
        $"{p.FromLabel}–{p.ToLabel}: " + (p.Fixed is { } f ? $"{Estimate(figure, f)} + " : "") + $"{Estimate(figure, p.PerKb)} a KB";

    private static MetricDescriptor Figure(string id) => Metrics.ById(id) ?? throw new ArgumentException($"no figure is named {id}");
}
