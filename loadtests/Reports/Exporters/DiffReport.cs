using System.Text;
using Comparator.Comparing;
using Comparator.Statistics;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Exporters;

/// <summary>A diff as Markdown, fit for a pull-request comment: a verdict line, then one row per cell.</summary>
public static class DiffReport
{
    public static string Render(RunDiff diff)
    {
        var md = new StringBuilder();
        var regressions = diff.Cells.Count(c => c.Verdict == RunDiff.Regression) +
                          diff.Models.Sum(m => m.Parts.Count(p => diff.OutcomeOf(p.Change) == FigureOutcome.Regression));
        var unsettled = diff.Unsettled.Count;
        md.AppendLine(regressions > 0
            ? $"**{regressions} regression(s)**: {diff.NewLabel} against {diff.BaseLabel}, threshold {Statistics.Format.Share(diff.Threshold)}, " +
              (diff.PointEstimates ? "judged on medians (point estimates: a side has one launch)" : "the interval wholly beyond it")
            : diff.PointEstimates
                ? $"**No regression by point estimates**: {diff.NewLabel} against {diff.BaseLabel}, threshold {Statistics.Format.Share(diff.Threshold)}: a side has one launch, so the medians were gated, not judged"
            : diff.CannotJudge
                ? $"**Cannot judge**: {diff.NewLabel} against {diff.BaseLabel}: a side has fewer than two launches, so no figure has an interval (measure with 2 or more launches, or gate on medians with --threshold)"
            : unsettled > 0
                ? $"**Not settled**: no regression found, but {unsettled} of {diff.Cells.Count} cells are neither improved nor equivalent within ±{Statistics.Format.Share(diff.Rule.Equivalence)} in the figure that decides each (a count of work where both sides read it, else req/s flat out and server CPU at a fixed rate): a regression there cannot be ruled out"
            : $"**No regression**: {diff.NewLabel} against {diff.BaseLabel}, threshold {Statistics.Format.Share(diff.Threshold)}, {diff.Cells.Count} cells compared, every cell's deciding figure settled");
        md.AppendLine();
        md.AppendLine(Rule(diff));
        md.AppendLine();
        var summary = Summary(diff);
        if (summary.Count > 0)
        {
            foreach (var line in summary) md.AppendLine(line);
            md.AppendLine();
        }
        // Every gated figure a column, in the same order in every cell; one whose source only some machines have (the CPU's counters), only where a cell has it.
        var figures = diff.Cells.FirstOrDefault()?.Changes.Select(c => c.Metric)
            .Where(m => !m.Optional || diff.Cells.Any(c => c.Changes.Any(x => x.Metric == m && (x.Base is not null || x.New is not null)))).ToList() ?? new List<Results.MetricDescriptor>();
        var header = new List<string> { "cell" };
        foreach (var m in figures)
            header.AddRange(new[] { $"{m.Label} {diff.BaseLabel}", $"{m.Label} {diff.NewLabel}", "change" });
        header.Add("verdict");
        var rows = diff.Cells.Select(c =>
        {
            var row = new List<string> { c.Label };
            foreach (var m in c.Changes.Where(x => figures.Contains(x.Metric)))
            {
                row.Add(Num(m.Base));
                row.Add(Num(m.New));
                row.Add(Change(diff, m));
            }
            row.Add(c.Verdict);
            return (IReadOnlyList<string>)row;
        }).ToList();
        md.Append(new TextTable(header, rows).ToMarkdown());
        if (diff.Models.Count > 0)
        {
            md.AppendLine();
            md.AppendLine($"Size models (cost = fixed + per KB × size, a line per launch through the sizes both sides measured), {diff.NewLabel} against {diff.BaseLabel}, each part judged by the same rule:");
            md.AppendLine();
            md.Append(new TextTable(new[] { "model", "part", diff.BaseLabel, diff.NewLabel, "change" },
                diff.Models.SelectMany(m => m.Parts.Select(p => (IReadOnlyList<string>)new[]
                {
                    m.Label, p.Part, Num(p.Change.Base), Num(p.Change.New), Change(diff, p.Change),
                })).ToList()).ToMarkdown());
        }
        foreach (var k in diff.OnlyInBase) md.AppendLine($"- only in {diff.BaseLabel}: {k}");
        foreach (var k in diff.OnlyInNew) md.AppendLine($"- only in {diff.NewLabel}: {k}");
        return md.ToString();
    }

