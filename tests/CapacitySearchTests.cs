using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Capacity;
using Comparator.Cli;
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
        var o = LatencyObjective.Parse(raw);
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
        var e = Assert.Throws<UsageException>(() => LatencyObjective.Parse(raw));
        Assert.StartsWith("capacity: --objective", e.Message);
        Assert.Contains(expected, e.Message);
    }
}
