using System;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Comparator.Reports;
using Comparator.Results;
using Xunit;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;

namespace Comparator.Tests;

/// <summary>report.html and its charts, from a result fixture.</summary>
public sealed class HtmlReportTests
{
    internal static RunResult TwoTargets()
    {
        var sample = ResultsTests.Sample();
        var cell = sample.Cells[0];
        var other = cell with { Key = cell.Key with { Target = "httplistener" }, Flags = new[] { "client-bound" } };
        var bigger = cell with { Key = cell.Key with { SizeBytes = 65536 }, SizeLabel = "64KB" };
        return sample with { Cells = new[] { cell, other, bigger } };
    }

    [Fact]
    public void The_page_holds_every_cell_every_chart_and_the_run_spec_and_fetches_nothing()
    {
        var run = TwoTargets();
        var charts = Charts.Build(run);
        var html = new HtmlReport().Render(new RunReport(run, charts));

        Assert.Equal(new[] { "judgments", "throughput", "requests", "latency-p50", "latency-p99", "overhead", "cpu" }, charts.Select(c => c.Name));
        foreach (var chart in charts)
        {
            var figure = Regex.Match(html, $"<figure id=\"chart-{chart.Name}\">.*?</figure>", RegexOptions.Singleline);
            Assert.True(figure.Success, chart.Name + " is missing");
            Assert.Matches("<svg[^>]*>.*<path", figure.Value.Replace("\n", " "));
        }
        var everyCellTable = html[html.IndexOf("<h2>Every cell (median repeat)</h2>", StringComparison.Ordinal)..];
        Assert.Equal(run.Cells.Count, Regex.Matches(everyCellTable[..everyCellTable.IndexOf("</table>", StringComparison.Ordinal)], "<tr>").Count - 1);
        Assert.Contains("<td class=\"flag\">client-bound</td>", html);
        Assert.Contains(run.Spec.Machine.CpuModel, html);
        // Self-contained: no script, no stylesheet link, no image or frame source from anywhere.
        Assert.DoesNotMatch("<script|<link|src=|@import|url\\((?!#)", html); // url(#id) is a same-document reference
    }

    [Fact]
    public void A_run_directory_gets_report_html_and_each_chart_as_svg_and_png()
    {
        var outDir = Directory.CreateTempSubdirectory("comparator-html-");
        try
        {
            var dir = RunDirectory.Write(TwoTargets(), outDir.FullName);
            Assert.True(new FileInfo(Path.Combine(dir, "report.html")).Length > 0);
            foreach (var name in new[] { "throughput", "requests", "latency-p50", "latency-p99", "overhead", "cpu" })
            {
                Assert.StartsWith("<?xml", File.ReadAllText(Path.Combine(dir, "charts", name + ".svg")));
                var png = File.ReadAllBytes(Path.Combine(dir, "charts", name + ".png"));
                Assert.Equal(new byte[] { 0x89, (byte)'P', (byte)'N', (byte)'G' }, png.Take(4));
            }
            Assert.Empty(Directory.GetFiles(dir, "*.tmp", SearchOption.AllDirectories));
        }
        finally
        {
            outDir.Delete(recursive: true);
        }
    }
}
