using System;
using System.Linq;
using Comparator.Statistics;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The windowed t-test on injected series (a fixed seed: the same figures on every machine): twelve runs whose figure steps up by
/// a fifth at the seventh have one change, between the sixth and the seventh; twelve runs of one figure with the noise this
/// machine shows between launches (8% SD) have none; a step smaller than the minimum change is not raised, however sure.
/// </summary>
public sealed class ChangePointTests
{
    /// <summary>Twelve figures around 100 with a log-normal spread, multiplied by <paramref name="step"/> from run 7 (index 6) on.</summary>
    private static double[] Series(int seed, double sd, double step) =>
        Enumerable.Range(0, 12).Select(i => 100 * Math.Exp(sd * Normal(new Random(seed * 100 + i))) * (i >= 6 ? step : 1)).ToArray();

    private static double Normal(Random r) => Math.Sqrt(-2 * Math.Log(1 - r.NextDouble())) * Math.Cos(2 * Math.PI * r.NextDouble());

    [Fact]
    public void A_step_at_the_seventh_run_is_one_change_between_the_sixth_and_the_seventh()
    {
        // Instructions per request: a 2% spread (measured by hand on the Mono pair), a 20% step.
        for (var seed = 1; seed <= 20; seed++)
        {
            var change = Assert.Single(ChangePoints.Find(Series(seed, 0.02, 1.2)));
            Assert.Equal(6, change.Index);
            Assert.InRange(change.Change, 0.1, 0.3);
        }
    }

    [Fact]
    public void Twelve_runs_of_one_figure_have_no_change_at_the_spread_this_machine_shows()
    {
        for (var seed = 1; seed <= 50; seed++)
            Assert.Empty(ChangePoints.Find(Series(seed, 0.08, 1.0)));
    }

    [Fact]
    public void A_step_smaller_than_the_minimum_change_is_not_raised_however_sure()
    {
        var series = Enumerable.Range(0, 12).Select(i => i >= 6 ? 102.0 : 100.0).ToArray();

        Assert.Empty(ChangePoints.Find(series));
        Assert.Single(ChangePoints.Find(series, ChangePointRule.Default with { MinChange = 0.01 }));
    }

    [Fact]
    public void A_series_too_short_for_a_side_of_three_has_no_change_and_a_figure_that_is_not_positive_is_refused()
    {
        Assert.Empty(ChangePoints.Find(new[] { 100.0, 100, 200, 200, 200 }));
        Assert.Throws<ArgumentException>(() => ChangePoints.Find(new[] { 100.0, 0, 100 }));
    }
}
