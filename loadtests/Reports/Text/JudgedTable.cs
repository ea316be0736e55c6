using System.Net;
using System.Text;
using Comparator.Comparing;
using Comparator.Reports.Sections;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Reports.Text;

/// <summary>How a figure came out at a cell: a lead, the same within the margin, not settled, or no verdict at all.</summary>
public enum EntryOutcome { Lead, Same, Open, None }

/// <summary>
/// One figure at one cell as the first screen shows it: the leader and its advantage (above 1, whichever way the figure is better),
/// and the detail a reader hovers for (the interval and the launches, or why nothing was judged).
/// </summary>
public sealed record JudgedEntry(EntryOutcome Outcome, string? Leader, double? Advantage, string Detail)
{
    public string Text(Func<string, string> name, double margin) => Outcome switch
    {
        EntryOutcome.Lead => $"{name(Leader!)} {Format.Ratio(Advantage!.Value)}",
        EntryOutcome.Same => $"same within {Format.Percent(margin)}",
        EntryOutcome.Open => "not settled",
        _ => "no verdict",
    };
}

/// <summary>A cell of the run ("echo-post 4KB", "json @4456/s") and its entries, one per column of the table (null: not judged there).</summary>
public sealed record JudgedRow(string Cell, IReadOnlyList<JudgedEntry?> Entries);

/// <summary>
/// One pair's judged figures, cells by figures (BenchmarkDotNet's summary table, k6's end-of-test summary): a row per cell, a column per
/// judged figure the pair has a verdict of, each entry who leads and by how much. Built once from the stored verdicts; the terminal,
/// summary.md and report.html render the same table. A column is a figure's descriptor, so a figure added is a column added.
/// </summary>
public sealed record JudgedTable(string Other, string Baseline, double Margin, IReadOnlyList<MetricDescriptor> Figures, IReadOnlyList<JudgedRow> Rows)
{
    /// <summary>Widest line of the terminal's table; past it the two names become A and B, with a key under the table.</summary>
    public const int TerminalWidth = 120;

    public static IReadOnlyList<JudgedTable> Of(RunResult run)
    {
        var baseline = run.Spec.BaselineTarget;
        var unmeasured = run.Targets.Where(t => !t.Measured).Select(t => t.Name).ToHashSet();
        var margin = PairVerdicts.RuleOf(run.Spec).Equivalence;
        var order = Metrics.Judged.ToList();
        return run.InReportOrder().Where(v => v.Baseline == baseline && !unmeasured.Contains(v.Other)).GroupBy(v => v.Other).Select(pair =>
        {
            // A column for each figure with at least one judgment in the pair: a figure that no side read (no PMU) adds nothing to scan.
            var figures = pair.Where(v => v.Figure is not null && v.RatioLow is not null).Select(v => v.Figure!).Distinct().OrderBy(order.IndexOf).ToList();
            var rows = pair.GroupBy(v => v.Key).Select(cell =>
                new JudgedRow(CellNames.Of(run, cell.First()), figures.Select(f => cell.FirstOrDefault(v => v.Figure == f) is { } v ? Entry(v) : null).ToList()))
                .Where(r => r.Entries.Any(e => e is not null)).ToList();
            return new JudgedTable(pair.Key, baseline, margin, figures, rows);
        }).Where(t => t.Figures.Count > 0).ToList();
    }

    /// <summary>The leader's advantage and its interval, stated from the leader's side (above 1) whichever way the figure is better.</summary>
    public static (double Ratio, double Low, double High) Advantage(CellVerdict v, string leader)
    {
        var higher = v.Figure?.HigherIsBetter ?? true;
        return (leader == v.Other) == higher ? (v.Ratio!.Value, v.RatioLow!.Value, v.RatioHigh!.Value) : (1 / v.Ratio!.Value, 1 / v.RatioHigh!.Value, 1 / v.RatioLow!.Value);
    }

