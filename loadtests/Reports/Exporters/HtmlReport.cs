using System.Net;
using System.Text;
using Comparator.Reports.Plots;
using Comparator.Reports.Sections;
using Comparator.Reports.Text;

namespace Comparator.Reports.Exporters;

/// <summary>
/// report.html: one self-contained page (inline CSS and SVG, no script, nothing fetched): the answer, the forest plot of every judgment, the verdict,
/// then every section of the report (<see cref="ReportSections"/>), the charts among them.
/// </summary>
public sealed class HtmlReport : IExporter
{
    public string Name => "html";
    public string? FileName => "report.html";

    public string Render(RunReport report)
    {
        var run = report.Run;
        var html = Head("Comparator run " + run.StartedAt.ToString("u", CultureInfo.InvariantCulture), VerdictRenderer.Css + FirstScreen.Css + ".answer{font-size:15px;line-height:1.45;max-width:60em;margin:.5em 0}");
        html.Append("<h1>Comparator run</h1>");
        if (run.Partial) html.Append("<p class=\"partial\">PARTIAL: the run was stopped before the end.</p>");
        // The first screen (the headline and every judged figure by cell), then the answer in full, the clearest picture (every judgment
        // and its interval), then the verdict with its method.
        html.Append(FirstScreen.ToHtml(report.Headline, report.Tables));
        foreach (var paragraph in report.AnswerParagraphs) html.Append("<p class=\"answer\">").Append(Code(E(string.Join(" ", paragraph)))).Append("</p>");
        if (Forest(report) is Chart forest) Figure(html, forest);
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
        foreach (var chart in report.Charts.Where(c => c != Forest(report))) Figure(html, chart);
    }

    private static Chart? Forest(RunReport report) => report.Charts.FirstOrDefault(c => c.Name == ForestChart.Name);

    /// <summary>The page's head and its style (every page of the comparator looks alike), the body opened.</summary>
    internal static StringBuilder Head(string title, string extraCss = "") => new StringBuilder()
        .Append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>").Append(E(title)).Append("</title><style>")
        .Append("body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0;font-size:13px}")
        .Append("th,td{border:1px solid #ccc;padding:3px 6px;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}")
        .Append("td.flag{background:#fff3cd;font-weight:bold}.partial{color:#b00;font-weight:bold}figure{margin:1.5em 0}")
        .Append("figcaption{font-weight:bold;margin-bottom:.3em}")
        // No sideways scroll at 1280 px: a wide table scrolls within itself, a chart shrinks to the page, a long word breaks; printed, nothing is cut across pages.
        .Append("table{display:block;max-width:100%;overflow-x:auto}svg{max-width:100%;height:auto}body{overflow-wrap:break-word}")
        .Append("@media print{body{margin:1cm}figure,table,tr{break-inside:avoid}table{display:table;overflow:visible}}")
        .Append(extraCss)
        .Append("</style></head><body>");

    /// <summary>A chart inline, as SVG with its title as the caption.</summary>
    internal static void Figure(StringBuilder html, Chart chart)
    {
        var svg = chart.Svg();
        svg = svg[svg.IndexOf("<svg", StringComparison.Ordinal)..]; // drop the XML declaration inside HTML
        // A view box lets the page shrink the chart to its width rather than cut it.
        svg = "<svg viewBox=\"0 0 " + Chart.Width.ToString(CultureInfo.InvariantCulture) + " " + chart.Height.ToString(CultureInfo.InvariantCulture) + "\"" + svg["<svg".Length..];
        html.Append("<figure id=\"chart-").Append(chart.Name).Append("\"><figcaption>").Append(E(chart.Title)).Append("</figcaption>").Append(svg).Append("</figure>");
    }

    private static string E(string text) => WebUtility.HtmlEncode(text);

    /// <summary>`--launches 11` as code: an option the reader can copy.</summary>
    private static string Code(string html) => System.Text.RegularExpressions.Regex.Replace(html, "`([^`]+)`", "<code>$1</code>");
}
