using System;
using System.Collections.Generic;
using System.Linq;
using Comparator.Comparing;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Reports.Text;
using Comparator.Results;
using Comparator.Simulating;
using Comparator.Statistics;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The simulated pass's figures on injected counts (no valgrind needed): a window's instructions per successful request with the
/// compiling threads apart, its windows merged onto their cells and judged by the same rule as every figure, and written and read back.
/// </summary>
public sealed class SimulationPassTests
{
    private static DriverWindow Driven(long requests, long failed) =>
        new(requests, failed, failed, 0, 0, 5.0, new LatencySummary(1, 1, 2, 3, 4), requests * 200, requests * 100, requests * 50, 4, 0.1,
            Array.Empty<string>(), Array.Empty<string>());

    [Fact]
    public void A_window_counts_every_thread_but_the_compiling_ones_over_its_successful_requests()
    {
        var threads = new[]
        {
            new CallgrindThread(1, 300_000, "/usr/bin/mono-sgen", 0.9),
            new CallgrindThread(7, 500_000, "/usr/bin/mono-sgen", 0.6),
            new CallgrindThread(8, 400_000, "/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/libcoreclr.so", 0.4) { JitInstructions = 100_000 },
            new CallgrindThread(9, 1_000_000, "/usr/lib/dotnet/libclrjit.so", 0.8),
        };

        var window = SimulationPass.Window(Driven(1000, 200), threads);

        // A request thread that compiled a method at its first call: its 100k in the JIT's library go with the compiler's.
        Assert.Equal(1_100_000, Metrics.SimulatedInstructions.Of(window));
        Assert.Equal(1_100_000, Metrics.SimulatedCompilerInstructions.Of(window));
        Assert.Equal(1375, Metrics.SimulatedInstructionsPerRequest.Of(window)); // 1.1M over the 800 that succeeded, not the 1000 sent
    }

    [Fact]
    public void A_window_in_which_the_JIT_compiled_more_than_a_hundredth_of_its_count_is_set_aside()
    {
        CallgrindThread Serving(long instructions, long jit) =>
            new(8, instructions, "/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/libcoreclr.so", 0.4) { JitInstructions = jit };

        Assert.True(SimulationPass.Compiled(SimulationPass.Window(Driven(100, 0), new[] { Serving(1_000_000, 20_000) })));
        Assert.False(SimulationPass.Compiled(SimulationPass.Window(Driven(100, 0), new[] { Serving(1_000_000, 5_000) })));
        Assert.False(SimulationPass.Compiled(SimulationPass.Window(Driven(100, 0), new[] { new CallgrindThread(1, 1_000_000, "/usr/bin/mono-sgen", 0.9) })));
    }

    /// <summary>
    /// Two launches of three windows a side: wcf-classic 600 instructions a request, webapi-selfhost 400 (or <paramref name="webApi"/>),
    /// each moving 0.3%; with <paramref name="burst"/>, each launch's second webapi-selfhost window took in that many times its work.
    /// </summary>
    private static RunResult Simulated(double webApi = 400, double burst = 1, int launches = 2, RunResult? measured = null,
        IReadOnlyDictionary<string, string>? runtimes = null)
    {
        var run = measured ?? InstructionVerdictTests.Plain();
        IReadOnlyList<Measurement> Windows(double perRequest, double second) => Enumerable.Range(0, launches).SelectMany(launch => Enumerable.Range(0, 3).Select(round =>
            SimulationPass.Window(Driven(500, 0), new[] { new CallgrindThread(1, (long)(perRequest * (round == 1 ? second : 1) * 500 * (1 + 0.003 * ((launch + round) % 3))), "mono", 1) })
                with { Launch = launch, Round = round })).ToList();
        var windows = run.Cells.ToDictionary(c => c.Key, c => c.Key.Target == "wcf-classic" ? Windows(600, 1) : Windows(webApi, burst));
        var merged = SimulationPass.Merge(run, new SimulationResult(windows, "simulated instructions: valgrind-3.19.0 callgrind", Array.Empty<string>(), Runtimes: runtimes));
        return merged with { Verdicts = PairVerdicts.Build(merged) };
    }

