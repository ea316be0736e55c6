using System;
using System.Collections.Generic;
using System.Linq;
using Comparator.Cli;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;
using Xunit;
using Comparator.Statistics;

namespace Comparator.Tests;

/// <summary>The precision rule: how many repeats a cell gets, and when it is noisy. No load involved.</summary>
public sealed class PrecisionTests
{
    private static readonly RepeatRule Default = new(RepeatRule.DefaultMinRepeat, RepeatRule.DefaultMaxRepeat, RepeatRule.DefaultPrecision);

    private static IReadOnlyList<IReadOnlyList<double>> Targets(params double[][] rps) => rps.Select(r => (IReadOnlyList<double>)r).ToList();

    [Fact]
    public void Steady_targets_stop_at_the_minimum_of_three_repeats()
    {
        Assert.True(Default.AnotherRound(Targets(new double[0], new double[0])));
        Assert.True(Default.AnotherRound(Targets(new[] { 1000.0, 1000 }, new[] { 500.0, 500 })));
        Assert.False(Default.AnotherRound(Targets(new[] { 1000.0, 1010, 990 }, new[] { 500.0, 505, 498 })));
    }

    [Fact]
    public void One_noisy_target_keeps_the_rounds_going_until_the_cap_and_is_then_flagged_noisy_with_its_cv()
    {
        var steady = new List<double> { 1000, 1010, 990 };
        var noisy = new List<double> { 500, 700, 400 };
        var rounds = 3;
        while (Default.AnotherRound(Targets(steady.ToArray(), noisy.ToArray())))
        {
            steady.Add(1000);
            noisy.Add(rounds % 2 == 0 ? 400 : 700);
            rounds++;
        }
        Assert.Equal(RepeatRule.DefaultMaxRepeat, rounds);
        Assert.False(Default.Missed(steady));
        Assert.True(Default.Missed(noisy));

        var windows = noisy.Select(r => ResultsTests.Window(r)).ToList();
        Assert.Contains(CellFlags.Noisy, CellFlags.For(windows, 100, 2, Default.Precision));
        Assert.DoesNotContain(CellFlags.Noisy, CellFlags.For(steady.Select(r => ResultsTests.Window(r)).ToList(), 100, 2, Default.Precision));
        Assert.True(Comparator.Statistics.Spread.CoefficientOfVariation(noisy) > 0.05);
    }

    [Fact]
    public void A_target_that_settles_before_the_cap_ends_the_cell_there()
    {
        // One low repeat: 12% over three repeats asks for a fourth; a fourth alike brings it to 2.5%, and the cell ends there.
        Assert.True(Default.AnotherRound(Targets(new[] { 800.0, 1000, 1000 })));
        Assert.False(Default.AnotherRound(Targets(new[] { 950.0, 1000, 1000, 1000 })));
    }

    [Fact]
    public void A_fixed_repeat_count_never_asks_for_more_or_fewer()
    {
        var fixedThree = new RepeatRule(3, 3, 0.05);
        Assert.False(fixedThree.Adaptive);
        Assert.True(fixedThree.AnotherRound(Targets(new[] { 1.0, 100 })));
        Assert.False(fixedThree.AnotherRound(Targets(new[] { 1.0, 100, 1 })));
    }

    private static RunOptions Parse(params string[] args) => RunOptionsParser.Parse(args, BuildLayout.Discover());

    [Fact]
    public void The_parser_maps_precision_max_repeat_repeat_and_quick_to_a_rule()
    {
        // By default one round per launch: launches, not rounds, are the evidence (see LeadRule).
        Assert.Equal(new RepeatRule(1, 1, 0.05), Parse().Window.Rounds);
        Assert.Equal(new RepeatRule(1, 1, 0.025), Parse("--precision", "2.5%").Window.Rounds);
        Assert.Equal(new RepeatRule(1, 1, 0.1), Parse("--precision", "10").Window.Rounds);
        Assert.Equal(new RepeatRule(3, 10, 0.05), Parse("--max-repeat", "10").Window.Rounds);
        Assert.Equal(new RepeatRule(2, 2, 0.05), Parse("--max-repeat", "2").Window.Rounds);
        Assert.Equal(new RepeatRule(4, 4, 0.05), Parse("--repeat", "4").Window.Rounds);
        Assert.Equal(new RepeatRule(1, 1, 0.05), Parse("--quick").Window.Rounds);
        Assert.Equal(new RepeatRule(3, 8, 0.05), Parse("--quick", "--max-repeat", "8").Window.Rounds);
    }

    [Fact]
    public void The_parser_maps_launches_confidence_and_min_effect_to_the_lead_rule()
    {
        var defaults = Parse();
        // The horizon is what the budget buys of every cell, at least the first look and at most --max-launches.
        var bought = (int)Math.Floor(defaults.Judging.BudgetSeconds / defaults.LaunchLoadSeconds(defaults.CellsPerLaunch));
        var horizon = Math.Clamp(bought, Statistics.SequentialDesign.DefaultFirstLook, Statistics.SequentialDesign.DefaultMaxLaunches);
        Assert.Equal(horizon, defaults.Judging.Launches);
        Assert.Equal(Statistics.LeadRule.Default with { Design = new Statistics.SequentialDesign(Statistics.SequentialDesign.DefaultFirstLook, horizon) }, defaults.Judging.Rule);
        Assert.Equal(OptionValues.Duration("--budget", RunOptionsParser.DefaultBudget, false), defaults.Judging.Budget);
        Assert.Null(Parse("--launches", "6").Judging.Rule.Design);
        Assert.Equal(new Statistics.SequentialDesign(Statistics.SequentialDesign.DefaultFirstLook, 10), Parse("--max-launches", "10", "--budget", "60m").Judging.Rule.Design);
        Assert.Equal(Statistics.SequentialDesign.DefaultFirstLook, Parse("--budget", "10s").Judging.Rule.Design!.MaxLaunches);
        Assert.Equal(0.1, Parse("--equivalence", "10%").Judging.Rule.Equivalence, 9);
        Assert.Equal(1, Parse("--quick").Judging.Launches);
        Assert.Equal(3, Parse("--quick", "--launches", "3").Judging.Launches);
        Assert.Equal(new Statistics.LeadRule(0.95, 0.05), Parse("--confidence", "95%", "--min-effect", "5", "--launches", "6").Judging.Rule);
        Assert.Equal(0.0, Parse("--min-effect", "0%").Judging.Rule.MinEffect);
    }

