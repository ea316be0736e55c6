using System;
using System.Collections.Generic;
using System.Linq;
using Comparator.Comparing;
using Comparator.Reports;
using Comparator.Reports.Exporters;
using Comparator.Reports.Text;
using Comparator.Results;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The size model on injected simulated counts, where every figure is known: each target's fixed cost and cost per KB, the pair's parts as
/// the rule judges them, where the lines cross, and a size whose cost steps named by the linearity check. Launches move by ±0.3%.
/// </summary>
public sealed class SizeModelTests
{
    private static readonly long[] Sizes = { 500, 4096, 65536 };

    /// <summary>The simulated windows of one launch set: the cost at each size, each launch moved by a fixed ±0.3% pattern.</summary>
    private static IReadOnlyList<Measurement> Launches(double perRequest, int launches) =>
        Enumerable.Range(0, launches).Select(launch => Measurement.Of((Metrics.Requests, 400), (Metrics.Failed, 0), (Metrics.ElapsedSeconds, 1),
            (Metrics.SimulatedInstructionsPerRequest, perRequest * (1 + 0.003 * (launch % 3 - 1)))) with { Launch = launch, Round = 0 }).ToList();

    /// <summary>
    /// A run of kestrel (the baseline) and aspnetcore at echo-post, each cost given as a function of the size in KB, the second with an extra
    /// from <paramref name="stepAtKb"/> on (a cost that steps at a size).
    /// </summary>
    internal static RunResult Run(Func<double, double> kestrel, Func<double, double> aspnetcore, int launches = 3, double stepAtKb = double.MaxValue,
        double step = 0, IReadOnlyList<long>? sizes = null)
    {
        var cells = new List<CellResult>();
        foreach (var size in sizes ?? Sizes)
        {
            var kb = size / 1024.0;
            foreach (var (target, cost) in new[] { ("kestrel", kestrel(kb)), ("aspnetcore", aspnetcore(kb) + (kb >= stepAtKb ? step : 0)) })
                cells.Add(InjectedRun.Cell(target, "echo-post", (int)size, ResultsTests.Window(1000)) with
                {
                    SizeLabel = size >= 1024 ? $"{size / 1024}KB" : $"{size}B",
                    Simulated = Launches(cost, launches),
                });
        }
        return InjectedRun.Pair(VerdictTests.AspNetCore, VerdictTests.Kestrel, cells.ToArray());
    }

    [Fact]
    public void Each_stack_gets_its_fixed_cost_and_cost_per_kb_and_the_pair_crosses_where_the_lines_meet()
    {
        // kestrel 100k + 2k/KB, aspnetcore 150k + 1k/KB: aspnetcore costs 1.5x before the body, half per KB, and the lines meet at 50 KB.
        var set = SizeModelFit.Build(Run(kb => 100_000 + 2_000 * kb, kb => 150_000 + 1_000 * kb));

        var kestrel = Assert.Single(set.Models, m => m.Target == "kestrel");
        Assert.Equal(Metrics.SimulatedInstructionsPerRequest.Id, kestrel.Figure);
        Assert.Equal(100_000, kestrel.Fixed.Value, 0);
        Assert.Equal(2_000, kestrel.PerKb.Value, 0);
        Assert.True(kestrel.Fixed.Low < 100_000 && kestrel.Fixed.High > 100_000);
        Assert.Equal(3, kestrel.Launches.Count);
        Assert.True(kestrel.Holds);
        Assert.All(kestrel.Residuals, r => Assert.InRange(r.OffBy, -0.001, 0.001));
        Assert.Equal(new[] { "500B", "4KB", "64KB" }, kestrel.Points.Select(p => p.SizeLabel));

        var pair = Assert.Single(set.Comparisons);
        Assert.Equal(("kestrel", "aspnetcore"), (pair.Baseline, pair.Other));
        Assert.Equal(1.5, pair.Fixed.Ratio!.Value, 3);
        Assert.Equal(CellVerdict.Higher, pair.Fixed.Outcome);
        Assert.Equal("kestrel", pair.Fixed.Leader);
        Assert.Equal(0.5, pair.PerKb.Ratio!.Value, 3);
        Assert.Equal(CellVerdict.Lower, pair.PerKb.Outcome);
        Assert.Equal("aspnetcore", pair.PerKb.Leader);
        Assert.True(pair.Crossing.Within);
        Assert.Equal(50, pair.Crossing.AtKb!.Value, 1);
        Assert.StartsWith("the lines cross at 50 KB (99% interval ", pair.Crossing.Said);
        Assert.EndsWith("): aspnetcore costs less above it", pair.Crossing.Said);
    }

