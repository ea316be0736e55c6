using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Net;
using System.Text;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Reports;

/// <summary>
/// report.html: one self-contained page (inline CSS and SVG, no script, nothing fetched): the run
/// spec on top, the targets, the charts, the side-by-side table, the drivers view, every cell with
/// its flags, and what the flags mean.
/// </summary>
public static class HtmlReport
{
    public static string Render(RunResult run, IReadOnlyList<Chart> charts)
    {
        var s = run.Spec;
        string E(string text) => WebUtility.HtmlEncode(text);
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Comparator run ")
            .Append(E(run.StartedAt.ToString("u", CultureInfo.InvariantCulture))).Append("</title><style>")
            .Append("body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0;font-size:13px}")
            .Append("th,td{border:1px solid #ccc;padding:3px 6px;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}")
            .Append("td.flag{background:#fff3cd;font-weight:bold}.partial{color:#b00;font-weight:bold}figure{margin:1.5em 0}")
            .Append("figcaption{font-weight:bold;margin-bottom:.3em}dl{display:grid;grid-template-columns:max-content auto;gap:2px 1em}dt{font-weight:bold}")
            .Append(VerdictRenderer.Css)
            .Append("</style></head><body>");
        html.Append("<h1>Comparator run</h1>");
        if (run.Partial) html.Append("<p class=\"partial\">PARTIAL: the run was stopped before the end.</p>");
        html.Append(VerdictRenderer.ToHtml(Verdict.Build(run)));
        html.Append("<dl>");
        void Item(string k, string v) => html.Append("<dt>").Append(E(k)).Append("</dt><dd>").Append(E(v)).Append("</dd>");
        Item("started / finished", $"{run.StartedAt.ToString("u", CultureInfo.InvariantCulture)} / {run.FinishedAt.ToString("u", CultureInfo.InvariantCulture)}");
        Item("machine", $"{s.Machine.CpuModel}, {s.Machine.LogicalCores} logical cores, {s.Machine.OperatingSystem}");
        Item("comparator runtime", s.Machine.DotNetRuntime);
        if (SpecText.Crank(s) is string crank) Item("crank", crank);
        Item("packages", string.Join(", ", s.Machine.Packages.Select(p => p.Key + " " + p.Value)));
        foreach (var d in s.Drivers) Item("driver " + d.Name, d.Description);
        Item("cores", "the servers " + CoreParts.Phrase(s));
        Item("Server header", s.ServerHeader ? "on (--server-header on)" : "off");
        Item("TCP_NODELAY", SpecText.TcpNoDelay(s));
        Item("schedule", s.Schedule ?? "one target after another");
        Item("cells", ScenarioOperations.CellsText(s) + string.Create(CultureInfo.InvariantCulture,
            $"; concurrency {string.Join(", ", s.Concurrency)}; keep-alive {(s.KeepAlive ? "on" : "off")}"));
        Item("timing", SpecText.Timing(s) + "; each cell shows its median repeat");
        Item("baseline", s.BaselineTarget);
        html.Append("</dl>");
        if (ScenarioOperations.Build(run) is TextTable operations)
            html.Append("<h2>Operations</h2><p>").Append(E(ScenarioOperations.Explanation(s.Scenario!))).Append("</p>").Append(operations.ToHtml());

        html.Append("<h2>Targets by runtime and server</h2>").Append(Attribution.Groups(run).ToHtml());

        html.Append("<h2>Charts</h2>");
        foreach (var chart in charts)
        {
            var svg = chart.Svg();
            svg = svg[svg.IndexOf("<svg", StringComparison.Ordinal)..]; // drop the XML declaration inside HTML
            html.Append("<figure id=\"chart-").Append(chart.Name).Append("\"><figcaption>").Append(E(chart.Title)).Append("</figcaption>").Append(svg).Append("</figure>");
        }

        if (CoreCrossovers.Table(run) is TextTable acrossCores)
            html.Append("<h2>Crossovers across cores: who leads as the servers' cores change</h2><p>").Append(E(CoreCrossovers.Explanation)).Append("</p>").Append(acrossCores.ToHtml());
        // Each allotment of cores is its own comparison: its tables carry its cores in their titles.
        foreach (var part in run.ByCores())
        {
            string H(string title) => "<h2>" + E(CoreParts.Titled(title, part)) + "</h2>";
            html.Append(H("Side by side")).Append(SideBySide.Build(part).ToHtml());
            if (Attribution.Build(part) is TextTable attribution)
                html.Append(H("Where the difference comes from")).Append("<p>").Append(E(Attribution.Explanation)).Append("</p>").Append(attribution.ToHtml());
            if (Crossovers.Table(part) is TextTable crossovers)
                html.Append(H("Crossovers: who leads as the payload grows")).Append("<p>").Append(E(Crossovers.Explanation)).Append("</p>").Append(crossovers.ToHtml());
            if (PayloadThroughput.Build(part) is TextTable payload)
                html.Append(H("Payload throughput and wire overhead per size")).Append("<p>").Append(E(PayloadThroughput.Explanation)).Append("</p>").Append(payload.ToHtml());
            if (CellBounds.Build(part) is TextTable bounds)
            {
                html.Append(H("What bounded each cell")).Append("<p>").Append(E(CellBounds.Explanation)).Append("</p>").Append(bounds.ToHtml()).Append("<ul>");
                foreach (var line in CellBounds.CounterSources(part).Select(l => "runtime counters of " + l).Concat(CellBounds.ThreadSources(part)))
                    html.Append("<li>").Append(E(line)).Append("</li>");
                html.Append("</ul>");
            }
        }
        if (s.Drivers.Count > 1) html.Append("<h2>Drivers side by side</h2>").Append(DriversView.Build(run).ToHtml());
        var columns = CellColumns.All.Where(c => c.Name is not ("runtime" or "keep_alive") && !CellBounds.Shows(c.Name)).ToList();
        html.Append("<h2>Every cell</h2>").Append(new TextTable(columns.Select(c => c.Name).ToList(),
            run.Cells.Select(cell => (IReadOnlyList<string>)columns.Select(c => CellColumns.FormatFor(cell, c)).ToList()).ToList()).ToHtml());
        html.Append("<h2>Flags</h2><ul>");
        foreach (var flag in new[] { CellFlags.Failed, CellFlags.ClientBound, CellFlags.MachineBound, CellFlags.Noisy, CellFlags.WaitBound, CellFlags.Starved, CellFlags.Contended, CellFlags.DriversDisagree })
            html.Append("<li><b>").Append(flag).Append("</b>: ").Append(E(CellFlags.Hint(flag)!)).Append("</li>");
        html.Append("</ul></body></html>");
        return html.ToString();
    }
}
