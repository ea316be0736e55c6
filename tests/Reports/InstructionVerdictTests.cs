using System.Collections.Generic;
using System.Linq;
using Comparator.Comparing;
using Comparator.Measuring;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Statistics;
using Xunit;
using Comparator.Reports.Plots;
using Comparator.Reports.Text;

namespace Comparator.Tests;

/// <summary>
/// Instructions per request through the verdicts, the look, `diff`, the flags and the charts, on injected
/// figures (this machine may have no PMU; the judging must not depend on one): judged where read, leading the
/// cost line, saying so when req/s points the other way, never a verdict of a figure nobody counted.
/// </summary>
public sealed class InstructionVerdictTests
{
    /// <summary>One launch's window: req/s over one second, server CPU in cores, instructions per request split 80/20 user/kernel (null: not counted).</summary>
    private static Measurement W(int launch, double rps, double cores, double? instructions) =>
        (instructions is double i
            ? CellMeasurer.WithCounts(ResultsTests.Window(rps, serverCpu: cores),
                new CpuCounterWindow(new Dictionary<string, double> { ["instructionsUser"] = 0.8 * i * rps, ["instructionsKernel"] = 0.2 * i * rps, ["cycles"] = i * rps }, false))
            : ResultsTests.Window(rps, serverCpu: cores)) with { Launch = launch };

    private static CellResult Cell(string target, params Measurement[] repeats) => InjectedRun.Cell(target, "echo-post", 500, repeats);

    private static RunResult Run(CellResult wcf, CellResult webapi) => InjectedRun.Pair(VerdictTests.WcfClassic, VerdictTests.WebApiSelfhost, wcf, webapi);

    /// <summary>Five launches a side at 1000 req/s, nothing counted: the measured run a pass adds its figures to.</summary>
    internal static RunResult Plain() => Run(
        Cell("wcf-classic", Enumerable.Range(0, 5).Select(l => W(l, 1000 * (1 + 0.01 * l), 1.0, null)).ToArray()),
        Cell("webapi-selfhost", Enumerable.Range(0, 5).Select(l => W(l, 1000 * (1 + 0.01 * ((l + 2) % 5)), 1.0, null)).ToArray()));

    /// <summary>Five launches a side; wcf-classic 25% fewer instructions per request; req/s as given.</summary>
    private static RunResult Counted(double wcfRps, double webapiRps, double wcfCores = 1.0, double webapiCores = 1.0) => Run(
        Cell("wcf-classic", Enumerable.Range(0, 5).Select(l => W(l, wcfRps * (1 + 0.01 * l), wcfCores, 300_000 * (1 + 0.005 * (l % 2)))).ToArray()),
        Cell("webapi-selfhost", Enumerable.Range(0, 5).Select(l => W(l, webapiRps * (1 + 0.01 * ((l + 2) % 5)), webapiCores, 400_000 * (1 + 0.005 * (l % 3)))).ToArray()));

    [Fact]
    public void Instructions_are_judged_at_the_cell_and_lead_the_cost_line_from_the_side_with_fewer()
    {
        var run = Counted(1000, 1000);

        var verdict = run.ClosedLoopOthers().Single(v => v.Metric == Metrics.InstructionsPerRequest.VerdictId!);
        Assert.Equal("wcf-classic", verdict.Leader);
        Assert.Equal(CellVerdict.Lower, verdict.Outcome);
        var line = Verdict.Build(run).Single(l => l.Kind == VerdictLineKind.Endpoint).Text;
        // The median windows' 300k against 400k; the ratio is the launches' (a 0.5% wobble on each side), stated from the leaner side.
        Assert.Matches(@"; instructions/req 300k vs 400k: wcf-classic lower, 1\.3[2-5]x \(99% interval 1\.3\dx–1\.3\dx\); server cpu µs/req", line);
        // Instructions (judged here) come before the server CPU time (reported) in the cost part.
        Assert.True(line.IndexOf("instructions", System.StringComparison.Ordinal) < line.IndexOf("server cpu", System.StringComparison.Ordinal), line);
    }

    [Fact]
    public void When_req_s_and_instructions_point_opposite_ways_the_line_says_so_and_names_the_cores()
    {
        // webapi-selfhost answers 30% more a second on twice the cores, though each of its requests takes more instructions.
        var run = Counted(wcfRps: 1000, webapiRps: 1300, wcfCores: 0.6, webapiCores: 1.2);

        Assert.Equal("webapi-selfhost", run.Headline().Single().Leader);
        Assert.Equal("wcf-classic", run.ClosedLoopOthers().Single(v => v.Metric == Metrics.InstructionsPerRequest.VerdictId!).Leader);
        var line = Verdict.Build(run).Single(l => l.Kind == VerdictLineKind.Endpoint).Text;
        Assert.Contains("req/s and instr point opposite ways: webapi-selfhost serves more requests a second than wcf-classic though it is the dearer in instructions per request; " +
                        "likely because it kept more cores busy (1.20 vs 0.60)", line);
    }