    [Fact]
    public void Merged_windows_are_judged_like_any_figure_and_said_in_the_answer()
    {
        var run = Simulated();

        var verdict = Assert.Single(run.AllJudged(), v => v.Metric == Metrics.SimulatedInstructionsPerRequest.VerdictId);
        Assert.Equal("webapi-selfhost", verdict.Leader);
        Assert.Equal(2, verdict.Launches); // the pass's own launches are the units, paired by launch as the measured ones
        Assert.Equal(6, run.Cells[0].Simulated!.Count);
        // The answer names the count on each side's median launch, then the ratio.
        var sentences = Answer.Sentences(run);
        Assert.True(sentences.Any(s => System.Text.RegularExpressions.Regex.IsMatch(s,
            @"^webapi-selfhost executes fewer instructions per request \(simulated, user mode\) than wcf-classic at echo-post 500B \(401 against 602 a request, by 1\.5")),
            string.Join("\n", sentences));
        // The summary carries the median of the launches' counts (each its instructions over its requests); the measured figures stay the measured windows'.
        var wcf = run.Cells.Single(c => c.Key.Target == "wcf-classic");
        Assert.InRange(Metrics.SimulatedInstructionsPerRequest.Of(wcf.Summary!)!.Value, 600, 600 * 1.006);
        Assert.Equal(InstructionVerdictTests.Plain().Cells.Single(c => c.Key.Target == "wcf-classic").Summary!.RequestsPerSecond, wcf.Summary!.RequestsPerSecond);
        Assert.StartsWith("simulated instructions: valgrind", run.Spec.SimulatedCounters);
    }

    [Fact]
    public void Where_the_sides_ran_on_runtimes_set_differently_the_answer_names_what_each_ran_with_and_where_alike_it_does_not()
    {
        const string mono = "Mono 6.8.0.105 (net472) with MONO_DEBUG=explicit-null-checks";
        const string dotnet = ".NET 10 with DOTNET_EnableWriteXorExecute=0 DOTNET_TieredCompilation=0 DOTNET_ReadyToRun=0 (one-compile: every method compiled once)";

        var mixed = Answer.Sentences(Simulated(runtimes: new Dictionary<string, string> { ["wcf-classic"] = dotnet, ["webapi-selfhost"] = mono }));
        var alike = Answer.Sentences(Simulated(runtimes: new Dictionary<string, string> { ["wcf-classic"] = mono, ["webapi-selfhost"] = mono }));

        var said = Assert.Single(mixed, s => s.Contains("executes fewer instructions per request"));
        Assert.EndsWith($" Each side as the simulator ran it: webapi-selfhost on {mono}; wcf-classic on {dotnet}.", said);
        Assert.DoesNotContain(alike, s => s.Contains("as the simulator ran it"));
        // The runtimes stay with the run: the spec carries them by target.
        Assert.Equal(dotnet, Simulated(runtimes: new Dictionary<string, string> { ["wcf-classic"] = dotnet }).Spec.SimulatedRuntimes!["wcf-classic"]);
    }

    [Fact]
    public void A_window_that_took_in_a_burst_of_other_work_does_not_decide_its_launch()
    {
        // The same cost on both sides, but one window a launch of webapi-selfhost counted 20 times its requests' work (as valgrind's windows
        // sometimes do): its launch's median window is judged, so the pair is equivalent, where a mean over the windows would make it 7x.
        var run = Simulated(webApi: 600, burst: 20);

        var verdict = Assert.Single(run.AllJudged(), v => v.Metric == Metrics.SimulatedInstructionsPerRequest.VerdictId);
        Assert.Equal(CellVerdict.Equivalent, verdict.Outcome);
        Assert.Equal(6, run.Cells.Single(c => c.Key.Target == "webapi-selfhost").Simulated!.Count); // every window is kept in the results
    }

