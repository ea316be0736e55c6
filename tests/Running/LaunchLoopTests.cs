using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Cli;
using Comparator.Comparing;
using Comparator.Drivers;
using Comparator.Errors;
using Comparator.Results;
using Comparator.Running;
using Comparator.Statistics;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The launch loop (RunOrchestrator, LaunchSession, LaunchMeasurement, CellMeasurer, RunRecord, RunAssembly) on
/// injected figures: targets "a" (the baseline) and "b" started by a <see cref="FakeLauncher"/>, verified by an
/// answer the test gives, measured by a <see cref="FakeDriver"/>; no process, no socket, every window at once.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class LaunchLoopTests
{
    private static readonly string[] Endpoints = { "time", "json" };

    [Fact]
    public async Task A_fixed_run_starts_every_target_afresh_each_launch_in_alternating_order_and_measures_every_cell_in_each()
    {
        var options = Options("--launches", "3", "--repeat", "2");
        var launcher = new FakeLauncher();
        var driver = new FakeDriver(launcher, Figure);
        var run = await RunAsync(options, launcher, driver);

        Assert.Equal(new[] { "a", "b", "b", "a", "a", "b" }, launcher.Starts);
        Assert.All(launcher.Started, t => Assert.True(t.Stopped, $"{t.Name} start {t.Start} was not stopped"));
        // Every cell on every target in each launch; within a cell the rounds alternate the targets, and each launch the order.
        string Launch(string first, string second, int start) => string.Join(", ", Endpoints.SelectMany(e =>
            new[] { first, second, second, first }.Select(t => $"{t}{start} {e}")));
        Assert.Equal(string.Join(", ", Launch("a", "b", 0), Launch("b", "a", 1), Launch("a", "b", 2)), string.Join(", ", driver.Calls));

        Assert.False(run.Partial);
        Assert.Equal(Endpoints.SelectMany(e => new[] { ("a", e), ("b", e) }), run.Cells.Select(c => (c.Key.Target, c.Key.Endpoint)));
        foreach (var cell in run.Cells)
        {
            Assert.Null(cell.NotMeasuredReason);
            Assert.Equal(new (int?, int?)[] { (0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1) }, cell.Repeats.Select(m => (m.Launch, m.Round)));
            Assert.Equal(cell.Repeats.Select(m => Figure(cell.Key.Target, m.Launch!.Value, cell.Key.Endpoint)), cell.Repeats.Select(m => m.RequestsPerSecond));
            Assert.All(cell.Repeats, m => Assert.Null(m.ServerCpuSeconds)); // no process: nothing sampled
        }
        // The first launch's start and checks are the run's record of each target.
        Assert.Equal(new[] { "a", "b" }, run.Verification.Select(c => c.Target));
        Assert.All(run.Targets, t =>
        {
            Assert.True(t.Measured);
            Assert.Equal($"on: {t.Name} start 0's word", t.TcpNoDelay); // the target's own word at its first start, not a later launch's
            Assert.Equal($"http://{t.Name}-0.invalid", t.BaseUrl);
            Assert.Null(t.LaunchFailures);
        });
        Assert.Equal(3, run.Spec.Launches);
        Assert.Null(run.Spec.Sequential);
        Assert.Equal(ExitCodes.Success, RunCommand.ExitCode(run, options));
    }

    [Fact]
    public async Task The_sequential_design_stops_measuring_a_settled_cell_and_ends_the_run_when_every_cell_has_settled()
    {
        var options = Options("--max-launches", "8", "--budget", "600s", "--repeat", "1");
        Assert.Equal(8, options.Judging.Launches);
        var launcher = new FakeLauncher();
        // b/a: time a steady 1.5 (settled at the first look, after 4 launches); json between 1.2 and 1.5 in the first four, then 1.5 (settled after 6).
        var time = new[] { 1.00, 1.02, 0.99, 1.01 };
        var driver = new FakeDriver(launcher, call => call.Target.Name == "a" ? 1000
            : call.Endpoint == "time" ? 1500 * time[call.Target.Start % 4]
            : call.Target.Start is 1 or 3 ? 1200 : 1500);
        var run = await RunAsync(options, launcher, driver);

        // A look after every launch from the first look on: the cells judged and settled, and the load spent (1 s a cell and target).
        var sequential = run.Spec.Sequential!;
        Assert.Equal(new[] { new LookSpec(4, 16, 2, 1), new LookSpec(5, 18, 2, 1), new LookSpec(6, 20, 2, 2) }, sequential.Looks);
        Assert.Equal((6, 20.0, "every cell settled after 6 launches"), (sequential.LaunchesRun, sequential.LoadSeconds, sequential.Stopped));
        Assert.Equal(6, run.Spec.Launches);
        // Both targets are started afresh for every launch, but the settled cell is measured in the first four only.
        Assert.Equal(Enumerable.Range(0, 6).SelectMany(l => l % 2 == 0 ? new[] { "a", "b" } : new[] { "b", "a" }), launcher.Starts);
        Assert.All(driver.Calls.Where(c => c.Endpoint == "time"), c => Assert.InRange(c.Target.Start, 0, 3));
        foreach (var target in new[] { "a", "b" })
        {
            Assert.Equal(new int?[] { 0, 1, 2, 3 }, Cell(run, target, "time").Repeats.Select(m => m.Launch));
            Assert.Equal(new int?[] { 0, 1, 2, 3, 4, 5 }, Cell(run, target, "json").Repeats.Select(m => m.Launch));
        }
        Assert.All(Endpoints, e =>
        {
            var verdict = run.Headline().Single(v => v.Key.Endpoint == e);
            Assert.Equal((CellVerdict.Higher, "b", e == "time" ? 4 : 6), (verdict.Outcome, verdict.Leader, verdict.Launches));
        });
        Assert.False(run.Partial);
        Assert.Equal(ExitCodes.Success, RunCommand.ExitCode(run, options));
    }

    [Fact]
    public async Task A_target_that_cannot_start_is_recorded_not_measured_with_the_reason_and_the_other_is_measured()
    {
        var options = Options("--launches", "2", "--repeat", "1");
        var launcher = new FakeLauncher((name, start) => name == "b" ? "exited with code 3 before it was ready" : null);
        var driver = new FakeDriver(launcher, Figure);
        var run = await RunAsync(options, launcher, driver);

        const string Reason = "target 'b' exited with code 3 before it was ready";
        Assert.Equal(new[] { "a", "b", "a" }, launcher.Starts); // a target whose first start failed is not started again
        var b = run.Targets.Single(t => t.Name == "b");
        Assert.False(b.Measured);
        Assert.Equal(Reason, b.NotMeasuredReason);
        Assert.All(run.Cells.Where(c => c.Key.Target == "b"), c =>
        {
            Assert.Equal(Reason, c.NotMeasuredReason);
            Assert.Equal(new[] { CellFlags.NotMeasured }, c.Flags);
            Assert.Empty(c.Repeats);
        });
        Assert.All(run.Cells.Where(c => c.Key.Target == "a"), c => Assert.Equal(new int?[] { 0, 1 }, c.Repeats.Select(m => m.Launch)));
        Assert.All(driver.Calls, call => Assert.Equal("a", call.Target.Name));
        Assert.All(run.Headline(), v => Assert.Equal($"not measured on b ({Reason})", v.Reason));
        Assert.Equal(ExitCodes.Failed, RunCommand.ExitCode(run, options));
    }

    [Fact]
    public async Task A_target_that_fails_its_checks_is_stopped_and_recorded_not_measured()
    {
        var options = Options("--launches", "2", "--repeat", "1");
        var launcher = new FakeLauncher();
        var driver = new FakeDriver(launcher, Figure);
        var run = await RunAsync(options, launcher, driver, check: (target, url, _, _) => Task.FromResult<IReadOnlyList<Check>>(new[]
        {
            new Check(target, "time", true, 200, "content-length", 100, "ok"),
            target == "b" ? new Check(target, "json", false, 500, "content-length", 80, "status 500") : new Check(target, "json", true, 200, "content-length", 900, "ok"),
        }));

        Assert.Equal(new[] { "a", "b", "a" }, launcher.Starts);
        Assert.All(launcher.Started, t => Assert.True(t.Stopped));
        var b = run.Targets.Single(t => t.Name == "b");
        Assert.False(b.Measured);
        Assert.Equal("verification failed: json: status 500", b.NotMeasuredReason);
        Assert.Equal(new[] { ("a", "time", true), ("a", "json", true), ("b", "time", true), ("b", "json", false) },
            run.Verification.Select(c => (c.Target, c.Endpoint, c.Passed)));
        Assert.All(driver.Calls, call => Assert.Equal("a", call.Target.Name));
        Assert.Equal(ExitCodes.Failed, RunCommand.ExitCode(run, options));
    }

    [Fact]
    public async Task A_target_that_dies_and_does_not_come_back_has_its_remaining_cells_recorded_not_measured()
    {
        var options = Options("--launches", "3", "--repeat", "1");
        // b's process exits during its first time window, and every later start of it fails.
        var launcher = new FakeLauncher((name, start) => name == "b" && start > 0 ? "exited with code 134 before it was ready" : null);
        var driver = new FakeDriver(launcher, Figure, call =>
        {
            if (call.Target.Name == "b" && call.Endpoint == "time") call.Target.HasExited = true;
        });
        var run = await RunAsync(options, launcher, driver);

        Assert.Equal(new[] { "a", "b", "b", "a", "a", "b" }, launcher.Starts); // b started well once: it is tried again each launch
        var b = run.Targets.Single(t => t.Name == "b");
        Assert.True(b.Measured);
        Assert.Equal(new[]
        {
            "launch 1: the process exited during the launch",
            "launch 2: target 'b' exited with code 134 before it was ready",
            "launch 3: target 'b' exited with code 134 before it was ready",
        }, b.LaunchFailures);
        Assert.Equal(new int?[] { 0 }, Cell(run, "b", "time").Repeats.Select(m => m.Launch));
        var json = Cell(run, "b", "json");
        Assert.Empty(json.Repeats);
        Assert.Equal("the target process exited during the run", json.NotMeasuredReason);
        Assert.Equal(new[] { CellFlags.NotMeasured }, json.Flags);
        Assert.All(Endpoints, e => Assert.Equal(new int?[] { 0, 1, 2 }, Cell(run, "a", e).Repeats.Select(m => m.Launch)));
        Assert.StartsWith("not measured on b (the target process exited during the run)", run.Headline().Single(v => v.Key.Endpoint == "json").Reason);
        Assert.Equal(ExitCodes.Failed, RunCommand.ExitCode(run, options));
    }

    [Fact]
    public async Task A_target_that_dies_in_one_launch_misses_that_launch_and_keeps_the_others()
    {
        var options = Options("--launches", "3", "--repeat", "1");
        var launcher = new FakeLauncher();
        var driver = new FakeDriver(launcher, Figure, call =>
        {
            if (call.Target.Name == "b" && call.Target.Start == 1 && call.Endpoint == "time") call.Target.HasExited = true;
        });
        var run = await RunAsync(options, launcher, driver);

        Assert.Equal(new[] { "launch 2: the process exited during the launch" }, run.Targets.Single(t => t.Name == "b").LaunchFailures);
        Assert.Equal(new int?[] { 0, 2 }, Cell(run, "b", "json").Repeats.Select(m => m.Launch));
        Assert.Null(Cell(run, "b", "json").NotMeasuredReason);
        Assert.Equal(new int?[] { 0, 1, 2 }, Cell(run, "b", "time").Repeats.Select(m => m.Launch));
        Assert.Equal(new int?[] { 0, 1, 2 }, Cell(run, "a", "json").Repeats.Select(m => m.Launch));
    }

    [Fact]
    public async Task A_stop_mid_launch_gives_a_partial_result_with_what_was_measured()
    {
        var options = Options("--launches", "3", "--repeat", "2");
        using var stop = new CancellationTokenSource();
        var launcher = new FakeLauncher();
        // The user stops the run during the second launch's first json window (b's: that launch goes b, a).
        var driver = new FakeDriver(launcher, Figure, call =>
        {
            if (call.Target.Start == 1 && call.Endpoint == "json") stop.Cancel();
        });
        var run = await RunAsync(options, launcher, driver, stop.Token);

        Assert.True(run.Partial);
        Assert.Equal(new[] { "a", "b", "b", "a" }, launcher.Starts); // no third launch
        Assert.All(launcher.Started, t => Assert.True(t.Stopped));
        Assert.Equal("b1 json", driver.Calls.Last().ToString());
        foreach (var target in new[] { "a", "b" })
        {
            // time: both rounds of both launches; json: the first launch's, the window cut short by the stop is no measurement.
            Assert.Equal(new (int?, int?)[] { (0, 0), (0, 1), (1, 0), (1, 1) }, Cell(run, target, "time").Repeats.Select(m => (m.Launch, m.Round)));
            Assert.Equal(new (int?, int?)[] { (0, 0), (0, 1) }, Cell(run, target, "json").Repeats.Select(m => (m.Launch, m.Round)));
        }
        Assert.Equal(ExitCodes.Failed, RunCommand.ExitCode(run, options));
    }

    /// <summary>The requests/s of a window: the target's own level, higher each launch, json a little above time.</summary>
    private static double Figure(string target, int launch, string endpoint) => (target == "a" ? 1000 : 2000) + 100 * launch + (endpoint == "json" ? 10 : 0);

    private static double Figure(FakeCall call) => Figure(call.Target.Name, call.Target.Start, call.Endpoint);

    private static CellResult Cell(RunResult run, string target, string endpoint) => run.Cells.Single(c => c.Key.Target == target && c.Key.Endpoint == endpoint);

    /// <summary>The run as parsed from these arguments, its targets two made up ones (never started: the fake launcher answers for them), a the baseline.</summary>
    private static RunOptions Options(params string[] args)
    {
        var parsed = RunOptionsParser.Parse(new[]
        {
            "--targets", "kestrel", "--endpoints", string.Join(",", Endpoints), "--concurrency", "4", "--warmup", "0s", "--duration", "1s",
            "--out", Path.GetTempPath(),
        }.Concat(args).ToList(), BuildLayout.Discover());
        return parsed with
        {
            Targets = parsed.Targets.Only(new[] { Plan("a"), Plan("b") }, "a"),
            Cells = parsed.Cells with { Drivers = new[] { "fake" } },
        };
    }

    private static TargetPlan Plan(string name) =>
        new(name, new TargetDefinition(name, "fake stack", "fake runtime", "fake server", "FakeService", "FakeService.dll", HostRuntime.DotNet, null), null);

    private static Task<RunResult> RunAsync(RunOptions options, FakeLauncher launcher, FakeDriver driver, CancellationToken cancellationToken = default,
        EndpointCheck? check = null) =>
        new RunOrchestrator(options, new ILoadDriver[] { driver }, launcher, new RecordedProgress(), Comparator.Comparing.PairVerdicts.Build, check ?? Passing).RunAsync(cancellationToken);

    /// <summary>Every target answers its checks.</summary>
    private static Task<IReadOnlyList<Check>> Passing(string target, Uri baseUrl, CancellationToken cancellationToken, bool insecure) =>
        Task.FromResult<IReadOnlyList<Check>>(new[] { new Check(target, "time", true, 200, "content-length", 100, "ok") });
}
