using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Xml.Linq;
using System.Xml.Schema;
using Comparator.Comparing;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Statistics;
using Xunit;
using Comparator.Reports.Exporters;

namespace Comparator.Tests;

/// <summary>
/// A history on injected runs (seeded noise: no machine's luck): a step at the seventh of twelve runs is one change point between
/// runs 6 and 7 and nothing else, twelve A/A runs none, a baseline mark accepts a step, instructions gate where every run counted
/// them, and runs are grouped by machine and target set. Figures of a window are made to the step: req/s falls as CPU a request rises.
/// </summary>
public sealed class HistoryTests
{
    private static readonly DateTimeOffset Start = new(2026, 11, 27, 8, 0, 0, TimeSpan.Zero);

    private static Measurement Window(double rps, double cpuUsPerRequest, double? instructionsPerRequest, int launch) =>
        Measurement.Of(new (MetricDescriptor, double?)[]
        {
            (Metrics.Requests, Math.Round(rps)), (Metrics.Failed, 0), (Metrics.Non2xx, 0), (Metrics.Errors, 0), (Metrics.Timeouts, 0), (Metrics.ElapsedSeconds, 1),
            (Metrics.RequestsPerSecond, rps), (Metrics.LatencyMeanMs, 1), (Metrics.LatencyP50Ms, 1), (Metrics.LatencyP90Ms, 16000 / rps), (Metrics.LatencyP99Ms, 2),
            (Metrics.LatencyMaxMs, 9), (Metrics.BytesReceived, Math.Round(rps) * 167), (Metrics.BytesSent, Math.Round(rps) * 90), (Metrics.BodyBytesReceived, 0),
            (Metrics.ConnectionsOpened, 16), (Metrics.ServerCpuSeconds, cpuUsPerRequest * Math.Round(rps) / 1e6), (Metrics.ServerPeakRssMb, 50), (Metrics.ClientCpuSeconds, 0.5),
        }.Concat(instructionsPerRequest is double i ? new (MetricDescriptor, double?)[] { (Metrics.InstructionsUser, i * Math.Round(rps) * 0.9), (Metrics.InstructionsKernel, i * Math.Round(rps) * 0.1) }
            : Array.Empty<(MetricDescriptor, double?)>()).ToArray()) with { Launch = launch, Round = 0 };

