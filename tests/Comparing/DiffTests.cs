using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Reports;
using Comparator.Results;
using Xunit;
using Comparator.Reports.Exporters;

namespace Comparator.Tests;

/// <summary>The regression rules of `diff`, on result fixtures built here, and its exit codes.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class DiffTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("comparator-diff-");

    public void Dispose() => _dir.Delete(recursive: true);

    // p99 sets p90 too: diff judges p90, and these fixtures move the tail as a whole.
    private static Measurement Window(double rps, double p99 = 5, double cpu = 0.25) =>
        Measurement.Of((Metrics.Requests, (long)rps), (Metrics.Failed, 0), (Metrics.Non2xx, 0), (Metrics.Errors, 0), (Metrics.Timeouts, 0),
            (Metrics.ElapsedSeconds, 1), (Metrics.RequestsPerSecond, rps), (Metrics.LatencyMeanMs, 1), (Metrics.LatencyP50Ms, 1),
            (Metrics.LatencyP90Ms, p99), (Metrics.LatencyP99Ms, p99), (Metrics.LatencyMaxMs, 9), (Metrics.BytesReceived, (long)rps * 617),
            (Metrics.BytesSent, (long)rps * 611), (Metrics.BodyBytesReceived, (long)rps * 500), (Metrics.ConnectionsOpened, 100),
            (Metrics.ServerCpuSeconds, cpu), (Metrics.ServerPeakRssMb, 50), (Metrics.ClientCpuSeconds, 0.5));

    private static CellResult Cell(string target, string endpoint, params Measurement[] repeats) =>
        new(new CellKey(target, endpoint, 500, 100, "httpclient"), ".NET 10", "500B", true, repeats,
            repeats.OrderBy(r => r.RequestsPerSecond).ElementAt((repeats.Length - 1) / 2),
            repeats.Min(r => r.RequestsPerSecond), repeats.Max(r => r.RequestsPerSecond), 0, 0, Array.Empty<string>(), null);

    private static RunResult Run(params CellResult[] cells) => ResultsTests.Sample() with { Cells = cells };

    [Fact]
    public void A_drop_whose_interval_lies_wholly_beyond_the_threshold_is_a_regression()
    {
        var diff = RunDiff.BetweenRuns(
            Run(Cell("kestrel", "echo-post", Window(1000), Window(1010), Window(990))),
            Run(Cell("kestrel", "echo-post", Window(900), Window(905), Window(895))), 0.05, "base", "new");

        Assert.True(diff.HasRegression);
        Assert.Equal(RunDiff.Regression, diff.Cells.Single().Verdict);
        Assert.Contains("**1 regression(s)**", DiffReport.Render(diff));
    }

    [Fact]
    public void A_drop_beyond_threshold_whose_interval_reaches_inside_it_is_not_a_regression()
    {
        var diff = RunDiff.BetweenRuns(
            Run(Cell("kestrel", "echo-post", Window(1000), Window(1200), Window(800))),
            Run(Cell("kestrel", "echo-post", Window(900), Window(1100), Window(700))), 0.05, "base", "new");

        Assert.False(diff.HasRegression);
        Assert.Equal(RunDiff.NotSettled, diff.Cells.Single().Verdict);
    }

    [Fact]
    public void A_drop_beyond_the_noise_but_under_the_threshold_is_not_a_regression_and_within_the_margin_is_equivalent()
    {
        var diff = RunDiff.BetweenRuns(
            Run(Cell("kestrel", "time", Window(1000), Window(1001))),
            Run(Cell("kestrel", "time", Window(970), Window(971))), 0.05, "base", "new");

        Assert.False(diff.HasRegression);
        Assert.Equal(RunDiff.Equivalent, diff.Cells.Single().Verdict);
    }

    [Fact]
    public void Higher_cpu_per_request_or_latency_beyond_threshold_and_noise_is_a_regression_too()
    {
        var diff = RunDiff.BetweenRuns(
            Run(Cell("kestrel", "time", Window(1000, p99: 5), Window(1000, p99: 5.1))),
            Run(Cell("kestrel", "time", Window(1000, p99: 7), Window(1000, p99: 7.2))), 0.05, "base", "new");

        Assert.Equal(RunDiff.Regression, diff.Cells.Single().Verdict);
        Assert.True(diff.Cells.Single().Changes.Single(c => c.Metric == Metrics.LatencyP90Ms).IsRegression);
    }

    [Fact]
    public void An_improvement_is_reported_and_is_not_a_regression()
    {
        var diff = RunDiff.BetweenRuns(
            Run(Cell("kestrel", "time", Window(1000), Window(1010))),
            Run(Cell("kestrel", "time", Window(1300), Window(1310))), 0.05, "base", "new");

        Assert.False(diff.HasRegression);
        Assert.Equal(RunDiff.Improvement, diff.Cells.Single().Verdict);
    }

    [Fact]
    public void A_cell_on_one_side_only_is_listed_not_compared()
    {
        var diff = RunDiff.BetweenRuns(
            Run(Cell("kestrel", "time", Window(1000)), Cell("kestrel", "json", Window(1000))),
            Run(Cell("kestrel", "time", Window(1000)), Cell("httplistener", "time", Window(1000))), 0.05, "base", "new");

        Assert.Single(diff.Cells);
        Assert.Equal(new[] { "kestrel json 500B c=100 httpclient" }, diff.OnlyInBase);
        Assert.Equal(new[] { "httplistener time 500B c=100 httpclient" }, diff.OnlyInNew);
        Assert.Contains("- only in base: kestrel json", DiffReport.Render(diff));
    }

    [Fact]
    public void Two_targets_of_one_run_are_compared_cell_by_cell()
    {
        var diff = RunDiff.BetweenTargets(
            Run(Cell("wcf", "echo-post", Window(1000), Window(1010)), Cell("webapi", "echo-post", Window(700), Window(710))), "wcf", "webapi", 0.05);

        Assert.Equal("echo-post 500B c=100 httpclient", diff.Cells.Single().Label);
        Assert.Equal(RunDiff.Regression, diff.Cells.Single().Verdict);
    }

    /// <summary>
    /// A run of two targets at echo-post, flat out and at a fixed rate of <paramref name="rate"/> req/s, asked as <paramref name="asked"/>
    /// (a share of capacity: each run derives its own number from its own capacity).
    /// </summary>
    private static RunResult Rated(double rate, params string[] asked)
    {
        // Flat out 1000 req/s; at the fixed rate, the rate held; 250 µs of server CPU a request either way.
        Measurement W(double rps, int launch) => Window(rps, cpu: rps * 250e-6) with { Launch = launch };
        Measurement[] Windows(double rps) => new[] { W(rps, 0), W(rps * 1.01, 1), W(rps * 0.99, 2) };
        var cells = new[] { "kestrel", "spinning" }.SelectMany(t => new[]
        {
            Cell(t, "echo-post", Windows(1000)),
            Cell(t, "echo-post", Windows(rate)) is var c ? c with { Key = c.Key with { Rate = rate } } : null!,
        }).ToArray();
        var run = Run(cells);
        return run with { Spec = run.Spec with { Rates = asked } };
    }

    [Fact]
    public void Fixed_rate_cells_asked_at_a_share_of_capacity_match_across_runs_whatever_rate_each_derived()
    {
        // Two default runs: each asked 50% of its own capacity, and found 4527/s and 4178/s.
        var diff = RunDiff.BetweenRuns(Rated(4527, "50%"), Rated(4178, "50%"), 0.05, "base", "new");

        Assert.Equal(4, diff.Cells.Count);
        Assert.Empty(diff.OnlyInBase);
        Assert.Empty(diff.OnlyInNew);
        Assert.Contains("kestrel echo-post 500B c=100 httpclient @50%", diff.Cells.Select(c => c.Label));
        Assert.Contains("spinning echo-post 500B c=100 httpclient", diff.Cells.Select(c => c.Label));
        // The fixed-rate cell's lead figure is the cost judged there (server CPU), not the rate it was asked to hold.
        Assert.Equal(Metrics.ServerCpuUsPerRequest, RunDiff.Lead(diff.Cells.Single(c => c.Label.EndsWith("@50%") && c.Label.StartsWith("kestrel"))).Metric);
    }

    [Fact]
    public void At_a_fixed_rate_the_rate_each_run_held_is_shown_and_never_judged_a_change()
    {
        // The new run found three times the capacity, so its 50% is three times the requests a second: no improvement of the service.
        var diff = RunDiff.BetweenRuns(Rated(2000, "50%"), Rated(6000, "50%"), 0.05, "base", "new");

        var rated = diff.Cells.Where(c => c.FixedRate).ToList();
        Assert.Equal(2, rated.Count);
        Assert.All(rated, c =>
        {
            var rps = c.Changes.Single(x => x.Metric == Metrics.RequestsPerSecond);
            Assert.Equal((2000, 6000), (rps.Base, rps.New));
            Assert.Equal(RunDiff.SetByTheRate, rps.WhyNot);
            Assert.Equal(FigureOutcome.NotJudged, diff.OutcomeOf(rps));
            Assert.NotEqual(RunDiff.Improvement, c.Verdict);
        });
        Assert.DoesNotContain("req/s regressed", JUnitReport.Render(RunDiff.BetweenRuns(Rated(6000, "50%"), Rated(2000, "50%"), 0.05, "base", "new", pointEstimates: true),
            DateTimeOffset.UnixEpoch));
    }

    [Fact]
    public void Fixed_rate_cells_asked_as_a_number_match_only_the_same_number()
    {
        var same = RunDiff.BetweenRuns(Rated(2000, "2000"), Rated(2000, "2000"), 0.05, "base", "new");
        var other = RunDiff.BetweenRuns(Rated(2000, "2000"), Rated(3000, "3000"), 0.05, "base", "new");

        Assert.Equal(4, same.Cells.Count);
        Assert.Contains("kestrel echo-post 500B c=100 httpclient @2000/s", same.Cells.Select(c => c.Label));
        Assert.Equal(2, other.Cells.Count);
        Assert.Equal(new[] { "kestrel echo-post 500B c=100 httpclient @2000/s", "spinning echo-post 500B c=100 httpclient @2000/s" }, other.OnlyInBase);
    }

    /// <summary>A run of one cell measured in <paramref name="launches"/> launches: log-normal process noise around <paramref name="rps"/>.</summary>
    private static RunResult Launched(Random random, double rps, int launches, double noise)
    {
        double Normal() => Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
        var windows = Enumerable.Range(0, launches).Select(l => Window(rps * Math.Exp(noise * Normal())) with { Launch = l, Round = 0 }).ToArray();
        return Run(Cell("webapi-selfhost", "echo-post", windows));
    }

    [Fact]
    public void Diffs_of_two_runs_of_the_same_service_stay_quiet_at_the_default_threshold()
    {
        var random = new Random(20261124);
        var alarms = 0;
        for (var i = 0; i < 200; i++)
        {
            // 6 launches a side with 5% process-to-process noise (log SD), as measured on the echo cells of this 2-core machine.
            var diff = RunDiff.BetweenRuns(Launched(random, 1000, 6, 0.05), Launched(random, 1000, 6, 0.05), 0.05, "base", "new");
            if (diff.HasRegression) alarms++;
        }

        Assert.True(alarms <= 2, $"{alarms} false alarms in 200 A/A diffs"); // the rule's rate is at most 0.5% per figure
    }

    [Fact]
    public void A_20_percent_drop_measured_over_four_launches_is_found()
    {
        var random = new Random(7);
        var diff = RunDiff.BetweenRuns(Launched(random, 1000, 4, 0.02), Launched(random, 800, 4, 0.02), 0.05, "base", "new");

        var rps = diff.Cells.Single().Changes.Single(c => c.Metric == Metrics.RequestsPerSecond);
        Assert.True(rps.IsRegression);
        Assert.True(rps.Interval!.High < 1 / 1.05);
        Assert.Contains("99% interval -", DiffReport.Render(diff));
        Assert.Contains("called a regression at most 0.5% of the time", DiffReport.Render(diff));
    }

    [Fact]
    public void One_launch_a_side_gives_no_interval_and_is_never_a_regression()
    {
        var diff = RunDiff.BetweenRuns(
            Run(Cell("kestrel", "time", Window(1000) with { Launch = 0 })),
            Run(Cell("kestrel", "time", Window(500) with { Launch = 0 })), 0.05, "base", "new");

        Assert.False(diff.HasRegression);
        Assert.Equal(RunDiff.OneLaunch, diff.Cells.Single().Verdict);
        Assert.Null(diff.Cells.Single().Changes.Single(c => c.Metric == Metrics.RequestsPerSecond).Interval);
        Assert.Contains("(no interval: one launch", DiffReport.Render(diff));
        Assert.Contains(DiffReport.Summary(diff), l => l.StartsWith("1 cell(s) moved past 5.0% but could not be judged"));
    }

    [Fact]
    public void Two_targets_of_one_run_are_paired_by_launch()
    {
        // Launch 1 is slow for both targets alike: paired, the ratio is steady at 0.70x; unpaired it would not be.
        var run = Run(
            Cell("wcf", "echo-post", Window(1000) with { Launch = 0 }, Window(500) with { Launch = 1 }, Window(1000) with { Launch = 2 }),
            Cell("webapi", "echo-post", Window(700) with { Launch = 0 }, Window(350) with { Launch = 1 }, Window(702) with { Launch = 2 }));

        var rps = RunDiff.BetweenTargets(run, "wcf", "webapi", 0.05).Cells.Single().Changes.Single(c => c.Metric == Metrics.RequestsPerSecond);

        Assert.True(rps.IsRegression);
        Assert.InRange(rps.Interval!.Low, 0.69, 0.70);
        Assert.InRange(rps.Interval.High, 0.70, 0.71);
    }

    private string Save(string name, string content)
    {
        var path = Path.Combine(_dir.FullName, name);
        File.WriteAllText(path, content);
        return path;
    }

    [Fact]
    public async Task Cli_exit_codes_are_0_for_no_regression_and_1_for_a_regression()
    {
        var basePath = Save("base.json", ResultStore.Serialize(Run(Cell("kestrel", "time", Window(1000), Window(1010)))));
        var same = Save("same.json", ResultStore.Serialize(Run(Cell("kestrel", "time", Window(1005), Window(1008)))));
        var worse = Save("worse.json", ResultStore.Serialize(Run(Cell("kestrel", "time", Window(800), Window(810)))));

        var (ok, okOut, _) = await ComparatorProcess.RunAsync("diff", basePath, same);
        var (bad, badOut, _) = await ComparatorProcess.RunAsync("diff", basePath, worse, "--threshold", "5%");

        Assert.Equal(0, ok);
        Assert.StartsWith("**No regression**", okOut);
        Assert.Equal(1, bad);
        Assert.Contains("REGRESSION", badOut);
    }

    [Fact]
    public async Task A_halving_measured_in_one_launch_cannot_be_judged_exits_3_and_with_a_threshold_is_gated_on_medians()
    {
        var basePath = Save("one.json", ResultStore.Serialize(Run(Cell("kestrel", "time", Window(1000)))));
        var halved = Save("halved.json", ResultStore.Serialize(Run(Cell("kestrel", "time", Window(500)))));
        var steady = Save("steady.json", ResultStore.Serialize(Run(Cell("kestrel", "time", Window(1001)))));

        var (judged, judgedOut, _) = await ComparatorProcess.RunAsync("diff", basePath, halved);
        var (gated, gatedOut, _) = await ComparatorProcess.RunAsync("diff", basePath, halved, "--threshold", "5%");
        var (passed, passedOut, _) = await ComparatorProcess.RunAsync("diff", basePath, steady, "--threshold", "5%");

        Assert.Equal(3, judged);
        Assert.StartsWith("**Cannot judge**", judgedOut);
        Assert.Equal(1, gated);
        Assert.Contains("judged on medians (point estimates", gatedOut);
        Assert.Equal(0, passed);
        Assert.StartsWith("**No regression by point estimates**", passedOut);
    }

    [Fact]
    public void The_default_threshold_is_the_runs_recorded_minimum_effect()
    {
        var run = Run(Cell("kestrel", "time", Window(1000)));
        var stricter = run with { Spec = run.Spec with { MinEffectPercent = 10 } };

        Assert.Equal(Statistics.LeadRule.DefaultMinEffect, Cli.DiffCommand.RecordedMinEffect(run, run));
        Assert.Equal(0.10, Cli.DiffCommand.RecordedMinEffect(run, stricter), 9);
    }

    [Fact]
    public async Task Run_compare_to_an_unreadable_baseline_exits_2_before_any_load()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--quick", "--compare-to", Path.Combine(_dir.FullName, "none.json"), "--out", _dir.FullName);

        Assert.Equal(2, exit);
        Assert.Contains("cannot read", stderr);
        Assert.DoesNotContain("starting", stderr);
        Assert.Empty(_dir.GetDirectories());
    }

    [Theory]
    [InlineData("csv", "target,runtime,endpoint,")]
    [InlineData("md", "# Comparator run")]
    [InlineData("html", "<!DOCTYPE html>")]
    public async Task Report_renders_a_saved_run_again_in_each_format(string format, string start)
    {
        var saved = Save("run.json", ResultStore.Serialize(Run(Cell("kestrel", "time", Window(1000)))));
        var (exit, stdout, _) = await ComparatorProcess.RunAsync("report", saved, "--format", format);

        Assert.Equal(0, exit);
        Assert.StartsWith(start, stdout);
    }

    [Fact]
    public async Task Report_takes_a_run_directory_as_run_prints_it_and_says_when_it_holds_no_results()
    {
        var runDir = Directory.CreateDirectory(Path.Combine(_dir.FullName, "20261124-100000"));
        File.WriteAllText(Path.Combine(runDir.FullName, "results.json"), ResultStore.Serialize(Run(Cell("kestrel", "time", Window(1000)))));
        var empty = Directory.CreateDirectory(Path.Combine(_dir.FullName, "empty"));

        var (exit, stdout, _) = await ComparatorProcess.RunAsync("report", runDir.FullName + "/", "--format", "md");
        var (badExit, _, stderr) = await ComparatorProcess.RunAsync("report", empty.FullName);

        Assert.Equal(0, exit);
        Assert.StartsWith("# Comparator run", stdout);
        Assert.Equal(2, badExit);
        Assert.Contains("a directory without results.json", stderr);
    }

    [Theory]
    [InlineData("schema", "has schema version 7")]
    [InlineData("garbage", "is not JSON")]
    [InlineData("missing", "cannot read")]
    [InlineData("disjoint", "no measured cell in common")]
    public async Task Files_that_cannot_be_compared_exit_2_with_one_line(string kind, string expected)
    {
        var good = Save("good.json", ResultStore.Serialize(Run(Cell("kestrel", "time", Window(1000)))));
        var other = kind switch
        {
            "schema" => Save("schema.json", ResultStore.Serialize(Run(Cell("kestrel", "time", Window(1000)))).Replace("\"schemaVersion\": 4", "\"schemaVersion\": 7")),
            "garbage" => Save("garbage.json", "{ this is not json"),
            "missing" => Path.Combine(_dir.FullName, "nowhere.json"),
            _ => Save("disjoint.json", ResultStore.Serialize(Run(Cell("httplistener", "json", Window(1000))))),
        };

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("diff", good, other);

        Assert.Equal(2, exit);
        Assert.Contains(expected, Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)));
        Assert.Equal("", stdout);
    }
}