    [Fact]
    public void A_figure_nobody_counted_gets_no_verdict_and_one_side_counted_gets_a_reason()
    {
        var none = Run(Cell("wcf-classic", Enumerable.Range(0, 3).Select(l => W(l, 1000, 1, null)).ToArray()),
            Cell("webapi-selfhost", Enumerable.Range(0, 3).Select(l => W(l, 1000, 1, null)).ToArray()));
        var oneSide = Run(Cell("wcf-classic", Enumerable.Range(0, 3).Select(l => W(l, 1000, 1, 300_000)).ToArray()),
            Cell("webapi-selfhost", Enumerable.Range(0, 3).Select(l => W(l, 1000, 1, null)).ToArray()));

        Assert.DoesNotContain(none.AllJudged(), v => v.Metric == Metrics.InstructionsPerRequest.VerdictId!);
        Assert.DoesNotContain("instructions", string.Join("\n", Verdict.Build(none).Select(l => l.Text)));
        var reason = oneSide.ClosedLoopOthers().Single(v => v.Metric == Metrics.InstructionsPerRequest.VerdictId!).Reason;
        Assert.Equal("no figure: instructions/req not read on webapi-selfhost", reason);
    }

    [Fact]
    public void Diff_leads_with_instructions_where_both_runs_counted_them()
    {
        var run = Counted(1000, 1000);

        var diff = RunDiff.BetweenTargets(run, "webapi-selfhost", "wcf-classic", 0.03);

        var cell = diff.Cells.Single();
        Assert.Equal(Metrics.InstructionsPerRequest, RunDiff.Lead(cell).Metric);
        Assert.True(RunDiff.Lead(cell).IsImprovement);
        Assert.Empty(diff.Unsettled); // req/s alone is not settled here; the lead figure is
    }

    [Fact]
    public void The_report_draws_instructions_per_request_only_where_they_were_counted()
    {
        Assert.Contains(Charts.Build(Counted(1000, 1000)), c => c.Name == "instructions");
        var uncounted = Run(Cell("wcf-classic", W(0, 1000, 1, null), W(1, 1000, 1, null)), Cell("webapi-selfhost", W(0, 1000, 1, null), W(1, 1000, 1, null)));
        Assert.DoesNotContain(Charts.Build(uncounted), c => c.Name == "instructions");
    }

    [Fact]
    public void A_window_that_lost_cpu_to_the_hypervisor_or_compiled_is_flagged()
    {
        var stolen = ResultsTests.Window(1000).With(Metrics.StealSeconds, 0.1);
        var compiling = ResultsTests.Window(1000) with { RuntimeCounters = new RuntimeCounters(1, 4, 4, 4, 0, 0, 1000, 0, 0, 0, 0, 0, 0, JitMsPerSecond: 120) };
        var steady = ResultsTests.Window(1000).With(Metrics.StealSeconds, 0.01) with { RuntimeCounters = new RuntimeCounters(1, 4, 4, 4, 0, 0, 1000, 0, 0, 0, 0, 0, 0, JitMsPerSecond: 8) };

        Assert.Contains(CellFlags.Stolen, CellFlags.For(new[] { stolen }, 100, 2));
        Assert.Contains(CellFlags.Compiling, CellFlags.For(new[] { compiling }, 100, 2));
        Assert.DoesNotContain(CellFlags.Stolen, CellFlags.For(new[] { steady }, 100, 2));
        Assert.DoesNotContain(CellFlags.Compiling, CellFlags.For(new[] { steady }, 100, 2));
    }

    [Fact]
    public void A_windows_counts_become_its_figures_and_per_request_ones_per_successful_request()
    {
        // 2,500 requests of which 500 failed: the counts are shared by the 2,000 that succeeded (a failed request is no
        // answer's cost), so 700M instructions are 350k a request, not the 280k a division by every request would give.
        var window = CellMeasurer.WithCounts(ResultsTests.Window(2000, failed: 500),
            new CpuCounterWindow(new Dictionary<string, double> { ["instructionsUser"] = 560_000_000, ["instructionsKernel"] = 140_000_000, ["cycles"] = 700_000_000 }, false));
        Assert.Equal((2500, 500), (window.Requests, window.Failed));

        Assert.Equal(350_000, Metrics.InstructionsPerRequest.Of(window)!.Value, 6);
        Assert.Equal(280_000, Metrics.UserInstructionsPerRequest.Of(window)!.Value, 6);
        Assert.Equal(70_000, Metrics.KernelInstructionsPerRequest.Of(window)!.Value, 6);
        Assert.Equal(1.0, Metrics.InstructionsPerCycle.Of(window)!.Value, 6);
        Assert.Null(Metrics.InstructionsPerRequest.Of(ResultsTests.Window(2000)));
    }
}