    [Fact]
    public void The_answer_says_the_pairs_parts_in_one_sentence_an_endpoint()
    {
        var run = Run(kb => 100_000 + 2_000 * kb, kb => 150_000 + 1_000 * kb);

        var sentence = Assert.Single(SizeModelText.Sentences(run, "aspnetcore", "kestrel"));

        Assert.StartsWith("In simulated instructions per request (user mode) at echo-post, aspnetcore costs 1.50x kestrel's fixed cost a request (interval ", sentence);
        Assert.Contains(" and 0.50x its cost per KB of body (interval ", sentence);
        Assert.Contains("; the lines cross at 50 KB", sentence);
        Assert.Contains(sentence, Answer.Sentences(run));
    }

    [Fact]
    public void Lines_the_same_before_the_body_are_not_said_to_cross_near_it_however_their_means_meet()
    {
        // The fixed parts 0.1% apart (the means meet at about 0.1 KB, a crossing that is only the launches' noise), 1.5x per KB.
        var pair = Assert.Single(SizeModelFit.Build(Run(kb => 100_000 + 2_000 * kb, kb => 100_100 + 3_000 * kb)).Comparisons);

        Assert.Equal(CellVerdict.Equivalent, pair.Fixed.Outcome);
        Assert.Null(pair.Crossing.AtKb);
        Assert.Equal("the lines start the same within the margin and part with size: kestrel costs less at 64 KB", pair.Crossing.Said);
    }

    [Fact]
    public void Lines_that_meet_only_past_the_largest_size_are_said_not_to_cross_within_the_sizes_measured()
    {
        // 100k + 2k/KB against 200k + 1k/KB: they would meet at 100 KB, past 64 KB.
        var pair = Assert.Single(SizeModelFit.Build(Run(kb => 100_000 + 2_000 * kb, kb => 200_000 + 1_000 * kb)).Comparisons);
        Assert.False(pair.Crossing.Within);
        Assert.Equal("the lines do not cross within the sizes measured (0 to 64 KB): kestrel costs less at every one; drawn on, they would meet at 100 KB, past the largest size measured",
            pair.Crossing.Said);

        // 1.3x at every size: parallel in the log, apart in the line; one side cheaper everywhere.
        var apart = Assert.Single(SizeModelFit.Build(Run(kb => 100_000 + 2_000 * kb, kb => 1.3 * (100_000 + 2_000 * kb))).Comparisons);
        Assert.Null(apart.Crossing.AtKb);
        Assert.Equal("the lines do not cross at any size: kestrel costs less at every size (0 to 64 KB measured)", apart.Crossing.Said);
    }

    [Fact]
    public void A_cost_that_steps_at_the_largest_size_is_named_off_the_line_and_the_other_sizes_are_not()
    {
        // aspnetcore 150k + 1k/KB, and 40k more from 32 KB on (a buffer that doubles): 64 KB lies 16% above the line through 500B and 4KB.
        var run = Run(kb => 100_000 + 2_000 * kb, kb => 150_000 + 1_000 * kb, stepAtKb: 32, step: 40_000);
        var set = SizeModelFit.Build(run);

        var stepped = Assert.Single(set.Models, m => m.Target == "aspnetcore");
        Assert.False(stepped.Holds);
        var off = Assert.Single(stepped.Residuals, r => r.OffTheLine);
        Assert.Equal("64KB", off.SizeLabel);
        Assert.True(off.OffBy > 0.15, $"{off.OffBy:P1}");
        Assert.True(Assert.Single(set.Models, m => m.Target == "kestrel").Holds);
        Assert.Null(Assert.Single(set.Models, m => m.Target == "kestrel").Pieces);
        // In pieces: the line through 500B and 4KB (150k + 1k a KB), and 4KB to 64KB at 1k + 40k / 60 KB = 1,667 a KB.
        Assert.Collection(stepped.Pieces!,
            line => { Assert.Equal(("500B", "4KB"), (line.FromLabel, line.ToLabel)); Assert.Equal(150_000, line.Fixed!.Value, 0); Assert.Equal(1_000, line.PerKb.Value, 0); },
            bend => { Assert.Equal(("4KB", "64KB"), (bend.FromLabel, bend.ToLabel)); Assert.Null(bend.Fixed); Assert.Equal(1_000 + 40_000 / 60.0, bend.PerKb.Value, 0); });
        Assert.Contains("off at 64KB (+", SizeModelText.Models(set)!.ToMarkdown());
        Assert.Matches(@"in pieces: 500B–4KB: 150k \([^)]*\) \+ 1000 \([^)]*\) a KB; 4KB–64KB: 1667 \([^)]*\) a KB", SizeModelText.Models(set)!.ToMarkdown());
        var sentence = Assert.Single(SizeModelText.Sentences(run, "aspnetcore", "kestrel"));
        Assert.Contains("The line is off at aspnetcore at 64KB (+", sentence);
        Assert.Contains(" (in pieces: 1000 a KB from 500B to 4KB, 1667 a KB from 4KB to 64KB): there the cost per KB changes with size.", sentence);
    }

