using System;
using System.Collections.Generic;
using System.Linq;
using Comparator.Statistics;
using Xunit;
using Xunit.Abstractions;

namespace Comparator.Tests;

/// <summary>
/// The rule with launches added until a cell settles, on simulated cells (fixed seeds): what it claims
/// between identical services, at the equivalence margin, and how often an A/A cell ends equivalent
/// within the default budget. These are the rates the reports state.
/// </summary>
public sealed class SequentialRuleTests
{
    private readonly ITestOutputHelper _output;

    public SequentialRuleTests(ITestOutputHelper output) => _output = output;

    private static readonly LeadRule Sequential = LeadRule.Default with { Design = SequentialDesign.Default };

    private SimulatedRates Simulate(double ratio, double spread, int seed, int? budget = null, int cells = 10_000)
    {
        var r = RuleSimulation.Run(Sequential, ratio, spread, cells, seed, budget);
        _output.WriteLine($"ratio {ratio} spread {spread}: higher {r.Higher}, lower {r.Lower}, equivalent {r.Equivalent}, unsettled {r.Unsettled}, mean launches {r.MeanLaunches:0.0}");
        return r;
    }

    [Theory]
    [InlineData(0.02, 11)]
    [InlineData(0.08, 12)]
    [InlineData(0.15, 13)]
    public void Identical_services_are_called_faster_or_slower_in_at_most_half_a_percent_of_cells_each_way(double spread, int seed)
    {
        var r = Simulate(1.0, spread, seed);

        Assert.True(r.Share(r.Higher) <= 0.005, $"higher {r.Share(r.Higher):P2}");
        Assert.True(r.Share(r.Lower) <= 0.005, $"lower {r.Share(r.Lower):P2}");
    }

    [Theory]
    [InlineData(1.05, 0.02, 21)]
    [InlineData(1.05, 0.04, 22)]
    [InlineData(1.05, 0.08, 23)]
    [InlineData(1 / 1.05, 0.04, 24)]
    public void A_ratio_at_the_margin_is_called_equivalent_at_most_five_percent_of_the_time(double ratio, double spread, int seed)
    {
        // 40,000 cells: the simulated share's own standard error (0.11%) stays well under the margin to 5%.
        var r = Simulate(ratio, spread, seed, cells: 40_000);

        Assert.True(r.Share(r.Equivalent) <= 0.05, $"equivalent {r.Share(r.Equivalent):P2}");
    }

    [Fact]
    public void At_a_spread_of_four_percent_nine_in_ten_identical_cells_end_equivalent_by_the_horizon()
    {
        var r = Simulate(1.0, 0.04, 31);

        Assert.True(r.Share(r.Equivalent) >= 0.90, $"equivalent {r.Share(r.Equivalent):P2} by {SequentialDesign.DefaultMaxLaunches} launches");
    }

    /// <summary>
    /// The default run as the launch loop spends it: its judged cells (every closed-loop cell and every
    /// fixed-rate cell), each launch costing the load of the cells still measured, within the default
    /// budget. Printed, with the share that ends equivalent, for the method's table; asserted only to
    /// claim no lead between identical services.
    /// </summary>
    [Theory]
    [InlineData(0.02)]
    [InlineData(0.04)]
    [InlineData(0.08)]
    public void The_default_budget_on_the_default_run_claims_no_lead_between_identical_services(double spread)
    {
        var options = Comparator.Cli.RunOptionsParser.Parse(Array.Empty<string>(), Comparator.Targets.BuildLayout.Discover());
        var judged = options.Cells.PerTarget;
        var r = RuleSimulation.RunBudgeted(options.Judging.Rule, 1.0, spread, judged, runs: 500, seed: 51,
            open => options.LaunchLoadSeconds(open * options.Targets.Plans.Count), options.Judging.BudgetSeconds);
        _output.WriteLine($"default run ({judged} judged cells, budget {options.Judging.BudgetSeconds:0} s), spread {spread:P0}: " +
                          $"equivalent {r.Share(r.Equivalent):P1}, not settled {r.Share(r.Unsettled):P1}, leads {r.Higher + r.Lower}, mean launches {r.MeanLaunches:0.0}");

        Assert.True(r.Share(r.Higher) <= 0.005 && r.Share(r.Lower) <= 0.005, $"higher {r.Higher}, lower {r.Lower}");
    }

    [Fact]
    public void A_true_gap_of_twenty_percent_is_found_in_almost_every_cell()
    {
        var r = Simulate(1.2, 0.08, 41);

        Assert.True(r.Share(r.Higher) >= 0.95, $"higher {r.Share(r.Higher):P2}");
        Assert.Equal(0, r.Lower);
    }