    [Theory]
    [InlineData("run: --launches takes a whole number from 1 to 50, not '0'", "--launches", "0")]
    [InlineData("run: --launches takes a whole number from 1 to 50, not '51'", "--launches", "51")]
    [InlineData("run: --confidence takes a percentage above 50 to 99.99 such as 99%, not '50'", "--confidence", "50")]
    [InlineData("run: --confidence takes a percentage above 50 to 99.99 such as 99%, not '100%'", "--confidence", "100%")]
    [InlineData("run: --min-effect takes a percentage from 0 to 50 such as 3%, not '-1'", "--min-effect", "-1")]
    [InlineData("run: --min-effect takes a percentage from 0 to 50 such as 3%, not 'big'", "--min-effect", "big")]
    public void Bad_launches_confidence_or_min_effect_is_one_line(string message, params string[] args)
    {
        var e = Assert.Throws<UsageException>(() => Parse(args));
        Assert.Equal(message, e.Message);
    }

    [Fact]
    public void The_cold_first_cell_gets_its_own_warm_up_unless_warmup_is_given_alone()
    {
        var defaults = Parse();
        Assert.True(defaults.Window.ColdWarmup >= defaults.Window.Warmup);
        var explicitWarmup = Parse("--warmup", "0");
        Assert.Equal(TimeSpan.Zero, explicitWarmup.Window.ColdWarmup);
        Assert.Equal(TimeSpan.FromSeconds(7), Parse("--warmup", "0", "--first-warmup", "7s").Window.ColdWarmup);
    }

    [Theory]
    [InlineData("--precision", "0")]
    [InlineData("--precision", "-5%")]
    [InlineData("--precision", "101%")]
    [InlineData("--precision", "5%%")]
    [InlineData("--max-repeat", "0")]
    [InlineData("--max-repeat", "101")]
    public void Bad_precision_and_max_repeat_values_are_one_line_usage_errors(string option, string value)
    {
        var e = Assert.Throws<UsageException>(() => Parse(option, value));
        Assert.StartsWith("run: " + option, e.Message);
        Assert.DoesNotContain('\n', e.Message);
    }

    [Theory]
    [InlineData("5%", 0.05)]
    [InlineData("5", 0.05)]
    [InlineData(" 2.5 % ", 0.025)]
    [InlineData("0.5%", 0.005)]
    [InlineData("1", 0.01)]
    [InlineData("20", 0.2)]
    public void Every_percent_option_reads_a_number_as_a_percentage_with_or_without_its_sign(string raw, double fraction)
    {
        Assert.Equal(fraction, Parse("--precision", raw).Window.Rounds.Precision, 12);
        Assert.Equal(fraction, Parse("--threshold", raw).Judging.Threshold!.Value, 12);
        Assert.Equal(fraction, Parse("--min-effect", raw).Judging.Rule.MinEffect, 12);
        Assert.Equal(fraction, Parse("--equivalence", raw).Judging.Rule.Equivalence, 12);
        Assert.Equal(fraction, Assert.Single(RunOptionsParser.Rates(raw.Contains('%') ? raw : raw + "%", quick: false)).ShareOfCapacity!.Value, 12);
        Assert.Equal(fraction, OptionValues.Percent("diff", "--threshold", raw, 0, 100), 12);
        Assert.Equal(fraction, OptionValues.Percent("simulate", "--spread", raw, 0, 50), 12);
    }

    [Theory]
    [InlineData("run: --threshold 0.05 is ambiguous (a fraction or a percentage?): write 5% or 0.05%", "--threshold", "0.05")]
    [InlineData("run: --precision 0.5 is ambiguous (a fraction or a percentage?): write 50% or 0.5%", "--precision", "0.5")]
    [InlineData("run: --min-effect .03 is ambiguous (a fraction or a percentage?): write 3% or 0.03%", "--min-effect", ".03")]
    [InlineData("run: --equivalence 0.07 is ambiguous (a fraction or a percentage?): write 7% or 0.07%", "--equivalence", "0.07")]
    public void A_bare_number_below_one_is_refused_as_ambiguous_in_one_line(string message, string option, string value)
    {
        Assert.Equal(message, Assert.Throws<UsageException>(() => Parse(option, value)).Message);
        Assert.Equal(message.Replace("run:", "diff:"), Assert.Throws<UsageException>(() => OptionValues.Percent("diff", option, value, 0, 100)).Message);
    }

    [Fact]
    public void Old_results_without_a_cv_read_back_with_none()
    {
        var cell = new CellResult(new CellKey("a", "time", 0, 1, "builtin"), "net10", "-", true, Array.Empty<Measurement>(), null, null, null, 0, 0,
            Array.Empty<string>(), "x");
        Assert.Null(cell.RpsCv);
    }
}
