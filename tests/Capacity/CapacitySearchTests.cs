using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Capacity;
using Comparator.Measuring;
using Comparator.Results;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The capacity search on a simulated service with a known knee, and the objective's parsing. The
/// simulated service's p90 grows as a queue's does, base / (1 - rate / knee), so the highest rate
/// that holds p90 ≤ bound is known exactly: knee × (1 - base / bound).
/// </summary>
public sealed class CapacitySearchTests
{
    private static Func<double, CancellationToken, Task<CapacityStep>> Queue(double knee, double baseMs, LatencyObjective objective) =>
        (rate, _) =>
        {
            if (rate >= knee) return Task.FromResult(new CapacityStep(rate, "overloaded"));
            var p90 = baseMs / (1 - rate / knee);
            return Task.FromResult(new CapacityStep(rate, p90 <= objective.BoundMs ? null : $"p90 {p90:0.0} ms"));
        };

    [Theory]
    [InlineData(10_000, 2.0, 20.0, 1_000, 0.05)]
    [InlineData(10_000, 2.0, 20.0, 9_500, 0.05)] // a start above the capacity: the ramp goes down first
    [InlineData(800, 5.0, 6.0, 100, 0.05)]       // a bound close to the base: the knee far below the saturation
    [InlineData(55_000, 0.5, 20.0, 40_000, 0.02)]
    public async Task The_search_lands_within_its_precision_of_a_known_knee(double knee, double baseMs, double boundMs, double start, double precision)
    {
        var objective = new LatencyObjective(90, boundMs);
        var truth = knee * (1 - baseMs / boundMs);

        var found = await CapacitySearch.FindAsync(start, precision, floor: 1, ceiling: 1e6, Queue(knee, baseMs, objective), CancellationToken.None);

        Assert.NotNull(found.Held);
        Assert.NotNull(found.Broke);
        Assert.InRange(truth, found.Held!.Value, found.Broke!.Value);
        Assert.True(found.Broke.Value - found.Held.Value <= precision * found.Held.Value, $"{found.Held} to {found.Broke}");
        Assert.True(found.Steps.Count <= 24);
        Assert.Equal(found.Held, found.Steps.Where(s => s.Held).Max(s => s.Rate));
    }

    [Fact]
    public async Task An_objective_no_rate_meets_is_reported_as_failing_at_every_rate_down_to_the_floor()
    {
        // A service that stalls once a second: its p90 is over the bound whatever the rate.
        var found = await CapacitySearch.FindAsync(1000, 0.05, floor: 10, ceiling: 1e6,
            (rate, _) => Task.FromResult(new CapacityStep(rate, "p90 480 ms over 20 ms")), CancellationToken.None);

        Assert.Null(found.Held);
        Assert.Equal(10, found.Broke);
        Assert.Equal(new[] { 1000.0, 500, 250, 125, 62.5, 31.25, 15.625, 10 }, found.Steps.Select(s => s.Rate));
    }

    [Fact]
    public async Task A_service_that_holds_up_to_the_ceiling_has_no_broken_rate()
    {
        var found = await CapacitySearch.FindAsync(100, 0.05, floor: 1, ceiling: 1000,
            (rate, _) => Task.FromResult(new CapacityStep(rate, null)), CancellationToken.None);

        Assert.Equal(1000, found.Held);
        Assert.Null(found.Broke);
    }

    [Theory]
    [InlineData("p90<=20ms", 90, 20)]
    [InlineData("p99.9<=1s", 99.9, 1000)]
    [InlineData("P50 <= 500us", 50, 0.5)]
    public void An_objective_reads_its_percentile_and_bound(string raw, double percentile, double boundMs)
    {
        var o = LatencyObjective.Parse(raw).Value;
        Assert.Equal(percentile, o.Percentile);
        Assert.Equal(boundMs, o.BoundMs, 9);
    }

