using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Comparator.Cli;
using Comparator.Comparing;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Running;
using Comparator.Simulating;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The simulated pass's launches added until settled, on injected counts (no valgrind needed): the pass's own sequential design judges its
/// looks, only the cells not yet settled get another launch, a run killed in the pass keeps what its journal holds, and valgrind's own log
/// names a start that the simulator ended.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class SimulationSequenceTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("comparator-simulated-sequence-");

    public void Dispose() => _dir.Delete(recursive: true);

    private static DriverWindow Driven(long requests) =>
        new(requests, 0, 0, 0, 0, 5.0, new LatencySummary(1, 1, 2, 3, 4), requests * 200, requests * 100, requests * 50, 4, 0.1,
            Array.Empty<string>(), Array.Empty<string>());

    /// <summary>
    /// Three windows a launch of one target at <paramref name="perRequest"/>, each launch off by the wobble given for it: the pass's windows as
    /// SimulatedLaunch makes them.
    /// </summary>
    private static List<Measurement> Windows(double perRequest, params double[] wobble) => wobble.SelectMany((w, launch) => Enumerable.Range(0, 3).Select(round =>
        SimulationPass.Window(Driven(500), new[] { new CallgrindThread(1, (long)(perRequest * (1 + w) * 500), "mono", 1) }) with { Launch = launch, Round = round })).ToList();

    /// <summary>The default pair's closed-loop cells at <paramref name="endpoints"/>, as a run plans them.</summary>
    private static (RunOptions Options, IReadOnlyList<ILoadDriver> Drivers, RunPlan Plan) Planned(string endpoints, string launches)
    {
        var options = RunOptionsParser.Parse(new[] { "--targets", "wcf-classic,webapi-selfhost", "--endpoints", endpoints, "--rate", "none", "--launches", launches },
            BuildLayout.Discover());
        var drivers = DriverCatalog.Create(options.Cells.Drivers, null);
        return (options, drivers, new RunPlan(options.Cells, drivers));
    }

    private static readonly SequentialSpec Design = new(3, 10, 240, 0, 0, "");

    private static RunResult Judged(RunResult measured, Dictionary<CellKey, List<Measurement>> windows, SequentialSpec? design)
    {
        var merged = SimulationPass.Merge(measured, new SimulationResult(windows.ToDictionary(w => w.Key, w => (IReadOnlyList<Measurement>)w.Value), "simulated instructions: injected",
            Array.Empty<string>(), design));
        return merged with { Verdicts = PairVerdicts.Build(merged) };
    }

    [Fact]
    public void At_the_first_look_the_passs_design_is_wider_than_a_fixed_count_and_a_gap_settled_either_way_is_named_alike()
    {
        // wcf-classic 1.5x webapi-selfhost's count, each launch within 0.4%: a lead under the design's first look as under a fixed count of three.
        var plain = InstructionVerdictTests.Plain();
        var windows = plain.Cells.ToDictionary(c => c.Key, c => c.Key.Target == "wcf-classic" ? Windows(600, 0, 0.004, -0.002) : Windows(400, 0.002, -0.003, 0));
        var sequential = Judged(plain, windows, Design).AllJudged().Single(v => v.Metric == Metrics.SimulatedInstructionsPerRequest.VerdictId);
        var fixedCount = Judged(plain, windows, null).AllJudged().Single(v => v.Metric == Metrics.SimulatedInstructionsPerRequest.VerdictId);

        Assert.Equal("webapi-selfhost", sequential.Leader);
        Assert.Equal("webapi-selfhost", fixedCount.Leader);
        // The design spends part of α at its first look: its interval is the wider of the two.
        Assert.True(sequential.RatioHigh - sequential.RatioLow > fixedCount.RatioHigh - fixedCount.RatioLow,
            $"design {sequential.RatioLow}-{sequential.RatioHigh}, fixed {fixedCount.RatioLow}-{fixedCount.RatioHigh}");
    }

    [Fact]
    public void Only_the_cells_whose_simulated_judgment_is_not_settled_get_the_next_launch()
    {
        // Two cells: at time a 1.5x gap (settled at three launches); at json a 5% gap with launches 1.5% apart (not settled at three).
        var (options, drivers, plan) = Planned("time,json", "3");
        var cells = plan.Cells.Where(c => c.Plan.Rate is null).ToList();
        var plain = InstructionVerdictTests.Plain();
        var template = plain.Cells.Single(c => c.Key.Target == "wcf-classic");
        var measured = plain with
        {
            Spec = plain.Spec with { BaselineTarget = "webapi-selfhost", Drivers = RunSpecMapping.Start(options, plan, drivers, DateTimeOffset.UtcNow).Spec.Drivers },
            Cells = cells.SelectMany(cell => new[] { "wcf-classic", "webapi-selfhost" }.Select(t => template with { Key = cell.Plan.For(t, null) })).ToList(),
        };
        var windows = new Dictionary<CellKey, List<Measurement>>();
        foreach (var cell in cells)
        {
            var close = cell.Plan.Key.Endpoint == "json";
            windows[cell.Plan.For("webapi-selfhost", null)] = Windows(400, 0, 0.015, -0.015);
            windows[cell.Plan.For("wcf-classic", null)] = close ? Windows(420, 0.015, -0.015, 0) : Windows(600, 0, 0.002, -0.002);
        }

        var unsettled = SimulationPass.Unsettled(measured, cells, windows, "simulated instructions: injected", Design);

        Assert.Equal("json", Assert.Single(unsettled).Plan.Key.Endpoint);
    }

    private static readonly Dictionary<string, string> Runtimes = new()
    {
        ["wcf-classic"] = "Mono 6.8.0.105 (net472) with MONO_DEBUG=explicit-null-checks",
        ["webapi-selfhost"] = ".NET 10 with DOTNET_EnableWriteXorExecute=0 DOTNET_TieredCompilation=0 DOTNET_ReadyToRun=0 (one-compile)",
    };

    [Fact]
    public void A_run_killed_in_the_simulated_pass_is_rebuilt_with_every_simulated_window_its_journal_holds()
    {
        var (options, drivers, plan) = Planned("time", "1");
        using (var journal = RunJournal.Create(_dir.FullName))
        {
            var record = RunRecord.Begin(RunSpecMapping.Start(options, plan, drivers, DateTimeOffset.UtcNow), journal);
            var cell = record.Start.Cells.Single();
            foreach (var target in new[] { "wcf-classic", "webapi-selfhost" })
            {
                record.Target(new TargetInfo(target, "stack", "Mono (net472)", "HttpListener", "http://127.0.0.1:1", false, true, null));
                record.Window(record.Key(target, cell), ResultsTests.Window(1000) with { Launch = 0, Round = 0 });
            }
            record.LaunchEnded(1, 1);
            record.End(partial: false, "a fixed 1 launch(es)");
            // The pass began, counted two launches of windows, and the process died before its end.
            journal.Append(new JournalEntry(JournalEntry.IsSimulatedStart, DateTimeOffset.UtcNow) { Note = "simulated instructions: valgrind-3.19.0 callgrind", Sequential = Design, Runtimes = Runtimes });
            foreach (var (target, count) in new[] { ("wcf-classic", 600.0), ("webapi-selfhost", 400.0) })
            foreach (var window in Windows(count, 0, 0.002))
                journal.Append(new JournalEntry(JournalEntry.IsSimulatedWindow, DateTimeOffset.UtcNow) { Key = record.Key(target, cell), Window = window });
        }

        var rebuilt = Comparator.Cli.JournaledRun.RebuildIfDied(_dir.FullName)!;

        Assert.All(rebuilt.Cells, c => Assert.Equal(6, c.Simulated!.Count));
        Assert.Contains("the pass did not reach its end (rebuilt from the journal with the 12 simulated window(s) it had counted)", rebuilt.Spec.SimulatedCounters);
        Assert.Equal(Design, rebuilt.Spec.SimulatedSequential);
        Assert.Equal(Runtimes, rebuilt.Spec.SimulatedRuntimes); // what each side ran with, as the answer names it
        // Two launches are below the design's first look: the interval is shown, nothing is claimed.
        var verdict = rebuilt.AllJudged().Single(v => v.Metric == Metrics.SimulatedInstructionsPerRequest.VerdictId);
        Assert.NotNull(verdict.RatioLow);
        Assert.Null(verdict.Leader);
        Assert.True(File.Exists(Path.Combine(_dir.FullName, "results.json")));
    }

    [Fact]
    public void Valgrinds_own_crash_is_named_in_its_words_and_its_log_kept()
    {
        var log = Path.Combine(_dir.FullName, "valgrind.webapi-selfhost.1.4242.log");
        File.WriteAllLines(log, new[]
        {
            "==4242== Callgrind, a call-graph generating cache profiler",
            "==4242== brk segment overflow in thread #1: can't grow to 0x483f000",
            "--4242-- VALGRIND INTERNAL ERROR: Valgrind received a signal 11 (SIGSEGV) - exiting",
            "--4242-- si_code=2;  Faulting address: 0x10B45000;  sp: 0x100a75a4f0",
            "valgrind: the 'impossible' happened:",
            "   Killed by fatal signal",
        });

        var found = SimulatorLog.Newest(_dir.FullName, "valgrind.webapi-selfhost.1.*.log");
        var reason = SimulatorLog.Reason(found);
        var kept = SimulatorLog.Keep(found, _dir.FullName, "webapi-selfhost-launch1-start1.log");

        Assert.Equal("VALGRIND INTERNAL ERROR: Valgrind received a signal 11 (SIGSEGV) - exiting", reason);
        Assert.True(SimulatorLog.SimulatorDied(reason));
        Assert.Equal(Path.Combine(SimulatorLog.Folder, "webapi-selfhost-launch1-start1.log"), kept);
        Assert.True(File.Exists(Path.Combine(_dir.FullName, kept!)));
        // A service that ended by itself under valgrind is not the simulator's failure.
        File.WriteAllLines(log, new[] { "==4242== Process terminating with default action of signal 6 (SIGABRT)", "==4242==    at 0x4A2BE8C: ???" });
        Assert.False(SimulatorLog.SimulatorDied(SimulatorLog.Reason(log)));
        Assert.Null(SimulatorLog.Reason(Path.Combine(_dir.FullName, "none.log")));
    }
}

