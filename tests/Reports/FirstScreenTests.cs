using System;
using System.Collections.Generic;
using System.Linq;
using System.Text.RegularExpressions;
using Comparator.Reports;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;
using Comparator.Reports.Text;
using Comparator.Results;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The first screen (a headline and one table of every judged figure by cell) over injected verdicts shaped like a default run's on a
/// machine without a PMU: requests a second settled at one cell of eight, simulated instructions at all eight, and fixed-rate costs
/// not settled. Every figure is injected; what is asserted is what those figures must read as.
/// </summary>
public sealed class FirstScreenTests
{
    private const string Other = "wcf-classic";
    private const string Base = "webapi-selfhost";

    private static readonly (string Endpoint, int Size, string Label)[] Cells =
    {
        ("time", 0, CellSizes.NoSize), ("json", 0, CellSizes.NoSize), ("echo-post", 500, "500B"), ("echo-post", 4096, "4KB"), ("echo-post", 65536, "64KB"),
        ("echo-put", 500, "500B"), ("echo-put", 4096, "4KB"), ("echo-put", 65536, "64KB"),
    };

    private static CellVerdict V(string endpoint, int size, MetricDescriptor figure, double ratio, double halfWidth, string? leader, string outcome,
        int launches = 3, double? rate = null)
    {
        var key = new CellKey(Other, endpoint, size, 100, "httpclient") { Rate = rate };
        return new CellVerdict(key, Base, figure.VerdictId!, ratio, ratio / (1 + halfWidth), ratio * (1 + halfWidth), 0.99, leader, null, outcome, Launches: launches);
    }

    /// <summary>req/s: webapi-selfhost 1.25x at echo-post 500B, the rest not settled; simulated instructions: webapi-selfhost leaner at all eight, 1.29x–1.87x;
    /// server CPU at two fixed rates: not settled.</summary>
    internal static RunResult DefaultLike(int launches = 3)
    {
        var verdicts = new List<CellVerdict>();
        foreach (var (endpoint, size, _) in Cells)
            verdicts.Add(endpoint == "echo-post" && size == 500
                ? V(endpoint, size, Metrics.Headline, 0.8, 0.05, Base, CellVerdict.Lower, launches)
                : V(endpoint, size, Metrics.Headline, 0.95, 0.4, null, CellVerdict.Unsettled, launches));
        var instructions = new[] { 1.29, 1.46, 1.5, 1.55, 1.87, 1.4, 1.45, 1.33 };
        for (var i = 0; i < Cells.Length; i++)
            verdicts.Add(V(Cells[i].Endpoint, Cells[i].Size, Metrics.SimulatedInstructionsPerRequest, instructions[i], 0.01, Base, CellVerdict.Higher, launches));
        verdicts.Add(V("time", 0, Metrics.ServerCpuUsPerRequest, 1.1, 0.3, null, CellVerdict.Unsettled, launches, rate: 2000));
        verdicts.Add(V("json", 0, Metrics.ServerCpuUsPerRequest, 1.0, 0.01, null, CellVerdict.Equivalent, launches, rate: 1500) with { EquivalenceLow = 0.99, EquivalenceHigh = 1.01 });
        return Run(verdicts);
    }

    internal static RunResult Run(IReadOnlyList<CellVerdict> verdicts)
    {
        var sample = ResultsTests.Sample();
        var template = sample.Cells[0];
        var cells = new[] { Other, Base }.SelectMany(t => Cells.SelectMany(c => new double?[] { null, 2000, 1500 }.Select(rate =>
            template with { Key = template.Key with { Target = t, Endpoint = c.Endpoint, SizeBytes = c.Size, Rate = rate }, SizeLabel = c.Label }))).ToList();
        return sample with
        {
            Spec = sample.Spec with { BaselineTarget = Base, Targets = new[] { Other, Base } },
            Targets = new[] { VerdictTests.WcfClassic, VerdictTests.WebApiSelfhost },
            Cells = cells,
            Verdicts = verdicts,
        };
    }