    /// <summary>
    /// What KnownGapTests cannot assert on real processes, where settling depends on how far this machine's
    /// launches spread: that the rule settles a twofold gap in server CPU per request (the spinning twin against
    /// kestrel) as kestrel's lead within that run's launches and budget. Injected per-launch figures, judged
    /// look by look as the launch loop judges them (PairVerdicts.Decide): kestrel's own figure moves 10%
    /// from launch to launch, and the ratio 2x moves by <paramref name="spread"/> (fixed deviates, SD 1).
    /// </summary>
    [Theory]
    [InlineData(0.10, 4)]
    [InlineData(0.20, 5)]
    public void A_twofold_cpu_gap_with_launches_ten_to_twenty_percent_apart_settles_as_the_cheaper_twins_lead(double spread, int settledAt)
    {
        double[] own = { -0.5, 0.8, 0.1, -1.2, 0.9, -0.3, 1.0, -0.6 }, gap = { 0.6, -1.3, 1.1, -0.4, -0.9, 1.4, -0.2, 0.7 };
        var options = KnownGapTests.Options();
        var rule = options.Judging.Rule;
        var key = new Comparator.Results.CellKey("kestrel", "time", 0, 100, "socket", Rate: 2000);
        Comparator.Results.CellResult Cell(string target, IEnumerable<double> cpuUs)
        {
            var repeats = cpuUs.Select((us, launch) => ResultsTests.Window(2000, serverCpu: us * 2000 / 1e6) with { Launch = launch, Round = 0 }).ToList();
            return new(key with { Target = target }, ".NET 10", "", true, repeats, Comparator.Running.CellMeasurer.MedianRepeat(repeats), 2000, 2000, 0, 0,
                Array.Empty<string>(), null);
        }

        Comparator.Results.CellVerdict? settled = null;
        var launches = 0;
        while (settled is null && launches < options.Judging.Launches)
        {
            launches++;
            var kestrel = own.Take(launches).Select(w => 40 * Math.Exp(0.10 * w)).ToList();
            var spinning = kestrel.Select((us, l) => us * 2 * Math.Exp(spread * gap[l])).ToList();
            var verdict = Comparator.Comparing.PairVerdicts.Decide(rule, Comparator.Results.Metrics.ServerCpuUsPerRequest, "kestrel", Cell("kestrel", kestrel),
                Cell("spinning", spinning));
            _output.WriteLine($"{launches} launch(es): {verdict.Outcome ?? verdict.Reason} {verdict.Ratio:0.00}x ({verdict.RatioLow:0.00}x–{verdict.RatioHigh:0.00}x)");
            if (verdict.Settled) settled = verdict;
        }

        Assert.NotNull(settled);
        Assert.Equal(Comparator.Results.CellVerdict.Higher, settled.Outcome); // spinning/kestrel above 1: kestrel is cheaper
        Assert.Equal("kestrel", settled.Leader);
        Assert.Equal(settledAt, launches);
        Assert.True(launches * options.LaunchLoadSeconds(options.CellsPerLaunch) <= options.Judging.BudgetSeconds,
            $"{launches} launches of {options.LaunchLoadSeconds(options.CellsPerLaunch):0.0} s of load against a budget of {options.Judging.BudgetSeconds:0} s");
    }

    [Fact]
    public void A_cell_below_the_first_look_claims_nothing()
    {
        var logs = new[] { 0.5, 0.52, 0.51 }; // a huge, steady gap over three launches
        var interval = Sequential.Interval(logs, out _)!;

        Assert.True(interval.Low > 1.5, "the interval shows the gap");
        Assert.Equal(Outcome.Unsettled, Sequential.Decide(interval)); // but three launches are below the first look: no claim
    }

    [Fact]
    public void The_boundaries_fall_with_launches_and_stay_above_the_fixed_sample_quantile()
    {
        var design = SequentialDesign.Default;
        var alpha = LeadRule.EquivalenceAlpha;
        var boundaries = Enumerable.Range(design.FirstLook, design.MaxLaunches - design.FirstLook + 1).Select(n => design.Boundary(alpha, n)).ToList();
        _output.WriteLine(string.Join(", ", boundaries.Select(b => b.ToString("0.000"))));

        Assert.True(boundaries[^1] < boundaries[0], $"last {boundaries[^1]} against first {boundaries[0]}");
        var fixedQuantile = new Perfolizer.Mathematics.Distributions.ContinuousDistributions.StudentDistribution(design.MaxLaunches - 1).Quantile(1 - alpha);
        Assert.True(boundaries[^1] > fixedQuantile, $"last boundary {boundaries[^1]} against the fixed-sample {fixedQuantile}");
    }

    [Fact]
    public void The_same_design_gives_the_same_boundaries()
    {
        var a = new SequentialDesign(4, 12).Boundary(0.005, 9);
        var b = new SequentialDesign(4, 12).Boundary(0.005, 9);

        Assert.Equal(a, b);
    }
}
