using System.Net;
using System.Text;

namespace Comparator.Reports;

/// <summary>
/// report.html: one self-contained page (inline CSS and SVG, no script, nothing fetched): the verdict,
/// then every section of the report (<see cref="ReportSections"/>), the charts among them.
/// </summary>
public sealed class HtmlReport : IExporter
{
    public string Name => "html";
    public string? FileName => "report.html";

    public string Render(RunReport report)
    {
        var run = report.Run;
        var html = Head("Comparator run " + run.StartedAt.ToString("u", CultureInfo.InvariantCulture), VerdictRenderer.Css);
        html.Append("<h1>Comparator run</h1>");
        if (run.Partial) html.Append("<p class=\"partial\">PARTIAL: the run was stopped before the end.</p>");
        html.Append(VerdictRenderer.ToHtml(report.Verdict));
        foreach (var section in report.Sections)
        {
            html.Append("<h2>").Append(E(section.Title)).Append("</h2>");
            if (section.HoldsCharts) Charts(html, report);
            foreach (var hint in section.Hints) html.Append("<p><b>In this run:</b> ").Append(E(hint)).Append(".</p>");
            if (section.Explanation is string explanation) html.Append("<p>").Append(E(explanation)).Append("</p>");
            if (section.Table is TextTable table) html.Append(table.ToHtml());
            if (section.Lines.Count == 0) continue;
            html.Append("<ul>");
            foreach (var line in section.Lines) html.Append("<li>").Append(VerdictRenderer.Labelled(line)).Append("</li>");
            html.Append("</ul>");
        }
        return html.Append("</body></html>").ToString();
    }

    private static void Charts(StringBuilder html, RunReport report)
    {
        foreach (var chart in report.Charts) Figure(html, chart);
    }

    /// <summary>The page's head and its style (every page of the comparator looks alike), the body opened.</summary>
    internal static StringBuilder Head(string title, string extraCss = "") => new StringBuilder()
        .Append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>").Append(E(title)).Append("</title><style>")
        .Append("body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0;font-size:13px}")
        .Append("th,td{border:1px solid #ccc;padding:3px 6px;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}")
        .Append("td.flag{background:#fff3cd;font-weight:bold}.partial{color:#b00;font-weight:bold}figure{margin:1.5em 0}")
        .Append("figcaption{font-weight:bold;margin-bottom:.3em}")
        .Append(extraCss)
        .Append("</style></head><body>");

    /// <summary>A chart inline, as SVG with its title as the caption.</summary>
    internal static void Figure(StringBuilder html, Chart chart)
    {
        var svg = chart.Svg();
        svg = svg[svg.IndexOf("<svg", StringComparison.Ordinal)..]; // drop the XML declaration inside HTML
        html.Append("<figure id=\"chart-").Append(chart.Name).Append("\"><figcaption>").Append(E(chart.Title)).Append("</figcaption>").Append(svg).Append("</figure>");
    }

    private static string E(string text) => WebUtility.HtmlEncode(text);
}