    /// <summary>One run of kestrel and a twin: the twin's CPU a request is <paramref name="spinCost"/> (its req/s the inverse), each launch off by the noise.</summary>
    internal static RunResult Run(int n, Random random, double spinCost, double noise, bool instructions = false, string? fingerprint = null, double? rate = null)
    {
        double Noisy() => Math.Exp(noise * Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble()));
        CellResult Cell(string target, double cost)
        {
            var windows = Enumerable.Range(0, 3).Select(l => { var f = Noisy(); return Window(1.6e6 / cost / f, cost * f, instructions ? cost * 2000 : null, l); }).ToArray();
            return new CellResult(new CellKey(target, "time", 0, 16, "socket", rate, CoresSpec.SharedLabel), ".NET 10", CellSizes.NoSize, true, windows,
                windows.OrderBy(w => w.RequestsPerSecond).ElementAt(1), windows.Min(w => w.RequestsPerSecond), windows.Max(w => w.RequestsPerSecond), 0, 0, Array.Empty<string>(), null);
        }
        var sample = ResultsTests.Sample();
        var spec = sample.Spec with
        {
            Targets = new[] { "kestrel", "spinning" }, Endpoints = new[] { "time" }, Launches = 3, BaselineTarget = "kestrel",
            Machine = sample.Spec.Machine with { Fingerprint = fingerprint }, Rates = rate is null ? null : new[] { "50% of the lower closed-loop capacity of the compared targets" },
        };
        return sample with
        {
            Spec = spec, StartedAt = Start.AddMinutes(10 * n), FinishedAt = Start.AddMinutes(10 * n + 2), Cells = new[] { Cell("kestrel", 40), Cell("spinning", spinCost) },
            Targets = new[] { sample.Targets[0], sample.Targets[0] with { Name = "spinning" } },
        };
    }

    /// <summary>Twelve runs with 3% launch-to-launch noise; the twin's cost steps from 90 to <paramref name="after"/> µs a request at run 7.</summary>
    internal static List<HistoryInput> Twelve(double after, int seed = 20261127, bool instructions = false, Func<int, bool>? baseline = null) =>
        Enumerable.Range(1, 12).Select(n =>
        {
            var random = new Random(seed + n);
            return new HistoryInput(Run(n, random, n >= 7 ? after : 90, 0.03, instructions), $"results/run-{n}", baseline?.Invoke(n) == true ? new BaselineMark(Start, "new spin") : null);
        }).ToList();

    private static HistoryResult History(IReadOnlyList<HistoryInput> runs, HistorySelection? selection = null) =>
        RunHistory.Build(runs, selection ?? new HistorySelection(), Start.AddDays(1));

    [Fact]
    public void A_step_at_the_seventh_of_twelve_runs_is_one_change_point_between_runs_6_and_7_in_the_twins_series_and_nothing_else()
    {
        var history = History(Twelve(after: 140));

        var group = Assert.Single(history.Groups);
        Assert.Equal(12, group.Runs.Count);
        var changed = group.Series.Where(s => s.Changes.Count > 0).ToList();
        Assert.All(changed, s => Assert.Equal("spinning", s.Target));
        Assert.All(changed, s => Assert.Equal((6, 7), (Assert.Single(s.Changes).Before, s.Changes[0].After)));
        var rps = changed.Single(s => s.Metric == Metrics.RequestsPerSecond.Id);
        Assert.True(rps.Gates);
        Assert.Equal(HistorySeries.Regression, rps.Judgment);
        Assert.InRange(rps.Changes[0].Change, -0.40, -0.30); // 90 → 140 µs a request is 1.6e6/140 against 1.6e6/90 req/s: -36%
        Assert.Contains(changed, s => s.Metric == Metrics.ServerCpuUsPerRequest.Id && s.Changes[0].Worse && !s.Gates);
        Assert.True(history.HasRegression);
        Assert.StartsWith("REGRESSION: spinning time - c=16 socket req/s -3", HistoryReport.Verdict(history));
    }

    [Fact]
    public void Twelve_runs_of_the_same_build_have_no_change_point()
    {
        var history = History(Twelve(after: 90));

        Assert.All(history.Groups.Single().Series, s => Assert.Empty(s.Changes));
        Assert.False(history.HasRegression);
        Assert.False(history.CannotJudge);
        Assert.StartsWith("No regression", HistoryReport.Verdict(history));
        // What the rule could find in series this spread: 3% launch noise over 3 launches is about 1.7% a run, and |t| > 7 with six runs a side needs ~7%.
        var rps = history.Gating.First(s => s.Target == "spinning");
        Assert.InRange(rps.Findable!.Value, 0.04, 0.12);
    }

    [Fact]
    public void A_step_smaller_than_the_series_can_show_is_not_called()
    {
        var history = History(Twelve(after: 92)); // +2%: under the 3% minimum change and under what the spread lets the t-test see

        Assert.False(history.HasRegression);
        Assert.All(history.Groups.Single().Series, s => Assert.Empty(s.Changes));
    }

    [Fact]
    public void A_run_marked_as_a_baseline_accepts_the_step_at_it_and_the_gate_passes()
    {
        var history = History(Twelve(after: 140, baseline: n => n == 7));

        Assert.False(history.HasRegression);
        Assert.All(history.Groups.Single().Series, s => Assert.Empty(s.Changes));
        Assert.True(history.Groups.Single().Runs[6].Baseline);
        Assert.Contains("since the newest baseline", HistoryReport.Verdict(history));
    }

    [Fact]
    public void A_baseline_too_recent_to_find_a_change_after_it_cannot_pass_the_gate()
    {
        var history = History(Twelve(after: 140, baseline: n => n == 10));

        Assert.True(history.CannotJudge);
        Assert.False(history.HasRegression);
        Assert.Contains("3 run(s) since the baseline of run 10", history.Gating.First().WhyNot);
        // The step before the mark is still shown, as not counting.
        Assert.Contains(history.Groups.Single().Series, s => s.Changes.Any(c => !c.Current && (c.Before, c.After) == (6, 7)));
    }

    [Fact]
    public void Where_every_run_counted_instructions_they_gate_and_req_s_informs()
    {
        var history = History(Twelve(after: 140, instructions: true));

        var gating = history.Gating.Where(s => s.Target == "spinning").ToList();
        Assert.Equal(Metrics.InstructionsPerRequest.Id, Assert.Single(gating).Metric);
        Assert.Equal(HistorySeries.Regression, gating[0].Judgment);
        Assert.False(history.Groups.Single().Series.Single(s => s.Target == "spinning" && s.Metric == Metrics.RequestsPerSecond.Id).Gates);
    }

    [Fact]
    public void Runs_of_another_machine_are_told_apart_and_grouped_apart_or_mixed_only_when_asked()
    {
        var runs = Twelve(after: 90).Select((r, i) => i < 6 ? r : r with { Run = r.Run with { Spec = r.Run.Spec with { Machine = r.Run.Spec.Machine with { Fingerprint = "beef00000000" } } } }).ToList();

        Assert.Equal(2, RunHistory.Machines(runs).Count);
        Assert.Equal(new[] { 6, 6 }, History(runs, new HistorySelection(Machine: HistorySelection.EachMachine)).Groups.Select(g => g.Runs.Count));
        Assert.Equal(12, History(runs, new HistorySelection(Machine: HistorySelection.AnyMachine)).Groups.Single().Runs.Count);
        Assert.Equal(6, History(runs, new HistorySelection(Machine: "BEEF")).Groups.Single().Runs.Count);
    }

    [Fact]
    public void Since_and_last_pick_the_runs_of_each_group()
    {
        Assert.Equal(5, History(Twelve(after: 90), new HistorySelection(Since: Start.AddMinutes(80))).Groups.Single().Runs.Count);
        var last = History(Twelve(after: 90), new HistorySelection(Last: 4)).Groups.Single();
        Assert.Equal(new[] { 1, 2, 3, 4 }, last.Runs.Select(r => r.Number));
        Assert.Equal("results/run-9", last.Runs[0].Source);
    }

    [Fact]
    public void Fixed_rate_cells_at_a_share_of_capacity_are_one_series_whatever_rate_each_run_found()
    {
        var runs = Enumerable.Range(1, 8).Select(n => new HistoryInput(Run(n, new Random(n), 90, 0.03, rate: 8000 + 37 * n), $"run-{n}")).ToList();

        var rated = History(runs).Groups.Single().Series.Where(s => s.CellLabel.Contains('@')).ToList();
        Assert.NotEmpty(rated);
        Assert.All(rated, s => Assert.Equal(8, s.Points.Count));
        Assert.All(rated, s => Assert.EndsWith("@50%", s.CellLabel));
        Assert.Contains(rated, s => s.Gates && s.Metric == Metrics.ServerCpuUsPerRequest.Id);
    }

    [Fact]
    public void The_history_as_junit_fails_the_regressed_series_skips_what_it_cannot_judge_and_is_valid_against_the_schema()
    {
        var regressed = JUnitReport.Render(History(Twelve(after: 140)), Start);
        var unjudged = JUnitReport.Render(History(Twelve(after: 140).Take(4).ToList()), Start);
        var schemas = new XmlSchemaSet();
        schemas.Add(null, Path.Combine(AppContext.BaseDirectory, "Fixtures", "junit-ant.xsd"));
        var errors = new List<string>();

        foreach (var xml in new[] { regressed, unjudged }) XDocument.Parse(xml).Validate(schemas, (_, e) => errors.Add(e.Message));

        Assert.Empty(errors);
        var failure = XDocument.Parse(regressed).Descendants("failure").Single();
        Assert.Contains("between runs 6 and 7", failure.Attribute("message")!.Value);
        Assert.Equal(2, XDocument.Parse(unjudged).Descendants("skipped").Count());
    }

    [Fact]
    public void History_html_draws_a_chart_per_cell_and_figure_with_the_change_marked_and_fetches_nothing()
    {
        var history = History(Twelve(after: 140));
        var html = HistoryReport.Html(history);

        var series = history.Groups.Single().Series;
        Assert.Equal(series.Select(s => (s.CellLabel, s.Metric)).Distinct().Count(), System.Text.RegularExpressions.Regex.Matches(html, "<figure ").Count);
        Assert.Contains("spinning -3", html); // the change point's label on the req/s chart
        Assert.DoesNotContain("<script", html);
        Assert.DoesNotContain("src=\"http", html);
        Assert.Contains("REGRESSION", HistoryReport.Markdown(history));
        Assert.Equal(history.Groups.Single().Runs.Count, System.Text.Json.JsonDocument.Parse(HistoryReport.Json(history)).RootElement.GetProperty("groups")[0].GetProperty("runs").GetArrayLength());
    }
}
