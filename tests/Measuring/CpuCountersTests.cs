using System;
using System.Linq;
using System.Net.Http;
using System.Threading.Tasks;
using Comparator.Measuring;
using Comparator.Running;
using Comparator.Targets;
using Xunit;
using Xunit.Abstractions;

namespace Comparator.Tests;

/// <summary>
/// The CPU's counters of a target, every thread: a test service that starts a new thread for every request,
/// each spinning a known amount of its own CPU time, must be counted in full. The kernel's task clock is
/// counted on every Linux, PMU or not, so the inheritance is proven on any machine; where the PMU is there
/// too, the instructions of the same threads are. What no machine's noise can break is asserted: a thread
/// that ran 2 ms on a CPU is counted at least 2 ms, and a loop that ran 2 ms retired more than one
/// instruction per 10 ns.
/// </summary>
public sealed class CpuCountersTests
{
    private const int Requests = 40;
    private const int SpinMicroseconds = 5000;
    private readonly ITestOutputHelper _output;

    public CpuCountersTests(ITestOutputHelper output) => _output = output;

    private static TargetDefinition ThreadSpinner() =>
        new("thread-spinner", "test double", ".NET 10", "Kestrel", "MisbehavingService", "MisbehavingService.dll", HostRuntime.DotNet, null)
        {
            VariantArguments = new[] { "thread-spin", SpinMicroseconds.ToString(System.Globalization.CultureInfo.InvariantCulture) },
        };

    /// <summary>Sends the requests one after another, each answered after its own new thread spun.</summary>
    private static async Task LoadAsync(Uri baseUrl)
    {
        using var client = new HttpClient { BaseAddress = baseUrl };
        for (var i = 0; i < Requests; i++)
            (await client.GetAsync("/api/time")).EnsureSuccessStatusCode();
    }

    /// <summary>
    /// The count over a load, taken after the same load once unmeasured: the first requests compile the pipeline on the
    /// threads alive (a hundred milliseconds and more), which would otherwise hide whether the new threads were counted.
    /// </summary>
    private static async Task<double> DeltaAsync(CpuCounters counters, Func<Task> load, string figure)
    {
        await load();
        var before = counters.Read();
        await load();
        var window = CounterWindow.Between(before, counters.Read());
        Assert.True(window.Counts.ContainsKey(figure), $"{figure} was not counted: {string.Join(", ", window.Counts.Keys)}");
        return window.Counts[figure];
    }

    [Fact]
    public async Task Threads_born_after_the_counters_opened_are_counted_in_full_from_the_targets_start()
    {
        Assert.True(OperatingSystem.IsLinux(), "perf_event_open is Linux's");
        await using var target = await new TargetLauncher(BuildLayout.Discover(), counters: CounterSet.TaskClockOnly).StartAsync(ThreadSpinner(), new ServiceSwitches(false));
        Assert.True(target.Counters is not null, $"the counters did not open at the start: {target.CountersNote}");

        var counted = await DeltaAsync(target.Counters!, () => LoadAsync(target.BaseUrl), CounterEvent.TaskClock.Name);

        var spun = Requests * SpinMicroseconds * 1000.0;
        _output.WriteLine($"task clock over {Requests} requests: {counted / 1e6:0.0} ms; the new threads alone spun {spun / 1e6:0.0} ms");
        Assert.True(counted >= spun, $"counted {counted / 1e6:0.0} ms of task clock, less than the {spun / 1e6:0.0} ms the requests' own threads spun");
    }

    [Fact]
    public async Task Counters_attached_to_a_running_process_count_the_threads_it_starts_afterwards()
    {
        await using var target = await new TargetLauncher(BuildLayout.Discover()).StartAsync(ThreadSpinner(), new ServiceSwitches(false));
        using var attached = CpuCounters.Attach(target.ProcessId, CounterSet.TaskClockOnly);

        var counted = await DeltaAsync(attached, () => LoadAsync(target.BaseUrl), CounterEvent.TaskClock.Name);

        var spun = Requests * SpinMicroseconds * 1000.0;
        _output.WriteLine($"attached: task clock {counted / 1e6:0.0} ms against {spun / 1e6:0.0} ms spun on threads born after the attach");
        Assert.True(counted >= spun, $"counted {counted / 1e6:0.0} ms, less than the {spun / 1e6:0.0} ms spun");
    }

