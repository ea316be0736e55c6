using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Text.RegularExpressions;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Statistics;
using Xunit;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;
using Comparator.Reports.Text;

namespace Comparator.Tests;

/// <summary>The report's sections, built once and written by every exporter; each flag explained once.</summary>
public sealed class ReportTests
{
    /// <summary>Two targets, the second client-bound, so the verdict, the sections and the flags all have something to say.</summary>
    private static RunResult TwoTargets() => HtmlReportTests.TwoTargets();

    [Fact]
    public void Markdown_and_html_write_the_same_sections_in_the_one_order()
    {
        var report = new RunReport(TwoTargets(), new List<Chart>());
        var titles = report.Sections.Select(s => s.Title).ToList();
        var md = new MarkdownReport().Render(report);
        var html = new HtmlReport().Render(report);

        var mdTitles = Regex.Matches(md, "^## (.*)$", RegexOptions.Multiline).Select(m => m.Groups[1].Value).Where(t => !t.StartsWith("Verdict: ")).ToList();
        var htmlTitles = Regex.Matches(html, "<h2>(.*?)</h2>").Select(m => System.Net.WebUtility.HtmlDecode(m.Groups[1].Value)).Where(t => !t.StartsWith("Verdict: ")).ToList();
        Assert.Equal(titles.Where(t => t != "Charts"), mdTitles);
        Assert.Equal(titles, htmlTitles);
        Assert.Equal(new[] { "Run", "Targets by runtime and server", "Charts" }, titles.Take(3));
        Assert.Equal("How to read the flags", titles[^1]);
    }

    [Fact]
    public void Every_exporter_has_its_own_name_and_file_and_the_terminal_writes_none()
    {
        Assert.Equal(Exporters.All.Count, Exporters.All.Select(e => e.Name).Distinct().Count());
        Assert.Equal(new[] { "results.json", "results.csv", "report.md", "charts", "report.html", "summary.md", "profile.html" }, Exporters.Files.Select(e => e.FileName));
        var console = Assert.Single(Exporters.All, e => e.FileName is null);
        var report = new RunReport(TwoTargets(), new List<Chart>());
        var text = console.Render(report);
        Assert.StartsWith(report.Sections.Single(s => s.Title.StartsWith("Side by side")).Table!.ToText(), text); // two targets: the wide table
        Assert.Contains("hint: client-bound: ", text);
    }

    [Fact]
    public void Each_flag_is_explained_once_with_its_rules_threshold_and_every_output_reads_that_one()
    {
        var flags = typeof(CellFlags).GetFields(BindingFlags.Public | BindingFlags.Static)
            .Where(f => f.IsLiteral && f.FieldType == typeof(string)).Select(f => (string)f.GetRawConstantValue()!).ToList();
        var meanings = CellFlags.Meanings(precisionPercent: 7);
        Assert.Equal(flags.OrderBy(f => f), meanings.Select(m => m.Name).OrderBy(f => f));
        Assert.Contains($"{CellFlags.ClientBoundShare * 100:0}% or more of one core", CellFlags.Meaning(CellFlags.ClientBound)!.Meaning);
        Assert.Contains($"below {CellFlags.KeptUpShare * 100:0}% of the asked rate", CellFlags.Meaning(CellFlags.Overloaded)!.Meaning);
        Assert.Contains("above 7%", CellFlags.Meaning(CellFlags.Noisy, 7)!.Meaning);

        var run = TwoTargets();
        var clientBound = CellFlags.Meaning(CellFlags.ClientBound, run.Spec.PrecisionPercent)!;
        var report = new RunReport(run, new List<Chart>());
        Assert.Contains(report.Verdict, l => l.Text.StartsWith($"{clientBound.Name} ({clientBound.Meaning}): "));
        Assert.Contains($"- {clientBound.Name}: {clientBound.Meaning}.", new MarkdownReport().Render(report));
        Assert.Contains($"**In this run:** {clientBound.Hint}.", new MarkdownReport().Render(report));
    }
}