    [Fact]
    public void The_headline_says_what_is_settled_and_what_is_not_in_at_most_fifty_words()
    {
        var headline = Assert.Single(Headline.Of(DefaultLike()));

        Assert.Equal("webapi-selfhost executes fewer instructions per request (simulated, user mode) than wcf-classic at all 8 cells (1.29x–1.87x). " +
                     "webapi-selfhost serves more requests a second than wcf-classic at echo-post 500B (1.25x); req/s not settled at 7 cells.", headline);
        Assert.InRange(headline.Split(' ').Length, 1, 50);
    }

    [Fact]
    public void The_table_has_a_row_per_cell_and_a_column_per_judged_figure_each_entry_the_leader_and_its_advantage()
    {
        var table = Assert.Single(JudgedTable.Of(DefaultLike()));

        Assert.Equal(new[] { Metrics.Headline, Metrics.SimulatedInstructionsPerRequest, Metrics.ServerCpuUsPerRequest }, table.Figures);
        Assert.Equal(10, table.Rows.Count);
        var row = Assert.Single(table.Rows, r => r.Cell == "echo-post 500B");
        Assert.Equal(new[] { "webapi-selfhost 1.25x", "webapi-selfhost 1.50x", null }, row.Entries.Select(e => e?.Text(n => n, table.Margin)));
        Assert.Equal("not settled", Assert.Single(table.Rows, r => r.Cell == "time").Entries[0]!.Text(n => n, table.Margin));
        Assert.Equal("same within 5%", Assert.Single(table.Rows, r => r.Cell == "json @1500/s").Entries[2]!.Text(n => n, table.Margin));
        Assert.Contains("99% interval", row.Entries[0]!.Detail);
    }

    [Fact]
    public void The_terminals_first_screen_fits_forty_lines_of_a_hundred_and_twenty_columns()
    {
        var run = DefaultLike();
        var text = FirstScreen.ToText(Headline.Of(run), JudgedTable.Of(run));
        var lines = text.TrimEnd('\n').Split('\n');

        Assert.InRange(lines.Length, 10, 40);
        Assert.All(lines, l => Assert.True(l.Length <= JudgedTable.TerminalWidth, $"{l.Length} columns: {l}"));
        Assert.StartsWith("answer: webapi-selfhost executes fewer instructions", lines[0]);
        Assert.Contains(lines, l => Regex.IsMatch(l, @"^echo-post 500B\s+(webapi-selfhost|B) 1\.25x\s+(webapi-selfhost|B) 1\.50x"));
    }

    [Fact]
    public void Names_too_wide_for_the_terminal_become_letters_with_a_key()
    {
        var wide = new JudgedTable("a-service-with-a-rather-long-name", "another-service-with-a-long-name", 0.05,
            new[] { Metrics.Headline, Metrics.SimulatedInstructionsPerRequest, Metrics.SystemCallsPerRequest, Metrics.ServerCpuUsPerRequest },
            new[] { new JudgedRow("echo-post 64KB @1617/s", Enumerable.Repeat(new JudgedEntry(EntryOutcome.Lead, "another-service-with-a-long-name", 1.5, ""), 4).ToList()) });

        var text = wide.ToText();

        Assert.All(text.TrimEnd('\n').Split('\n'), l => Assert.True(l.Length <= JudgedTable.TerminalWidth, l));
        Assert.Contains("B 1.50x", text);
        Assert.EndsWith("A = a-service-with-a-rather-long-name, B = another-service-with-a-long-name (baseline)\n", text);
    }

    /// <summary>GitHub's table syntax: a header row, a delimiter row of dashes with as many columns, then rows of as many columns; no unescaped bar inside a cell.</summary>
    internal static void AssertGithubTable(string markdown)
    {
        var rows = markdown.Split('\n').SkipWhile(l => !l.StartsWith("| cell ", StringComparison.Ordinal)).TakeWhile(l => l.StartsWith('|')).ToList();
        Assert.True(rows.Count >= 3, markdown);
        static int Columns(string row) => Regex.Matches(row, @"(?<!\\)\|").Count - 1;
        Assert.Matches(@"^\|( :?-{3,}:? \|)+$", rows[1]);
        Assert.All(rows, r => Assert.Equal(Columns(rows[0]), Columns(r)));
        Assert.All(rows, r => Assert.EndsWith(" |", r));
    }