/// <summary>A simulated window is a count of requests: slices of the driver's closed loop summed until the count is reached, or until its limit.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class SimulatedWindowTests
{
    /// <summary>A session that answers <paramref name="perSlice"/> requests (one failed in each slice) in every slice, whatever its duration.</summary>
    private sealed class Slices(long perSlice) : IDriverSession
    {
        public int Runs { get; private set; }

        public System.Threading.Tasks.Task<DriverWindow> RunAsync(TimeSpan duration, System.Threading.CancellationToken cancellationToken)
        {
            Runs++;
            return System.Threading.Tasks.Task.FromResult(new DriverWindow(perSlice, perSlice > 0 ? 1 : 0, 0, 0, 0, 0.2, new LatencySummary(1, 1, 2, 3, 4),
                perSlice * 100, perSlice * 50, perSlice * 10, 0, 0.01, Array.Empty<string>(), Array.Empty<string>()));
        }

        public void Dispose() { }
    }

    [Fact]
    public async System.Threading.Tasks.Task A_window_runs_slices_until_it_has_its_requests_and_sums_them()
    {
        var load = new Slices(70);

        var window = await SimulatedWindow.RunAsync(load, 600, TimeSpan.Zero, System.Threading.CancellationToken.None);

        Assert.Equal(9, load.Runs); // 8 slices give 560, the ninth 630
        Assert.Equal(630, window.Requests);
        Assert.Equal(9, window.Failed);
        Assert.Equal(1.8, window.ElapsedSeconds, 6);
        Assert.Equal(63_000, window.BytesReceived);
    }

    [Fact]
    public async System.Threading.Tasks.Task A_window_reaches_its_least_time_too_and_a_fast_service_counts_more_requests_in_it()
    {
        var load = new Slices(70); // a slice is answered at once: 70 requests in 0.2 s each, as often as the loop asks

        var window = await SimulatedWindow.RunAsync(load, 120, TimeSpan.FromMilliseconds(500), System.Threading.CancellationToken.None);

        Assert.Equal(3, load.Runs); // two reach 120 requests; the least time, 0.5 s of the slices' 0.2 s each, asks for a third
        Assert.Equal(70 * load.Runs, window.Requests);
    }

    [Fact]
    public async System.Threading.Tasks.Task A_window_that_never_reaches_its_count_ends_at_its_limit_with_what_it_had()
    {
        var window = await SimulatedWindow.RunAsync(new Slices(0), 600, TimeSpan.Zero, System.Threading.CancellationToken.None, TimeSpan.FromMilliseconds(300))
            .WaitAsync(TimeSpan.FromSeconds(30));

        Assert.Equal(0, window.Requests);
    }

    /// <summary>A session that stops at exact counts, as the socket driver does, each request taking <paramref name="seconds"/>; its server serves <paramref name="limit"/> a connection.</summary>
    private sealed class Counts(double seconds, long? limit) : IDriverSession
    {
        public List<long> Asked { get; } = new();

        public List<TimeSpan> Pauses { get; } = new();

        public bool RunsCounts => true;

        public long? ServerLimit => Asked.Count > 0 ? limit : null; // known once an answer came

        public System.Threading.Tasks.Task<DriverWindow> RunCountAsync(long requests, TimeSpan limit, System.Threading.CancellationToken cancellationToken,
            TimeSpan pause = default)
        {
            Asked.Add(requests);
            Pauses.Add(pause);
            return System.Threading.Tasks.Task.FromResult(new DriverWindow(requests, 0, 0, 0, 0, requests * seconds, new LatencySummary(1, 1, 2, 3, 4),
                requests * 100, requests * 50, requests * 10, 0, 0.01, Array.Empty<string>(), Array.Empty<string>()));
        }

        public System.Threading.Tasks.Task<DriverWindow> RunAsync(TimeSpan duration, System.Threading.CancellationToken cancellationToken) =>
            throw new InvalidOperationException("a counting session's window runs counts, not slices");

        public void Dispose() { }
    }

    [Fact]
    public async System.Threading.Tasks.Task A_counted_window_is_whole_multiples_of_the_servers_requests_per_connection()
    {
        var load = new Counts(seconds: 0.01, limit: 101); // 101 requests take 1.01 s: the least time of 1.5 s asks for a second part
        var before = await SimulatedWindow.RunAsync(load, 30, TimeSpan.Zero, System.Threading.CancellationToken.None, wholeConnections: false);

        var window = await SimulatedWindow.RunAsync(load, 100, TimeSpan.FromSeconds(1.5), System.Threading.CancellationToken.None);

        Assert.Equal(30, before.Requests); // the part before the windows is exact: it sets where in a connection's life each window starts
        Assert.Equal(202, window.Requests);
        Assert.All(load.Asked.Skip(1), n => Assert.Equal(0, n % 101));
    }

    [Fact]
    public async System.Threading.Tasks.Task Every_part_of_a_paced_window_asks_the_driver_for_the_pause()
    {
        var load = new Counts(seconds: 0.01, limit: null); // 100 requests take 1 s: the least time of 1.5 s asks for a second part
        var window = await SimulatedWindow.RunAsync(load, 100, TimeSpan.FromSeconds(1.5), System.Threading.CancellationToken.None, pause: TimeSpan.FromMilliseconds(2));

        Assert.True(load.Pauses.Count >= 2, $"{load.Pauses.Count} part(s)");
        Assert.All(load.Pauses, p => Assert.Equal(TimeSpan.FromMilliseconds(2), p));
        Assert.True(window.Requests >= 150);
    }

    [Theory]
    [InlineData("kestrel,aspnetcore", 2)] // .NET on both sides
    [InlineData("webapi-selfhost,webapi-kestrel", 2)] // a Mono side beside a .NET one: both alike
    [InlineData("webapi-selfhost,wcf-classic", 0)] // Mono only: back to back, as measured before .NET was counted
    public void A_pass_with_a_dotnet_target_paces_every_target_and_one_of_mono_targets_does_not(string names, int milliseconds)
    {
        var plans = names.Split(',').Select(n => new TargetPlan(n, TargetCatalog.Find(n), null)).ToList();
        var targets = new TargetSet(plans, Array.Empty<TargetDefinition>(), plans[0].Name);

        Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), SimulatedLaunch.PauseFor(targets));
    }

    [Theory]
    [InlineData(100, 0.0, 101, 101)] // the first part reaches the count, rounded up to a whole connection
    [InlineData(250, 0.0, 101, 303)]
    [InlineData(100, 0.0, 1, 100)] // a server without a limit: the count itself
    public void The_first_counted_part_reaches_the_count_in_whole_units(int requests, double least, long unit, long expected) =>
        Assert.Equal(expected, SimulatedWindow.Next(null, requests, TimeSpan.FromSeconds(least), unit));

    [Fact]
    public void A_later_part_asks_for_the_least_time_at_the_rate_so_far_in_whole_units()
    {
        var sofar = new DriverWindow(101, 0, 0, 0, 0, 0.5, new LatencySummary(1, 1, 2, 3, 4), 0, 0, 0, 0, 0, Array.Empty<string>(), Array.Empty<string>());

        // 1 s more at 202 a second, a tenth over: 222.2, so three connections' worth.
        Assert.Equal(303, SimulatedWindow.Next(sofar, 100, TimeSpan.FromSeconds(1.5), 101));
    }
}
