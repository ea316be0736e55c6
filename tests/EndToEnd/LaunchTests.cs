using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Reports;
using Comparator.Results;
using Xunit;

namespace Comparator.Tests;

/// <summary>Launches (fresh processes per target, the lead rule's unit) and calibrate (the A/A test), on real processes.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class LaunchTests : IDisposable
{
    private readonly DirectoryInfo _out = Directory.CreateTempSubdirectory("comparator-launch-");

    public void Dispose() => _out.Delete(recursive: true);

    [Fact]
    public async Task Every_launch_measures_every_cell_and_alternates_which_target_goes_first()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--targets", "kestrel,httplistener", "--endpoints", "time",
            "--launches", "2", "--warmup", "0", "--first-warmup", "0", "--duration", "0.2s", "--rate", "none", "--steady-bound", "0", "--out", _out.FullName);
        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var directory = Assert.Single(_out.GetDirectories()).FullName;
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(directory, "results.json")), "results.json");

        Assert.Equal(2, run.Spec.Launches);
        var windows = run.Cells.SelectMany(c => c.Repeats.Select(m => (c.Key.Target, m.Launch, m.Round, Start: m.WindowStartedAt!.Value)))
            .OrderBy(w => w.Start).Select(w => $"{w.Target}@{w.Launch}.{w.Round}").ToList();
        Assert.Equal(new[] { "kestrel@0.0", "httplistener@0.0", "httplistener@1.0", "kestrel@1.0" }, windows);
        Assert.Equal(2, stderr.Split('\n').Count(l => l.Contains("kestrel: starting")));

        // The decision is stored once, with exactly the documented fields (beside it, system calls a request where this machine counts them).
        var verdict = Assert.Single(run.Verdicts!, v => v.Metric == Comparator.Results.Metrics.RequestsPerSecond.VerdictId);
        Assert.Equal(("time", "kestrel", "httplistener", "rps", 0.99), (verdict.Endpoint, verdict.Baseline, verdict.Other, verdict.Metric, verdict.Confidence));
        Assert.NotNull(verdict.RatioLow);
        var json = File.ReadAllText(Path.Combine(directory, "results.json"));
        Assert.Contains("\"verdicts\": [", json);
        Assert.Contains("\"schemaVersion\": 4", json);
    }

    [Fact]
    public async Task Calibrate_measures_two_instances_of_a_target_against_each_other_and_saves_a_run()
    {
        // A lead must lie wholly beyond ±50%: two launches of one service cannot place a 99% interval there (with two
        // launches Student's t is 63.7, so both launches would have to differ by 1.5x and agree to a few thousandths),
        // so no lead is claimed and the exit code is 0; a rule or an exit code that claimed one fails here.
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("calibrate", "--targets", "kestrel", "--endpoints", "time",
            "--launches", "2", "--warmup", "0", "--first-warmup", "0", "--duration", "0.2s", "--steady-bound", "0", "--min-effect", "50", "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        Assert.Contains("lies wholly beyond ±50%", stdout); // the margin asked is the one judged by
        Assert.DoesNotContain("FALSE LEAD", stdout);
        Assert.Contains("calibrate: no lead claimed in ", stdout);
        Assert.Contains("A/A kestrel", stdout);
        Assert.Matches(@"time\s+-\s+req/s\s+\d\.\d{2,3}x\s+\d\.\d{2,3}x–\d+\.\d{2,3}x\s+\d\.\d{2,3}x–\d+\.\d{2,3}x\s+2\s+(equivalent|not settled)", stdout);
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.json")), "results.json");
        Assert.Equal(new[] { "kestrel.A", "kestrel.B" }, run.Targets.Select(t => t.Name));
        Assert.Equal("kestrel.A", run.Spec.BaselineTarget);
        Assert.All(run.Cells, c => Assert.Equal(2, c.Repeats.Select(m => m.Launch).Distinct().Count()));
    }

    [Theory]
    [InlineData("calibrate: unknown option '--target'", "--target", "x=http://127.0.0.1:1")]
    [InlineData("calibrate: --launches takes a whole number from 1 to 50, not '0'", "--launches", "0")]
    [InlineData("calibrate: unknown target", "--targets", "nosuch")]
    public async Task Calibrate_refuses_bad_input_with_one_line_and_exit_2(string message, params string[] args)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(args.Prepend("calibrate").Append("--out").Append(_out.FullName).ToArray());

        Assert.Equal(2, exit);
        Assert.StartsWith("error: " + message, stderr);
        Assert.Single(stderr.TrimEnd().Split('\n'));
        Assert.Empty(_out.GetDirectories());
    }
}