    [SkippableFact]
    public async Task Instructions_of_threads_born_in_the_window_are_counted_where_the_machine_has_a_PMU()
    {
        var probe = CounterAvailability.Probe();
        _output.WriteLine(probe.Line);
        if (!probe.Available)
        {
            // No PMU here (or not permitted): the one line must say which, and how to allow it.
            Assert.StartsWith("CPU counters: ", probe.Line);
            Assert.Matches("no hardware counters|perf_event_paranoid|not read on|no perf_event_open", probe.Line);
        }
        Skip.IfNot(probe.Available, $"nothing to count here: {probe.Line}");
        await using var target = await new TargetLauncher(BuildLayout.Discover(), counters: CounterSet.Hardware).StartAsync(ThreadSpinner(), new ServiceSwitches(false));
        Assert.True(target.Counters is not null, $"the counters did not open at the start: {target.CountersNote}");

        var instructions = await DeltaAsync(target.Counters!, () => LoadAsync(target.BaseUrl), CounterEvent.InstructionsUser.Name);

        // 5 ms of a loop of multiply-adds (a thousand between clock reads) retires far more than 500,000 user instructions on any CPU of this century.
        var floor = Requests * SpinMicroseconds * 100.0;
        _output.WriteLine($"user instructions over {Requests} requests: {instructions:0}; floor {floor:0}");
        Assert.True(instructions >= floor, $"counted {instructions:0} user instructions, fewer than {floor:0}: the new threads were not counted");
    }

    [Fact]
    public void An_errno_of_perf_event_open_is_explained_with_the_step_that_allows_it()
    {
        var noPmu = CounterAvailability.Explain(PerfEventOpen.ENOENT, CounterEvent.InstructionsUser);
        var paranoid = CounterAvailability.Explain(PerfEventOpen.EACCES, CounterEvent.InstructionsUser);
        var kernel = CounterAvailability.Explain(PerfEventOpen.EACCES, CounterEvent.InstructionsKernel);
        var missingEvent = CounterAvailability.Explain(PerfEventOpen.ENOENT, CounterEvent.CacheMisses);

        Assert.Contains("no hardware counters", noPmu);
        Assert.Contains("sysctl -w kernel.perf_event_paranoid=2", paranoid);
        Assert.Contains("sysctl -w kernel.perf_event_paranoid=1", kernel);
        Assert.Equal("not on this PMU", missingEvent);
    }

    [Fact]
    public void Asked_not_to_count_the_run_says_so_in_one_line_and_counts_nothing()
    {
        var (set, line) = CpuCounting.Resolve(asked: false);

        Assert.Null(set);
        Assert.Equal(CounterAvailability.Off.Line, line);
        Assert.Contains("--counters off", line);
    }

    [Fact]
    public void A_multiplexed_counter_is_scaled_by_its_time_enabled_over_running_and_said_to_be()
    {
        var before = new System.Collections.Generic.Dictionary<string, CounterValue> { ["cycles"] = new(1000, 0, 0), ["instructionsUser"] = new(500, 0, 0) };
        var after = new System.Collections.Generic.Dictionary<string, CounterValue> { ["cycles"] = new(2000, 2000, 1000), ["instructionsUser"] = new(1500, 2000, 2000) };

        var window = CounterWindow.Between(before, after);

        Assert.True(window.Multiplexed);
        Assert.Equal(2000, window.Counts["cycles"]); // 1,000 counted in half the time enabled
        Assert.Equal(1000, window.Counts["instructionsUser"]);
    }
}
