using System;
using System.Collections.Generic;
using System.Linq;
using Comparator.Comparing;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Xunit;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;
using Comparator.Reports.Text;

namespace Comparator.Tests;

/// <summary>
/// A judged figure is one descriptor: a figure made up here, in the test alone, reaches every output a judged figure has
/// (results.json, the verdict's lines, the answer, the forest plot, diff and its JUnit, a history and its gate) with the
/// words its descriptor gives, and no file of the comparator names it. Its values are injected: wcf-classic takes 300
/// "widgets" a request, webapi-selfhost 400, over five launches each.
/// </summary>
public sealed class MadeUpFigureTests
{
    private static readonly MetricDescriptor Widgets = new("widgetsPerRequest", "widgets/req", "", Better.Lower, MetricStorage.Stored,
        "a made-up source", "widgets a request takes (made up by the test)", "widgets_per_request",
        new Judging("widgets", JudgedAt.Everywhere, "wdg", "widgets per request", "turns fewer widgets a request than", "thriftier in widgets",
            WhereRead: true, Counted: true),
        Gated: true);

    private static Measurement W(int launch, double rps, double widgets) =>
        ResultsTests.Window(rps, serverCpu: 1.0) is var w ? w with
        {
            Launch = launch,
            Figures = new Dictionary<string, double>(w.Figures) { [Widgets.Id] = widgets },
        } : null!;

    private static CellResult Cell(string target, IEnumerable<Measurement> repeats)
    {
        var template = ResultsTests.Sample().Cells[0];
        var list = repeats.ToList();
        var rates = list.Select(r => r.RequestsPerSecond).ToList();
        return template with
        {
            Key = template.Key with { Target = target, Endpoint = "echo-post", SizeBytes = 500 },
            Repeats = list, Summary = CellMeasurer.MedianRepeat(list), RpsMin = rates.Min(), RpsMax = rates.Max(), Flags = new List<string>(),
        };
    }

    /// <summary>Five launches a side, the same req/s; wcf-classic's widgets times <paramref name="scale"/> (a later build's run).</summary>
    private static RunResult Run(double scale = 1, int day = 0)
    {
        var sample = ResultsTests.Sample();
        var run = sample with
        {
            StartedAt = sample.StartedAt.AddDays(day),
            Spec = sample.Spec with { BaselineTarget = "webapi-selfhost", Targets = new[] { "wcf-classic", "webapi-selfhost" } },
            Targets = new[] { VerdictTests.WcfClassic, VerdictTests.WebApiSelfhost },
            Cells = new[]
            {
                Cell("wcf-classic", Enumerable.Range(0, 5).Select(l => W(l, 1000 * (1 + 0.01 * l), scale * 300 * (1 + 0.004 * (l % 2))))),
                Cell("webapi-selfhost", Enumerable.Range(0, 5).Select(l => W(l, 1000 * (1 + 0.01 * ((l + 2) % 5)), 400 * (1 + 0.004 * (l % 3))))),
            },
        };
        return run with { Verdicts = PairVerdicts.Build(run) };
    }

    [Fact]
    public void A_made_up_judged_figure_is_written_and_read_back_in_results_json_with_its_verdict()
    {
        using var added = Metrics.Adding(Widgets);
        var run = Run();

        var json = ResultStore.Serialize(run);
        Assert.Matches("\"widgetsPerRequest\":\\s*300", json);
        Assert.Matches("\"metric\":\\s*\"widgets\"", json);
        var back = ResultStore.Deserialize(json, "made-up");
        Assert.Equal(300, Widgets.Of(back.Cells[0].Repeats[0]));
        var verdict = Assert.Single(back.AllJudged(), v => v.Metric == "widgets");
        Assert.Equal("wcf-classic", verdict.Leader);
        Assert.Same(Widgets, verdict.Figure);
    }

