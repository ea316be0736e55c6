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

    private static string Num(double? v) => v is double d ? d.ToString(d >= 100 ? "0" : "0.00", CultureInfo.InvariantCulture) : "n/a";

    private static string Pct(double v) => (v * 100).ToString("0.0", CultureInfo.InvariantCulture) + "%";
}