    [Fact]
    public void A_launch_of_four_windows_whose_collections_come_every_other_window_counts_them_at_their_rate()
    {
        // wcf-classic at echo-put 4KB: a nursery collection every two windows of 101 requests, about 851k and 920k a request by turns. The
        // median of an even count is the mean of its middle two, so every launch counts half its windows heavy, whichever came first; a
        // burst in one window of four is still left out.
        Measurement Window(int launch, int round, double perRequest) =>
            SimulationPass.Window(Driven(101, 0), new[] { new CallgrindThread(1, (long)(perRequest * 101), "mono", 1) }) with { Launch = launch, Round = round };
        var windows = new[] { 851_000.0, 920_000, 851_000, 920_000 }.Select((v, i) => Window(0, i, v))
            .Concat(new[] { 920_000.0, 851_000, 920_000, 851_000 }.Select((v, i) => Window(1, i, v)))
            .Concat(new[] { 600_000.0, 600_000, 600_000, 720_000 }.Select((v, i) => Window(2, i, v))).ToList();

        var launches = CellResult.PerLaunch(windows);

        Assert.Equal(new[] { 885_500.0, 885_500, 600_000 }, launches.Select(l => Math.Round(Metrics.SimulatedInstructionsPerRequest.Of(l)!.Value)));
        Assert.Equal(new[] { 404L, 404, 404 }, launches.Select(l => l.Requests));
    }

    [Fact]
    public void The_pass_is_judged_at_its_own_launch_count_when_the_measured_launches_were_added_until_settled()
    {
        // A default run adds measured launches until cells settle, and judges them first at the fourth; the pass runs its three in one go.
        var sequential = InstructionVerdictTests.Plain() is var plain
            ? plain with { Spec = plain.Spec with { Sequential = new SequentialSpec(4, 13, 300, 100, 5, "budget") } }
            : null!;

        var run = Simulated(launches: 3, measured: sequential);

        var verdict = Assert.Single(run.AllJudged(), v => v.Metric == Metrics.SimulatedInstructionsPerRequest.VerdictId);
        Assert.Equal(3, verdict.Launches);
        Assert.Equal("webapi-selfhost", verdict.Leader);
    }

    [Fact]
    public void A_measured_cell_paced_by_a_wait_still_has_its_simulated_count_judged()
    {
        // The measured windows of wcf-classic waited (wait-bound): req/s names no leader. The simulated pass ran in launches of its own on one
        // connection and counted work, so its figure is judged as ever.
        var plain = InstructionVerdictTests.Plain();
        var waited = plain with { Cells = plain.Cells.Select(c => c.Key.Target == "wcf-classic" ? c with { Flags = c.Flags.Append(CellFlags.WaitBound).ToList() } : c).ToList() };

        var run = Simulated(measured: waited);

        Assert.Contains(run.AllJudged(), v => v.Metric == Metrics.Headline.VerdictId && v.PacedBy == CellFlags.WaitBound && v.Leader is null);
        var verdict = Assert.Single(run.AllJudged(), v => v.Metric == Metrics.SimulatedInstructionsPerRequest.VerdictId);
        Assert.Null(verdict.PacedBy);
        Assert.Equal("webapi-selfhost", verdict.Leader);
    }

    [Fact]
    public void The_simulated_windows_are_written_and_read_back_in_results_json()
    {
        var run = Simulated();

        var back = ResultStore.Deserialize(ResultStore.Serialize(run), "simulated");

        Assert.Equal(run.Cells.Select(c => c.Simulated!.Count), back.Cells.Select(c => c.Simulated!.Count));
        Assert.Equal(Metrics.SimulatedInstructionsPerRequest.Of(run.Cells[0].Simulated![4]), Metrics.SimulatedInstructionsPerRequest.Of(back.Cells[0].Simulated![4]));
        Assert.Equal(run.Spec.SimulatedCounters, back.Spec.SimulatedCounters);
    }

    [Fact]
    public void A_run_without_the_pass_has_no_verdict_of_it()
    {
        Assert.DoesNotContain(InstructionVerdictTests.Plain() is var plain ? PairVerdicts.Build(plain) : null!,
            v => v.Metric == Metrics.SimulatedInstructionsPerRequest.VerdictId);
    }
}
