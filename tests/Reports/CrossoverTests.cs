using System.Collections.Generic;
using System.Linq;
using Comparator.Reports;
using Comparator.Results;
using Xunit;
using Comparator.Reports.Text;

namespace Comparator.Tests;

/// <summary>Who leads as the payload grows, from constructed runs: a lead beyond noise, noise, a change of hands.</summary>
public sealed class CrossoverTests
{
    /// <summary>A run of two targets on echo-post; each size gives both targets' repeats (requests/s).</summary>
    private static RunResult Run(params (long Size, double[] Baseline, double[] Other)[] sizes)
    {
        var sample = ResultsTests.Sample();
        var template = sample.Cells[0];
        var cells = new List<CellResult>();
        foreach (var (size, baseline, other) in sizes)
        {
            foreach (var (target, rates) in new[] { ("webapi-selfhost", baseline), ("wcf-classic", other) })
            {
                var repeats = rates.Select(r => ResultsTests.Window(r)).ToList();
                cells.Add(template with
                {
                    Key = template.Key with { Target = target, SizeBytes = size },
                    SizeLabel = Contracts.PayloadCatalogue.SizeLabel(size),
                    Repeats = repeats,
                    Summary = repeats[0],
                });
            }
        }
        return sample with { Spec = sample.Spec with { BaselineTarget = "webapi-selfhost" }, Cells = cells };
    }

    [Fact]
    public void The_crossovers_read_the_runs_stored_verdicts_and_judge_nothing_themselves()
    {
        var run = Run((500, new[] { 10.0, 11, 12 }, new[] { 20.0, 21, 22 }), (4096, new[] { 9.0, 9.5, 9.8 }, new[] { 15.0, 16, 17 }));
        var judged = Comparing.PairVerdicts.Build(run);
        Assert.All(judged, v => Assert.Equal("wcf-classic", v.Leader));

        // Whatever the figures, a stored verdict of "not settled" at 4KB is what the curve says.
        var stored = run with { Verdicts = judged.Select(v => v.SizeBytes == 4096 ? v with { Leader = null, Reason = "not settled", Outcome = Results.CellVerdict.Unsettled } : v).ToList() };

        Assert.Equal("echo-post: wcf-classic leads at 500B, not settled at 4KB", Assert.Single(Crossovers.Find(stored)).Sentence());
    }

    [Fact]
    public void The_lead_changing_hands_across_sizes_is_one_sentence_with_the_ranges()
    {
        var run = Run(
            (64, new[] { 200.0, 210, 205 }, new[] { 150.0, 160, 155 }),
            (1024, new[] { 190.0, 195, 200 }, new[] { 150.0, 155, 160 }),
            (16384, new[] { 100.0, 120, 110 }, new[] { 105.0, 115, 112 }),
            (65536, new[] { 50.0, 52, 51 }, new[] { 60.0, 62, 61 }),
            (262144, new[] { 20.0, 21, 22 }, new[] { 30.0, 31, 32 }));

        var crossover = Assert.Single(Crossovers.Find(run));

        Assert.Equal("echo-post: webapi-selfhost leads up to 1KB, not settled at 16KB, wcf-classic leads from 64KB", crossover.Sentence());
        Assert.True(crossover.LeadChangesHands);
        Assert.Equal(new long[] { 16384, 65536 }, crossover.Changes.Select(c => c.SizeBytes));
    }

    [Fact]
    public void A_lead_at_every_size_says_so_and_is_no_change_of_hands()
    {
        var run = Run((500, new[] { 10.0, 11, 12 }, new[] { 20.0, 21, 22 }), (4096, new[] { 9.0, 9.5, 9.8 }, new[] { 15.0, 16, 17 }));

        var crossover = Assert.Single(Crossovers.Find(run));

        Assert.Equal("echo-post: wcf-classic leads at every size (500B to 4KB)", crossover.Sentence());
        Assert.False(crossover.LeadChangesHands);
        Assert.Empty(crossover.Changes);
    }

    [Fact]
    public void One_size_is_no_curve_and_a_failed_cell_is_no_verdict()
    {
        Assert.Empty(Crossovers.Find(Run((500, new[] { 10.0 }, new[] { 20.0 }))));

        var run = Run((500, new[] { 10.0, 11, 12 }, new[] { 20.0, 21, 22 }), (4096, new[] { 9.0, 9.5, 9.8 }, new[] { 15.0, 16, 17 }));
        run = run with { Cells = run.Cells.Select(c => c.Key.SizeBytes == 4096 && c.Key.Target == "wcf-classic" ? c with { FailedTotal = 3 } : c).ToList() };
        var crossover = Assert.Single(Crossovers.Find(run));
        Assert.False(crossover.Sizes.Single(v => v.SizeBytes == 4096).Measured);
        Assert.Equal("echo-post: wcf-classic leads at 500B, the only size measured on both", crossover.Sentence());
    }

    [Fact]
    public void The_size_sweep_is_64B_to_4MB_in_x4_steps_and_mixes_with_other_sizes()
    {
        Assert.Equal("500,64,256,1024,4096,16384,65536,262144,1048576,4194304", Cli.OptionValues.ExpandSweep("500,sweep"));
        Assert.Equal("4KB", Cli.OptionValues.ExpandSweep("4KB"));
    }
}
