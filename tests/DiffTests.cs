using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Reports;
using Comparator.Results;
using Xunit;

namespace Comparator.Tests;

/// <summary>The regression rules of `diff`, on result fixtures built here, and its exit codes.</summary>
public sealed class DiffTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("comparator-diff-");

    public void Dispose() => _dir.Delete(recursive: true);

    private static Measurement Window(double rps, double p99 = 5, double cpu = 0.25) =>
        new((long)rps, 0, 0, 0, 0, 1, rps, 1, 1, 2, p99, 9, (long)rps * 617, (long)rps * 611, (long)rps * 500, 100, cpu, 50, 0.5,
            Array.Empty<string>(), Array.Empty<string>());

    private static CellResult Cell(string target, string endpoint, params Measurement[] repeats) =>
        new(new CellKey(target, endpoint, 500, 100, "httpclient"), ".NET 10", "500B", true, repeats,
            repeats.OrderBy(r => r.RequestsPerSecond).ElementAt((repeats.Length - 1) / 2),
            repeats.Min(r => r.RequestsPerSecond), repeats.Max(r => r.RequestsPerSecond), 0, 0, Array.Empty<string>(), null);

    private static RunResult Run(params CellResult[] cells) => ResultsTests.Sample() with { Cells = cells };

    [Fact]
    public void A_drop_beyond_threshold_and_beyond_both_runs_spread_is_a_regression()
    {
        var diff = RunDiff.BetweenRuns(
            Run(Cell("kestrel", "echo-post", Window(1000), Window(1010), Window(990))),
            Run(Cell("kestrel", "echo-post", Window(900), Window(905), Window(895))), 0.05, "base", "new");

        Assert.True(diff.HasRegression);
        Assert.Equal(RunDiff.Regression, diff.Cells.Single().Verdict);
        Assert.Contains("**1 regression(s)**", DiffReport.Render(diff));
    }

    [Fact]
    public void A_drop_beyond_threshold_inside_the_measured_noise_is_not_a_regression()
    {
        var diff = RunDiff.BetweenRuns(
            Run(Cell("kestrel", "echo-post", Window(1000), Window(1200), Window(800))),
            Run(Cell("kestrel", "echo-post", Window(900), Window(1100), Window(700))), 0.05, "base", "new");

        Assert.False(diff.HasRegression);
        Assert.Equal(RunDiff.WithinNoise, diff.Cells.Single().Verdict);
    }

    [Fact]
    public void A_drop_beyond_the_noise_but_under_the_threshold_is_not_a_regression()
    {
        var diff = RunDiff.BetweenRuns(
            Run(Cell("kestrel", "time", Window(1000), Window(1001))),
            Run(Cell("kestrel", "time", Window(970), Window(971))), 0.05, "base", "new");

        Assert.False(diff.HasRegression);
        Assert.Equal(RunDiff.Unchanged, diff.Cells.Single().Verdict);
    }

    [Fact]
    public void Higher_cpu_per_request_or_latency_beyond_threshold_and_noise_is_a_regression_too()
    {
        var diff = RunDiff.BetweenRuns(
            Run(Cell("kestrel", "time", Window(1000, p99: 5), Window(1000, p99: 5.1))),
            Run(Cell("kestrel", "time", Window(1000, p99: 7), Window(1000, p99: 7.2))), 0.05, "base", "new");

        Assert.Equal(RunDiff.Regression, diff.Cells.Single().Verdict);
        Assert.True(diff.Cells.Single().Changes.Single(c => c.Metric == "p99 ms").IsRegression(0.05));
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
            "schema" => Save("schema.json", ResultStore.Serialize(Run(Cell("kestrel", "time", Window(1000)))).Replace("\"schemaVersion\": 1", "\"schemaVersion\": 7")),
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
