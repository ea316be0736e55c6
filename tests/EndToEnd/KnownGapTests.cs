using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Cli;
using Comparator.Running;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The rule on real processes, with launches added until settled: a service made costlier on purpose
/// (the test double spins 20 µs of CPU per request, about twice what kestrel spends on the time
/// endpoint) is found cheaper-to-beat and slower, and a second kestrel against the first claims
/// nothing. What is asserted is the rule's outcome, never a figure.
/// </summary>
public sealed class KnownGapTests
{
    private static RunResult? _run;
    private static readonly SemaphoreSlim Once = new(1, 1);

    private static async Task<RunResult> RunAsync()
    {
        await Once.WaitAsync();
        try
        {
            if (_run is not null) return _run;
            var layout = BuildLayout.Discover();
            var options = RunOptionsParser.Parse(new[]
            {
                "--targets", "kestrel", "--endpoints", "time", "--warmup", "0.3s", "--first-warmup", "1s", "--duration", "0.5s",
                "--max-launches", "8", "--budget", "60s", "--out", System.IO.Path.GetTempPath(),
            }, layout);
            var spinning = new TargetDefinition("spinning", "test double", ".NET 10", "Kestrel", "MisbehavingService", "MisbehavingService.dll", HostRuntime.DotNet, null)
            {
                VariantArguments = new[] { "spin", "20" },
            };
            var kestrel = TargetCatalog.Find("kestrel")!;
            options = options with
            {
                Targets = new[] { new TargetPlan("kestrel", kestrel, null), new TargetPlan("kestrel-again", kestrel, null), new TargetPlan("spinning", spinning, null) },
                BaselineTarget = "kestrel",
            };
            _run = await new RunOrchestrator(options, DriverCatalog.Create(options.Drivers, null), new TargetLauncher(layout), new LineProgress(), Comparator.Comparing.PairVerdicts.Build).RunAsync(CancellationToken.None);
            return _run;
        }
        finally
        {
            Once.Release();
        }
    }

    [Fact]
    public async Task A_service_that_spins_twice_the_cpu_is_found_costlier_and_slower()
    {
        var run = await RunAsync();
        var rps = run.Judged().Single(v => v.Other == "spinning");
        var cpu = run.JudgedAtRate().Single(v => v.Other == "spinning" && v.Metric == CellVerdict.ServerCpu);

        // Each figure is the lead it must be, not settled within the budget (on 2 cores, with the test run's
        // own processes beside it, one figure's launches can spread too far), or not judged at all because a
        // flag set the pace (a fresh kestrel's pool can read starved in the closed loop, a fixed-rate cell
        // overloaded); never equivalent, never the other way. At least one of the two must find the gap.
        AssertLeadUnsettledOrNotJudged(rps, CellVerdict.Lower);
        AssertLeadUnsettledOrNotJudged(cpu, CellVerdict.Higher); // spinning/kestrel CPU above 1: kestrel is cheaper
        Assert.True(rps.Leader == "kestrel" || cpu.Leader == "kestrel", $"req/s: {rps.Reason}; cpu: {cpu.Reason}");
    }

    private static void AssertLeadUnsettledOrNotJudged(CellVerdict v, string outcome)
    {
        if (v.Outcome is null)
        {
            Assert.Null(v.RatioLow);
            Assert.Matches("^(starved|wait-bound|overloaded) on ", v.Reason);
            return;
        }
        if (v.Outcome == CellVerdict.Unsettled)
        {
            Assert.Null(v.Leader);
            return;
        }
        Assert.Equal(outcome, v.Outcome);
        Assert.Equal("kestrel", v.Leader);
    }

    [Fact]
    public async Task A_second_instance_of_the_same_service_claims_nothing()
    {
        var run = await RunAsync();
        var judged = run.Judged().Concat(run.JudgedAtRate()).Where(v => v.Other == "kestrel-again").ToList();

        Assert.NotEmpty(judged);
        Assert.All(judged, v => Assert.Null(v.Leader));
    }

    [Fact]
    public async Task The_run_records_how_launches_were_added_and_why_they_stopped()
    {
        var run = await RunAsync();
        var sequential = Assert.IsType<SequentialSpec>(run.Spec.Sequential);

        Assert.InRange(sequential.LaunchesRun, 1, 8);
        Assert.True(sequential.LoadSeconds <= sequential.BudgetSeconds, $"{sequential.LoadSeconds} s of load against a budget of {sequential.BudgetSeconds} s");
        Assert.False(string.IsNullOrEmpty(sequential.Stopped));
        Assert.Equal(sequential.LaunchesRun, run.Spec.Launches);
    }
}