    [Fact]
    public void Its_verdict_line_answer_and_forest_row_use_the_descriptors_words()
    {
        using var added = Metrics.Adding(Widgets);
        var run = Run();

        var line = Verdict.Build(run).Single(l => l.Kind == VerdictLineKind.Endpoint).Text;
        Assert.Matches(@"; widgets/req 300 vs 400: wcf-classic lower, 1\.3\dx \(99% interval 1\.3\dx–1\.3\dx\)", line);
        Assert.Contains(Answer.Sentences(run), s => s.StartsWith("wcf-classic turns fewer widgets a request than webapi-selfhost at echo-post 500B (300 against 400 a request, by 1.3", StringComparison.Ordinal));
        var row = Assert.Single(ForestChart.Rows(run), v => v.Metric == "widgets");
        Assert.StartsWith("wdg echo-post", ForestChart.Label(run, row, pairs: false));
        Assert.Contains(Charts.Build(run), c => c.Name == "widgets" && c.Title.StartsWith("Widgets per request per cell", StringComparison.Ordinal));
    }

    [Fact]
    public void It_is_a_column_of_the_first_screens_table_in_the_terminal_summary_md_and_report_html()
    {
        using var added = Metrics.Adding(Widgets);
        var report = new RunReport(Run(), Array.Empty<Chart>());

        var terminal = FirstScreen.ToText(report.Headline, report.Tables).Split('\n');
        Assert.Matches(@"^cell\s+req/s\s+widgets/req$", terminal.First(l => l.StartsWith("cell", StringComparison.Ordinal)));
        Assert.Contains(terminal, l => System.Text.RegularExpressions.Regex.IsMatch(l, @"^echo-post 500B\s+.+\s+wcf-classic 1\.3\dx$"));
        var summary = new SummaryReport().Render(report);
        Assert.Contains("| cell | req/s | widgets/req |", summary);
        Assert.Matches(@"\| echo-post 500B \| [^|]+ \| \*\*wcf-classic 1\.3\dx\*\* \|", summary);
        var html = new HtmlReport().Render(report);
        Assert.Contains("<th>widgets/req</th>", html);
        Assert.Matches("<td class=\"lead\" title=\"wcf-classic by 1\\.3\\dx[^\"]*\">wcf-classic 1\\.3\\dx</td>", html);
    }

    [Fact]
    public void Diff_and_its_JUnit_judge_it_and_lead_with_it_as_a_count_of_work()
    {
        using var added = Metrics.Adding(Widgets);
        var before = Run();
        var after = Run(scale: 1.5);

        var diff = RunDiff.BetweenRuns(before, after, 0.03, "before", "after");
        var cell = Assert.Single(diff.Cells, c => c.Label.StartsWith("wcf-classic", StringComparison.Ordinal));
        var change = Assert.Single(cell.Changes, c => c.Metric == Widgets);
        Assert.True(change.IsRegression);
        Assert.Same(change, RunDiff.Lead(cell));
        Assert.Contains("widgets/req", DiffReport.Render(diff));
        Assert.Contains("<testcase name=\"widgets/req\"", JUnitReport.Render(diff, DateTimeOffset.UnixEpoch));
        Assert.Contains("widgets/req regressed", JUnitReport.Render(diff, DateTimeOffset.UnixEpoch));
    }

    [Fact]
    public void A_history_gates_on_it_where_every_run_has_it()
    {
        using var added = Metrics.Adding(Widgets);
        var runs = Enumerable.Range(0, 8).Select(n => new HistoryInput(Run(scale: n < 4 ? 1 : 1.5, day: n), $"run-{n}")).ToList();

        var history = RunHistory.Build(runs, new HistorySelection(), runs[^1].Run.StartedAt.AddDays(1));
        var series = Assert.Single(history.Groups.Single().Series, s => s.Target == "wcf-classic" && s.Metric == Widgets.Id);
        Assert.True(series.Gates);
        Assert.Equal(HistorySeries.Regression, series.Judgment);
        Assert.Contains("widgets/req", HistoryReport.Markdown(history));
        Assert.Contains("widgets/req", JUnitReport.Render(history, DateTimeOffset.UnixEpoch));
    }

    [Fact]
    public void Outside_the_scope_the_figure_is_gone()
    {
        using (Metrics.Adding(Widgets)) Assert.Contains(Widgets, Metrics.Judged);
        Assert.DoesNotContain(Widgets, Metrics.All);
        Assert.DoesNotContain(Run().AllJudged(), v => v.Metric == "widgets");
    }
}
