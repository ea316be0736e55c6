using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
using Comparator.Comparing;

namespace Comparator.Reports;

/// <summary>A diff as Markdown, fit for a pull-request comment: a verdict line, then one row per cell.</summary>
public static class DiffReport
{
    public static string Render(RunDiff diff)
    {
        var md = new StringBuilder();
        var regressions = diff.Cells.Count(c => c.Verdict == RunDiff.Regression);
        md.AppendLine(regressions > 0
            ? $"**{regressions} regression(s)**: {diff.NewLabel} against {diff.BaseLabel}, threshold {Pct(diff.Threshold)}, beyond the repeats' spread"
            : $"**No regression**: {diff.NewLabel} against {diff.BaseLabel}, threshold {Pct(diff.Threshold)}, {diff.Cells.Count} cells compared");
        md.AppendLine();
        var summary = Summary(diff);
        if (summary.Count > 0)
        {
            foreach (var line in summary) md.AppendLine(line);
            md.AppendLine();
        }
        var header = new List<string> { "cell" };
        foreach (var m in diff.Cells.FirstOrDefault()?.Changes ?? new List<MetricChange>())
            header.AddRange(new[] { $"{m.Metric} {diff.BaseLabel}", $"{m.Metric} {diff.NewLabel}", "change" });
        header.Add("verdict");
        var rows = diff.Cells.Select(c =>
        {
            var row = new List<string> { c.Label };
            foreach (var m in c.Changes)
            {
                row.Add(Num(m.Base));
                row.Add(Num(m.New));
                row.Add(m.Change is double ch ? (ch >= 0 ? "+" : "") + Pct(ch) + (m.IsRegression(diff.Threshold) ? " worse" : m.IsImprovement(diff.Threshold) ? " better" : "") : "n/a");
            }
            row.Add(c.Verdict);
            return (IReadOnlyList<string>)row;
        }).ToList();
        md.Append(new TextTable(header, rows).ToMarkdown());
        foreach (var k in diff.OnlyInBase) md.AppendLine($"- only in {diff.BaseLabel}: {k}");
        foreach (var k in diff.OnlyInNew) md.AppendLine($"- only in {diff.NewLabel}: {k}");
        return md.ToString();
    }

    /// <summary>Most lines of <see cref="Summary"/>, so that the verdict line and the summary fit in 40 lines.</summary>
    public const int SummaryMaxLines = 36;

    /// <summary>
    /// What got better or worse beyond the threshold and beyond the repeats' spread, one line per
    /// figure with both values and the change; empty when nothing moved beyond noise.
    /// </summary>
    public static IReadOnlyList<string> Summary(RunDiff diff)
    {
        var moves = diff.Cells.SelectMany(c => c.Changes.Select(m => (Cell: c.Label, M: m)))
            .Where(x => x.M.IsRegression(diff.Threshold) || x.M.IsImprovement(diff.Threshold))
            .OrderBy(x => x.M.IsRegression(diff.Threshold) ? 0 : 1).ThenByDescending(x => System.Math.Abs(x.M.Change ?? 0)).ToList();
        if (moves.Count == 0) return new List<string>();
        string Line((string Cell, MetricChange M) x) =>
            $"- {(x.M.IsRegression(diff.Threshold) ? "worse" : "better")}: {x.Cell}: {x.M.Metric} {Num(x.M.Base)} → {Num(x.M.New)} " +
            $"({(x.M.Change >= 0 ? "+" : "")}{Pct(x.M.Change!.Value)}; repeats {Num(x.M.BaseMin)}..{Num(x.M.BaseMax)} → {Num(x.M.NewMin)}..{Num(x.M.NewMax)})";
        var worse = moves.Count(x => x.M.IsRegression(diff.Threshold));
        var lines = new List<string>
        {
            $"Beyond noise (no repeat overlap) and beyond {Pct(diff.Threshold)}: {worse} figure(s) worse, {moves.Count - worse} better, {diff.NewLabel} against {diff.BaseLabel}:",
        };
        var room = SummaryMaxLines - lines.Count - 1;
        lines.AddRange(moves.Take(room).Select(Line));
        if (moves.Count > room) lines.Add($"- and {moves.Count - room} more in the table below");
        return lines;
    }

    private static string Num(double? v) => v is double d ? d.ToString(d >= 100 ? "0" : "0.00", CultureInfo.InvariantCulture) : "n/a";

    private static string Pct(double v) => (v * 100).ToString("0.0", CultureInfo.InvariantCulture) + "%";
}