    /// <summary>Most lines of <see cref="Summary"/>, so that the verdict line and the summary fit in 40 lines.</summary>
    public const int SummaryMaxLines = 36;

    /// <summary>The rule and its false-alarm rate, stated once on top of every diff.</summary>
    public static string Rule(RunDiff diff)
    {
        var c = Statistics.Format.Percent(diff.Rule.Confidence);
        var method = diff.Paired ? "paired over the run's launches" : "Welch's t over each run's launches";
        return $"A figure counts as worse or better only when its {c} interval ({diff.NewLabel}/{diff.BaseLabel}, {method}) lies wholly beyond " +
               $"±{Statistics.Format.Share(diff.Threshold)}: a figure that did not change is called a regression at most {Statistics.Format.Percent((1 - diff.Rule.Confidence) / 2)} of the time. " +
               $"It is equivalent when its 90% interval lies within ±{Statistics.Format.Share(diff.Rule.Equivalence)}, and not settled otherwise. " +
               "A figure without an interval (one launch on a side) is not judged, and the diff exits 3 unless --threshold asks it to gate on medians. " +
               "Cells at a fixed rate are matched by the rate asked (a share of capacity matches the same share, whatever rate each run derived); " +
               "there req/s is the rate asked, shown and not judged.";
    }

    /// <summary>
    /// What got better or worse by the rule, one line per figure with both values, the change and its
    /// interval; then how many cells moved past the threshold but could not be judged (no interval).
    /// Empty when nothing moved.
    /// </summary>
    public static IReadOnlyList<string> Summary(RunDiff diff)
    {
        var moves = diff.Cells.SelectMany(c => c.Changes.Select(m => (Cell: c.Label, What: m.Metric.Label, M: m)))
            .Concat(diff.Models.SelectMany(m => m.Parts.Select(p => (Cell: "size model " + m.Label, What: p.Part, M: p.Change))))
            .Where(x => x.M.IsRegression || x.M.IsImprovement)
            .OrderBy(x => x.M.IsRegression ? 0 : 1).ThenByDescending(x => System.Math.Abs(x.M.Change ?? 0)).ToList();
        var unjudged = diff.Cells.Count(c => c.Verdict is RunDiff.NotJudged or RunDiff.OneLaunch);
        var lines = new List<string>();
        if (moves.Count > 0)
        {
            string Line((string Cell, string What, Comparison M) x) =>
                $"- {(x.M.IsRegression ? "worse" : "better")}: {x.Cell}: {x.What} {Num(x.M.Base)} → {Num(x.M.New)} ({Statistics.Format.Signed(x.M.Change!.Value)}; {Interval(x.M)})";
            var worse = moves.Count(x => x.M.IsRegression);
            lines.Add($"Beyond noise and beyond {Statistics.Format.Share(diff.Threshold)}: {worse} figure(s) worse, {moves.Count - worse} better, {diff.NewLabel} against {diff.BaseLabel}:");
            var room = SummaryMaxLines - lines.Count - 2;
            lines.AddRange(moves.Take(room).Select(Line));
            if (moves.Count > room) lines.Add($"- and {moves.Count - room} more in the table below");
        }
        if (unjudged > 0)
            lines.Add($"{unjudged} cell(s) moved past {Statistics.Format.Share(diff.Threshold)} but could not be judged: one launch on a side gives no interval (measure with --launches 2 or more).");
        return lines;
    }

    /// <summary>"+4.2% (99% interval +1.0%..+7.5%) worse": a figure's change, its interval and the rule's word.</summary>
    private static string Change(RunDiff diff, Comparison m) => m.Change is double ch
        ? Statistics.Format.Signed(ch) + " " + Interval(m) + diff.OutcomeOf(m) switch { FigureOutcome.Regression => " worse", FigureOutcome.Improvement => " better", FigureOutcome.Equivalent => " same", _ => "" }
        : "n/a";

    /// <summary>"99% interval -12.1%..-3.4%" as a change new/base − 1, or why there is none.</summary>
    private static string Interval(Comparison m) => m.Interval is Statistics.RatioInterval i
        ? $"({Statistics.Format.Percent(i.Confidence)} interval {Statistics.Format.Signed(i.Low - 1)}..{Statistics.Format.Signed(i.High - 1)})"
        : $"(no interval: {m.WhyNot})";

    private static string Num(double? v) => v is double d ? d.ToString(d >= 100 ? "0" : "0.00", CultureInfo.InvariantCulture) : "n/a";
}