    [Theory]
    [InlineData("p101<=5ms", "percentile is above 0 and under 100")]
    [InlineData("p90<=-1ms", "bound is a positive time")]
    [InlineData("p90<=20", "such as p90<=20ms")]
    [InlineData("p90<20ms", "such as p90<=20ms")]
    [InlineData("p0<=20ms", "percentile is above 0 and under 100")]
    public void A_bad_objective_is_one_usage_line(string raw, string expected)
    {
        var error = LatencyObjective.Parse(raw).Error;
        Assert.StartsWith("capacity: --objective", error);
        Assert.Contains(expected, error);
    }
}

/// <summary>The capacity's summary over launches, the cores a rate takes, and the verdict between targets, on made-up searches.</summary>
public sealed class CapacitySummaryTests
{
    private static CapacitySearchRecord Search(int launch, double held, double cpuSecondsPerWindow = 0.5)
    {
        // Steps at half, three quarters and all of the capacity held; 5% above it broke. One-second windows.
        Comparator.Results.CapacityStepRecord Step(double rate, string? failure) =>
            new(rate, failure, new double?[] { 10 }, ResultsTests.Window(rate, clientCpu: 0.3, serverCpu: cpuSecondsPerWindow * rate / held));
        var steps = new[] { Step(held / 2, null), Step(held * 0.75, null), Step(held, null), Step(held * 1.05, "p90 31 ms over 20 ms") };
        return new CapacitySearchRecord(launch, held * 2, steps, held, held * 1.05, 1, held * 3);
    }

    [Fact]
    public void The_capacity_is_the_launches_geometric_mean_with_its_interval_and_the_cores_of_a_rate_come_from_the_nearest_step()
    {
        var launches = new[] { Search(0, 1000), Search(1, 1100), Search(2, 900) };

        var s = CapacityAssembly.Summarize(launches, Comparator.Statistics.LeadRule.Default, atRate: 550)!;

        Assert.Equal(Math.Exp((Math.Log(1000) + Math.Log(1100) + Math.Log(900)) / 3), s.Capacity!.Value, 6);
        Assert.True(s.Low < 900 && s.High > 1100);
        Assert.Equal(3, s.Launches);
        Assert.Equal(500, s.ServerCpuUsPerRequest!.Value, 6); // the median launch (1000): 0.5 s of CPU for 1000 requests
        // 550 req/s is nearest the 500, 550 and 450 req/s steps of the three launches: 0.25 s for 500 requests, 500 µs each.
        Assert.Equal(550 * 500 / 1e6, s.CoresAtRate!.Value, 6);
    }

    [Fact]
    public void A_target_whose_capacity_is_twice_the_baselines_in_every_launch_leads_and_one_that_holds_nothing_is_named()
    {
        CellKey Key(string target) => new(target, "time", 0, 100, "socket", null, "shared");
        CapacityCell Cell(string target, params double[] held)
        {
            var launches = held.Select((h, i) => h > 0 ? Search(i, h) : new CapacitySearchRecord(i, 1000, new[]
                { new Comparator.Results.CapacityStepRecord(500, "p90 800 ms over 20 ms", new double?[] { 800 }, ResultsTests.Window(500)) }, null, 1, 1, 1500)).ToList();
            return new CapacityCell(Key(target), launches, CapacityAssembly.Summarize(launches, Comparator.Statistics.LeadRule.Default, null));
        }
        var cells = new[] { Cell("old", 1000, 1050, 980, 1020), Cell("new", 2010, 2100, 1950, 2060), Cell("twin", 990, 1060, 1000, 1010), Cell("stalls", 0, 0, 0, 0) };

        var verdicts = Comparator.Comparing.CapacityVerdicts.Build(cells, "old", Comparator.Statistics.LeadRule.Default, new[] { "p90<=20ms" });

        var faster = Assert.Single(verdicts, v => v.Other == "new");
        Assert.Equal("new", faster.Leader);
        Assert.InRange(faster.Ratio!.Value, 1.9, 2.1);
        Assert.Null(Assert.Single(verdicts, v => v.Other == "twin").Leader);
        var stalls = Assert.Single(verdicts, v => v.Other == "stalls");
        Assert.Null(stalls.Leader);
        Assert.Equal("p90<=20ms breaks at every rate tried on stalls while old holds it up to 1012 req/s", stalls.Reason);
    }
}