    [Fact]
    public void Summary_md_opens_with_the_headline_and_a_table_that_renders_on_a_pull_request()
    {
        var run = DefaultLike();
        var md = SummaryReport.Render(run, Verdict.Build(run), chart: null);

        Assert.Contains("**webapi-selfhost executes fewer instructions", md.Split('\n')[2]);
        AssertGithubTable(md);
        Assert.Contains("| echo-post 500B | **webapi-selfhost 1.25x** | **webapi-selfhost 1.50x** | - |", md);
        Assert.True(md.Split('\n').Length <= SummaryReport.MaxLines + 1, md);
    }

    [Fact]
    public void Report_html_shows_the_headline_then_the_table_coloured_by_outcome_with_each_interval_on_hover()
    {
        var html = new HtmlReport().Render(new RunReport(DefaultLike(), charts: Array.Empty<Chart>()));

        var headline = html.IndexOf("<p class=\"headline\">webapi-selfhost executes fewer", StringComparison.Ordinal);
        var table = html.IndexOf("<table class=\"judged\">", StringComparison.Ordinal);
        Assert.InRange(headline, 0, table);
        Assert.Matches("<td class=\"lead\" title=\"webapi-selfhost by 1.25x, 99% interval 1.19x–1.31x, 3 launches\">webapi-selfhost 1.25x</td>", html);
        Assert.Contains("<td class=\"open\" title=\"wcf-classic/webapi-selfhost could lie anywhere in", html);
        Assert.Contains("<td class=\"same\"", html);
    }

    [Fact]
    public void Two_launches_are_said_in_words_not_as_an_interval_and_give_no_launch_estimate()
    {
        var run = DefaultLike(launches: 2);

        var answer = string.Join(" ", Answer.Sentences(run));
        Assert.Contains("two launches cannot bound requests a second here; a third would (`--launches 3`)", answer);
        Assert.DoesNotContain("could lie anywhere", answer);
        Assert.DoesNotContain("would take about", answer);
        var entry = Assert.Single(JudgedTable.Of(run)).Rows.Single(r => r.Cell == "time").Entries[0]!;
        Assert.Equal(EntryOutcome.Open, entry.Outcome);
        Assert.StartsWith("two launches cannot bound", entry.Detail);
        Assert.DoesNotContain(Verdict.Build(run).Select(l => l.Text), t => t.Contains("cannot be ruled out", StringComparison.Ordinal));
    }

    [Fact]
    public void Every_settled_row_of_the_forest_plot_favouring_one_target_lies_on_one_side_whatever_the_figures_direction()
    {
        // req/s (higher is better) and simulated instructions (lower is better), both led by the baseline: as ratios other/baseline they
        // would lie on opposite sides (0.80x and 1.29x–1.87x).
        var run = DefaultLike();
        var rows = ForestChart.Rows(run).Where(v => v.Leader is not null).ToList();
        Assert.Contains(rows, v => v.Figure!.HigherIsBetter);
        Assert.Contains(rows, v => !v.Figure!.HigherIsBetter);

        Assert.All(rows, v => Assert.True(ForestChart.Drawn(v).Ratio > 1, $"{v.Metric} {v.Endpoint}: drawn at {ForestChart.Drawn(v).Ratio}"));
        // Grouped by figure: every req/s row before every simulated-instructions row.
        var order = ForestChart.Rows(run).Select(v => v.Metric).ToList();
        Assert.True(order.LastIndexOf(Metrics.Headline.VerdictId!) < order.IndexOf(Metrics.SimulatedInstructionsPerRequest.VerdictId!));
    }
}