    public static JudgedEntry Entry(CellVerdict v)
    {
        var launches = v.Launches is int n ? $", {n.ToString(CultureInfo.InvariantCulture)} launches" : "";
        if (v.Leader is not null && v.Ratio is not null && v.RatioLow is not null && v.RatioHigh is not null)
        {
            var (ratio, low, high) = Advantage(v, v.Leader);
            return new(EntryOutcome.Lead, v.Leader, ratio, $"{v.Leader} by {Format.Ratio(ratio)}, {Format.Percent(v.Confidence)} interval {Format.Ratio(low)}–{Format.Ratio(high)}{launches}");
        }
        if (v.Outcome == CellVerdict.Equivalent)
            return new(EntryOutcome.Same, null, null, $"{v.Other}/{v.Baseline} {Format.Ratio(v.Ratio ?? 1)}, 90% interval " +
                                                      $"{Format.Ratio(v.EquivalenceLow ?? v.RatioLow ?? 1)}–{Format.Ratio(v.EquivalenceHigh ?? v.RatioHigh ?? 1)}{launches}");
        if (v.Outcome == CellVerdict.Unsettled && v.RatioLow is not null && v.RatioHigh is not null)
            return new(EntryOutcome.Open, null, null, FewLaunches.Bounds(v)
                ? $"{v.Other}/{v.Baseline} could lie anywhere in {Format.Ratio(v.RatioLow.Value)}–{Format.Ratio(v.RatioHigh.Value)} ({Format.Percent(v.Confidence)} interval{launches})"
                : FewLaunches.Words(v));
        return new(EntryOutcome.None, null, null, v.Reason ?? v.PacedBy ?? "no verdict");
    }

    /// <summary>The caption over the table: whose figures, and how an entry reads.</summary>
    public string Caption => $"{Other} against {Baseline} (baseline): who leads in each judged figure, by how much (the leader's advantage)";

    private IReadOnlyList<string> Header => new[] { "cell" }.Concat(Figures.Select(f => f.Label)).ToList();

    /// <summary>The table as aligned text within <see cref="TerminalWidth"/> columns; where the names make it wider, A and B stand for them.</summary>
    public string ToText()
    {
        var text = Text(n => n);
        if (text.Split('\n').Max(l => l.Length) <= TerminalWidth) return text;
        return Text(n => n == Other ? "A" : n == Baseline ? "B" : n) + $"A = {Other}, B = {Baseline} (baseline)\n";
    }

    private string Text(Func<string, string> name) =>
        new TextTable(Header, Rows.Select(r => (IReadOnlyList<string>)new[] { r.Cell }.Concat(r.Entries.Select(e => e?.Text(name, Margin) ?? "-")).ToList()).ToList())
            .ToText();

    /// <summary>GitHub-flavoured Markdown (<see cref="TextTable.ToMarkdown"/>): a header row, its delimiter row, a row per cell; settled entries bold.</summary>
    public string ToMarkdown() =>
        new TextTable(Header, Rows.Select(r => (IReadOnlyList<string>)new[] { r.Cell }
            .Concat(r.Entries.Select(e => e is null ? "-" : Bold(e) + e.Text(n => n, Margin) + Bold(e))).ToList()).ToList()).ToMarkdown();

    /// <summary>Settled entries in bold, so a reader of a pull request scans the leads first.</summary>
    private static string Bold(JudgedEntry e) => e.Outcome is EntryOutcome.Lead or EntryOutcome.Same ? "**" : "";

    /// <summary>An HTML table, each entry coloured by its outcome, its interval on hover.</summary>
    public string ToHtml()
    {
        var html = new StringBuilder("<table class=\"judged\"><thead><tr>");
        foreach (var h in Header) html.Append("<th>").Append(WebUtility.HtmlEncode(h)).Append("</th>");
        html.Append("</tr></thead><tbody>");
        foreach (var row in Rows)
        {
            html.Append("<tr><th>").Append(WebUtility.HtmlEncode(row.Cell)).Append("</th>");
            foreach (var e in row.Entries)
                html.Append(e is null ? "<td class=\"none\">-</td>"
                    : $"<td class=\"{e.Outcome.ToString().ToLowerInvariant()}\" title=\"{WebUtility.HtmlEncode(e.Detail)}\">{WebUtility.HtmlEncode(e.Text(n => n, Margin))}</td>");
            html.Append("</tr>");
        }
        return html.Append("</tbody></table>").ToString();
    }

    /// <summary>The table's colours: green a lead, blue the same, red not settled (the forest plot's), grey no verdict.</summary>
    public const string Css = "table.judged{font-size:14px}table.judged th{background:#f4f4f4}td.lead{background:#d9f0d3;font-weight:bold}" +
                              "td.same{background:#d1e5f0;font-weight:bold}td.open{background:#fddbc7}td.none{color:#777}";

}
