using System;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Capacity;
using Comparator.Cli;
using Comparator.Drivers;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;
using Xunit;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;

namespace Comparator.Tests;

/// <summary>
/// `capacity` on real processes: a service that answers after a fixed delay carries what Little's law
/// says its connections allow, one whose every answer takes 900 ms holds a tight objective at no rate (and
/// the verdict says so), two instances of one target claim no lead, and bad objectives are one line.
/// What is asserted is what the search and the rule decide, within the search's own precision.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class CapacityTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("capacity-");

    public void Dispose() => _dir.Delete(recursive: true);

    private static TargetDefinition Misbehaving(string name, string mode, int ms) =>
        new(name, "test double", ".NET 10", "Kestrel", "MisbehavingService", "MisbehavingService.dll", HostRuntime.DotNet, null)
        {
            VariantArguments = new[] { mode, ms.ToString(System.Globalization.CultureInfo.InvariantCulture) },
        };

    private async Task<CapacityResult> RunAsync(string[] args, params TargetPlan[] targets)
    {
        var layout = BuildLayout.Discover();
        var parse = Comparator.Cli.CommandLine.ParseOrThrow(Comparator.Cli.CommandLine.Build().Subcommands.Single(c => c.Name == "capacity"),
            args.Concat(new[] { "--out", _dir.FullName }).ToArray());
        var options = CapacityCommand.Parse(new ArgumentReader(parse), layout);
        options = options with { Targets = options.Targets.Only(targets, targets[0].Name) };
        var driver = DriverCatalog.Create(options.Cells.Drivers, null).Single();
        return await new CapacityRunner(options, driver, new TargetLauncher(layout), new LineProgress()).RunAsync(CancellationToken.None);
    }

    [Fact]
    public async Task A_delaying_service_carries_what_littles_law_allows_and_a_stalling_one_holds_the_objective_at_no_rate()
    {
        const int connections = 10, delayMs = 20;
        var result = await RunAsync(new[] { "--endpoints", "time", "--concurrency", $"{connections}", "--objective", "p90<=100ms", "--launches", "1",
                "--precision", "5%", "--step", "0.5s", "--step-warmup", "0.2s", "--warmup", "0.5s", "--first-warmup", "0.5s" },
            new TargetPlan("kestrel", TargetCatalog.Find("kestrel")!, null),
            new TargetPlan("delaying", Misbehaving("delaying", "delay", delayMs), null),
            // Every answer 900 ms late, whatever the rate: no phase of the sends can meet a 100 ms p90. (A service stalled 900 ms of every
            // second held it once at the search's floor, about one request a second, whose one request fell in the open 100 ms.)
            new TargetPlan("stalling", Misbehaving("stalling", "delay", 900), null));

        // Little's law: at most 10 connections / 20 ms = 500 requests/s in flight, a ceiling no machine lifts; the search
        // may overshoot it by no more than its precision (5%). How far below it the knee falls is the machine's pace (a
        // loaded 2-core machine held 414/s), so from below the search is held to its own word: the rate that held and the
        // one that broke were both tried, within 5% of each other, the held one's p90 within the 100 ms objective.
        var bound = connections * 1000.0 / delayMs;
        var delaying = Assert.Single(result.Cells, c => c.Key.Target == "delaying").Launches.Single();
        Assert.NotNull(delaying.Held);
        Assert.NotNull(delaying.Broke);
        Assert.InRange(delaying.Held!.Value, 0, bound * 1.05);
        Assert.True(delaying.Broke!.Value - delaying.Held.Value <= 0.05 * delaying.Held.Value + 1e-9);
        var held = Assert.Single(delaying.Steps, s => s.Rate == delaying.Held.Value);
        var broke = Assert.Single(delaying.Steps, s => s.Rate == delaying.Broke.Value);
        Assert.Null(held.Failure);
        Assert.True(held.ObjectiveMs[0] <= 100, $"held at {held.Rate:0}/s with p90 {held.ObjectiveMs[0]} ms");
        Assert.NotNull(broke.Failure); // over the objective, or overloaded: fewer answered than asked

        // Every answer 900 ms late: whatever the rate, p90 stays far over 100 ms.
        var stalling = Assert.Single(result.Cells, c => c.Key.Target == "stalling");
        Assert.All(stalling.Launches, l => Assert.Null(l.Held));
        Assert.Equal(1, stalling.Summary!.FailedEverywhere);
        Assert.Null(stalling.Summary.Capacity);
        var verdict = Assert.Single(result.Verdicts, v => v.Other == "stalling");
        Assert.Null(verdict.Leader);
        Assert.StartsWith("p90<=100ms breaks at every rate tried on stalling while kestrel holds it", verdict.Reason);

        // Every step kept its window, the report reads them back, and the chart has a point per step.
        var saved = CapacityReport.Deserialize(CapacityReport.Serialize(result), "capacity.json");
        Assert.Equal(result.Cells.Sum(c => c.Launches.Sum(l => l.Steps.Count)), saved.Cells.Sum(c => c.Launches.Sum(l => l.Steps.Count)));
        Assert.All(saved.Cells.SelectMany(c => c.Launches).SelectMany(l => l.Steps), s => Assert.NotNull(s.Window.LatencyHistogram));
        Assert.Single(CapacityChart.Build(saved));
        Assert.Contains("breaks at every rate tried on stalling", string.Join("\n", CapacityReport.VerdictLines(saved)));
    }

    [Fact]
    public async Task Two_instances_of_one_target_claim_no_lead()
    {
        var kestrel = TargetCatalog.Find("kestrel")!;
        // At 99.99% a false lead between identical services is, by the rule's own design, at most a 0.005% chance each way (at the
        // default 99%, 0.5%: a test that failed once in a hundred runs by the machine's luck).
        var result = await RunAsync(new[] { "--endpoints", "time", "--concurrency", "10", "--objective", "p99<=20ms", "--launches", "3",
                "--precision", "10%", "--step", "0.3s", "--step-warmup", "0.1s", "--warmup", "0.3s", "--first-warmup", "0.5s", "--confidence", "99.99%" },
            new TargetPlan("kestrel.A", kestrel, null), new TargetPlan("kestrel.B", kestrel, null));

        var verdict = Assert.Single(result.Verdicts);
        Assert.Null(verdict.Leader);
        Assert.Equal(3, verdict.Units);
        Assert.All(result.Cells, c => Assert.Equal(3, c.Summary!.Launches));

        // The run directory renders again and diffs against itself: no regression claimed.
        var directory = Directory.CreateDirectory(Path.Combine(_dir.FullName, "aa")).FullName;
        CapacityReport.WriteInto(result, directory);
        var (exit, markdown, _) = await ComparatorProcess.RunAsync("report", directory, "--format", "md");
        Assert.Equal(0, exit);
        Assert.StartsWith("# Capacity within p99<=20ms", markdown);
        var (diffExit, diff, stderr) = await ComparatorProcess.RunAsync("diff", directory, Path.Combine(directory, CapacityResult.FileName));
        Assert.True(diffExit is 0 or 3, $"exit {diffExit}\n{diff}\n{stderr}");
        Assert.Contains("0 regression(s)", diff);
        Assert.Contains("| kestrel.B | time c=10 |", diff);
    }

    [Theory]
    [InlineData("--objective", "p101<=5ms", "capacity: --objective's percentile is above 0 and under 100")]
    [InlineData("--objective", "p90<=-1ms", "capacity: --objective's bound is a positive time")]
    [InlineData("--objective", "p90<=20", "capacity: --objective takes PERCENTILE<=BOUND with a unit")]
    [InlineData("--driver", "wrk", "capacity: --driver does not apply here")]
    [InlineData("--precision", "80%", "capacity: --precision takes a percentage")]
    [InlineData("--at", "fast", "capacity: --at takes a rate in requests/s")]
    [InlineData("--aa", "--targets=kestrel,minimal", "capacity: --aa takes one built target")]
    public async Task A_bad_option_is_one_line_and_exit_2_before_anything_starts(string option, string value, string expected)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("capacity", option, value, "--out", _dir.FullName);

        Assert.Equal(2, exit);
        Assert.Contains(expected, stderr);
        Assert.Single(stderr.Trim().Split('\n'));
        Assert.Empty(_dir.GetDirectories());
        Assert.DoesNotContain("Exception", stdout + stderr);
    }
}
