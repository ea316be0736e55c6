using System;
using System.Linq;
using Comparator.Cli;
using Comparator.Comparing;
using Comparator.Reports.Exporters;
using Comparator.Results;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The size models' parts gate in `diff` and in a history like any judged figure, on injected simulated counts (<see cref="SizeModelTests.Run"/>):
/// a cost per KB 10% higher fails the gate even where no size's own figure moved past the threshold.
/// </summary>
public sealed class SizeModelDiffTests
{
    [Fact]
    public void A_cost_per_kb_grown_past_the_threshold_is_a_regression_though_no_sizes_figure_moved_past_it()
    {
        // kestrel: 100k + 2k/KB, then 94k + 2.2k/KB: 500B -5.8%, 4KB -4.8%, 64KB +3.0%; against a 5% threshold no cell regressed.
        var before = SizeModelTests.Run(kb => 100_000 + 2_000 * kb, kb => 150_000 + 1_000 * kb);
        var after = SizeModelTests.Run(kb => 94_000 + 2_200 * kb, kb => 150_000 + 1_000 * kb);

        var diff = RunDiff.BetweenRuns(before, after, 0.05, "base", "new");

        Assert.DoesNotContain(diff.Cells, c => c.Verdict == RunDiff.Regression);
        var kestrel = Assert.Single(diff.Models, m => m.Label.StartsWith("kestrel echo-post"));
        Assert.True(kestrel.PerKb.IsRegression);
        Assert.Equal(0.10, kestrel.PerKb.Change!.Value, 3);
        Assert.True(kestrel.Fixed.IsImprovement);
        var aspnetcore = Assert.Single(diff.Models, m => m.Label.StartsWith("aspnetcore echo-post"));
        Assert.True(aspnetcore.Fixed.IsEquivalent && aspnetcore.PerKb.IsEquivalent);
        Assert.True(diff.HasRegression);
        Assert.Equal(1, DiffCommand.ExitCode(diff));

        var markdown = DiffReport.Render(diff);
        Assert.StartsWith("**1 regression(s)**", markdown);
        Assert.Contains("- worse: size model kestrel echo-post", markdown);
        Assert.Contains("| cost per KB | 2000 | 2200 | +10.0% (99% interval ", markdown);
        var junit = JUnitReport.Render(diff, DateTimeOffset.UnixEpoch);
        Assert.Contains("cost per KB regressed: new/base", junit);
    }

    [Fact]
    public void Two_targets_of_one_run_compare_their_models_paired_by_launch()
    {
        var run = SizeModelTests.Run(kb => 100_000 + 2_000 * kb, kb => 150_000 + 1_000 * kb);

        var model = Assert.Single(RunDiff.BetweenTargets(run, "kestrel", "aspnetcore", 0.03).Models);

        Assert.StartsWith("echo-post c=", model.Label);
        Assert.Equal(0.5, model.Fixed.Change!.Value, 3);
        Assert.True(model.Fixed.IsRegression);
        Assert.Equal(-0.5, model.PerKb.Change!.Value, 3);
        Assert.True(model.PerKb.IsImprovement);
    }

    [Fact]
    public void Models_fitted_over_other_sizes_are_not_compared()
    {
        var before = SizeModelTests.Run(kb => 100_000 + 2_000 * kb, kb => 150_000 + 1_000 * kb);
        var after = SizeModelTests.Run(kb => 100_000 + 2_000 * kb, kb => 150_000 + 1_000 * kb, sizes: new long[] { 500, 16384, 65536 });

        Assert.Empty(RunDiff.BetweenRuns(before, after, 0.05, "base", "new").Models);
    }

    [Fact]
    public void A_history_finds_the_step_in_a_models_cost_per_kb_and_gates_on_it()
    {
        // Twelve runs, each moved as a whole by up to ±0.4%; kestrel's cost per KB steps from 2,000 to 2,200 at the seventh.
        var start = new DateTimeOffset(2026, 11, 27, 8, 0, 0, TimeSpan.Zero);
        var runs = Enumerable.Range(1, 12).Select(n =>
        {
            var drift = 1 + 0.002 * ((n * 7) % 5 - 2);
            var perKb = n >= 7 ? 2_200 : 2_000;
            var run = SizeModelTests.Run(kb => drift * (100_000 + perKb * kb), kb => drift * (150_000 + 1_000 * kb));
            return new HistoryInput(run with { StartedAt = start.AddMinutes(10 * n), FinishedAt = start.AddMinutes(10 * n + 2) }, $"results/run-{n}");
        }).ToList();

        var history = RunHistory.Build(runs, new HistorySelection(), start.AddDays(1));

        var perKb = Assert.Single(history.Gating, s => s.Target == "kestrel" && s.CellLabel.EndsWith("size model (cost per KB)"));
        Assert.Equal(Metrics.SimulatedInstructionsPerRequest.Id, perKb.Metric);
        Assert.Equal(HistorySeries.Regression, perKb.Judgment);
        var step = Assert.Single(perKb.Changes);
        Assert.Equal((6, 7), (step.Before, step.After));
        Assert.Equal(HistorySeries.NoChange, Assert.Single(history.Gating, s => s.Target == "aspnetcore" && s.CellLabel.EndsWith("size model (cost per KB)")).Judgment);
        Assert.True(history.HasRegression);
    }
}