    [Fact]
    public void A_cost_that_curves_is_given_as_segments_between_neighbouring_sizes()
    {
        // aspnetcore 100k + 2k a KB up to 16 KB and nothing more after (a streamed body past its buffer): no straight line holds; each of 500B,
        // 16KB and 64KB lies off the line through the other three (4KB happens to lie near the line through 500B, 16KB and 64KB).
        var run = Run(kb => 100_000 + 2_000 * kb, kb => 100_000 + 2_000 * Math.Min(kb, 16), sizes: new long[] { 500, 4096, 16384, 65536 });
        var curved = Assert.Single(SizeModelFit.Build(run).Models, m => m.Target == "aspnetcore");

        Assert.Equal(new[] { "500B", "16KB", "64KB" }, curved.Residuals.Where(r => r.OffTheLine).Select(r => r.SizeLabel));
        Assert.Collection(curved.Pieces!,
            first => { Assert.Equal(("500B", "4KB"), (first.FromLabel, first.ToLabel)); Assert.Equal(100_000, first.Fixed!.Value, 0); Assert.Equal(2_000, first.PerKb.Value, 0); },
            second => { Assert.Equal(("4KB", "16KB"), (second.FromLabel, second.ToLabel)); Assert.Null(second.Fixed); Assert.Equal(2_000, second.PerKb.Value, 0); },
            third => { Assert.Equal(("16KB", "64KB"), (third.FromLabel, third.ToLabel)); Assert.Equal(0, third.PerKb.Value, 0); });
        Assert.Contains(SizeModelChart(run), c => c.Name == "size-model-echo-post");
    }

    private static IReadOnlyList<Comparator.Reports.Plots.Chart> SizeModelChart(RunResult run) => new RunReport(run).Charts;

    [Fact]
    public void One_launch_fits_a_line_but_judges_nothing_and_two_sizes_fit_none()
    {
        var one = SizeModelFit.Build(Run(kb => 100_000 + 2_000 * kb, kb => 150_000 + 1_000 * kb, launches: 1));
        Assert.Equal(2, one.Models.Count);
        Assert.All(one.Models, m => Assert.Null(m.Fixed.Low));
        Assert.All(one.Models, m => Assert.True(m.Holds)); // nothing is off the line that no spread could tell
        var pair = Assert.Single(one.Comparisons);
        Assert.Null(pair.Fixed.Outcome);
        Assert.Equal(Comparator.Statistics.LeadRule.OneUnit, pair.Fixed.Reason);

        var two = SizeModelFit.Build(Run(kb => 100_000 + 2_000 * kb, kb => 150_000 + 1_000 * kb, sizes: new long[] { 500, 65536 }));
        Assert.Empty(two.Models);
        Assert.Empty(two.Comparisons);
    }

    [Fact]
    public void Results_json_carries_the_model_and_the_report_shows_its_tables_and_chart()
    {
        var run = Run(kb => 100_000 + 2_000 * kb, kb => 150_000 + 1_000 * kb);
        var report = new RunReport(run);

        var saved = ResultStore.Deserialize(new JsonReport().Render(report), "results.json");
        Assert.NotNull(saved.SizeModels);
        Assert.Equal(SizeModelFit.Build(run).Comparisons.Single().Fixed.Ratio, saved.SizeModels!.Comparisons.Single().Fixed.Ratio);
        Assert.Equal(2_000, saved.SizeModels.Models.Single(m => m.Target == "kestrel").PerKb.Value, 0);
        var markdown = new MarkdownReport().Render(report);
        Assert.Contains("Cost per request and per KB: each stack's line over the sizes", markdown);
        Assert.Contains("Cost per request and per KB: the pairs' parts judged", markdown);
        Assert.Contains(report.Charts, c => c.Name == "size-model-echo-post");
    }
}
