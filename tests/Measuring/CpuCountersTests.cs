using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Running;
using Comparator.Statistics;
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
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
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
        var window = CpuCounterWindow.Between(before, counters.Read());
        Assert.True(window.Counts.ContainsKey(figure), $"{figure} was not counted: {string.Join(", ", window.Counts.Keys)}");
        return window.Counts[figure];
    }

    [SkippableFact]
    public async Task Threads_born_after_the_counters_opened_are_counted_in_full_from_the_targets_start()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "perf_event_open is Linux's");
        await using var target = await new TargetLauncher(BuildLayout.Discover(), cpuCounters: CpuCounterSet.TaskClockOnly).StartAsync(ThreadSpinner(), new ServiceSwitches(false));
        // Where the kernel refuses perf_event_open (perf_event_paranoid, a container's seccomp) the launcher says why and the test cannot check.
        Skip.If(target.CpuCounters is null, $"the counters did not open at the start: {target.CpuCountersNote}");

        var counted = await DeltaAsync(target.CpuCounters!, () => LoadAsync(target.BaseUrl), CpuCounterEvent.TaskClock.Name);

        var spun = Requests * SpinMicroseconds * 1000.0;
        _output.WriteLine($"task clock over {Requests} requests: {counted / 1e6:0.0} ms; the new threads alone spun {spun / 1e6:0.0} ms");
        Assert.True(counted >= spun, $"counted {counted / 1e6:0.0} ms of task clock, less than the {spun / 1e6:0.0} ms the requests' own threads spun");
    }

    [SkippableFact]
    public async Task Counters_attached_to_a_running_process_count_the_threads_it_starts_afterwards()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "perf_event_open is Linux's");
        await using var target = await new TargetLauncher(BuildLayout.Discover()).StartAsync(ThreadSpinner(), new ServiceSwitches(false));
        CpuCounters attached;
        try { attached = CpuCounters.Attach(target.ProcessId, CpuCounterSet.TaskClockOnly); }
        catch (CpuCounterException refused) { throw new SkipException($"the counters could not attach here: {refused.Message}"); }
        using var _ = attached;

        var counted = await DeltaAsync(attached, () => LoadAsync(target.BaseUrl), CpuCounterEvent.TaskClock.Name);

        var spun = Requests * SpinMicroseconds * 1000.0;
        _output.WriteLine($"attached: task clock {counted / 1e6:0.0} ms against {spun / 1e6:0.0} ms spun on threads born after the attach");
        Assert.True(counted >= spun, $"counted {counted / 1e6:0.0} ms, less than the {spun / 1e6:0.0} ms spun");
    }

    [SkippableFact]
    public async Task Instructions_of_threads_born_in_the_window_are_counted_where_the_machine_has_a_PMU()
    {
        var probe = CpuCounterAvailability.Probe();
        _output.WriteLine(probe.Line);
        if (!probe.Available)
        {
            // No PMU here (or not permitted): the one line must say which, and how to allow it.
            Assert.StartsWith("CPU counters: ", probe.Line);
            Assert.Matches("no hardware counters|perf_event_paranoid|not read on|no perf_event_open", probe.Line);
        }
        Skip.IfNot(probe.Available, $"nothing to count here: {probe.Line}");
        await using var target = await new TargetLauncher(BuildLayout.Discover(), cpuCounters: CpuCounterSet.Hardware).StartAsync(ThreadSpinner(), new ServiceSwitches(false));
        Assert.True(target.CpuCounters is not null, $"the counters did not open at the start: {target.CpuCountersNote}");

        var instructions = await DeltaAsync(target.CpuCounters!, () => LoadAsync(target.BaseUrl), CpuCounterEvent.InstructionsUser.Name);

        // 5 ms of a loop of multiply-adds (a thousand between clock reads) retires far more than 500,000 user instructions on any CPU of this century.
        var floor = Requests * SpinMicroseconds * 100.0;
        _output.WriteLine($"user instructions over {Requests} requests: {instructions:0}; floor {floor:0}");
        Assert.True(instructions >= floor, $"counted {instructions:0} user instructions, fewer than {floor:0}: the new threads were not counted");
    }

    // linux/perf_event.h, written out here rather than read from the code under test.
    private const uint PerfTypeHardware = 0, PerfTypeSoftware = 1;
    private const ulong HwCpuCycles = 0, HwInstructions = 1, HwCacheMisses = 3, HwBranchMisses = 5, SwTaskClock = 1;
    // perf_event_attr's bit field (offset 40): disabled is bit 0, then inherit, pinned, exclusive, exclude_user, exclude_kernel, exclude_hv.
    private const ulong InheritBit = 1UL << 1, ExcludeUserBit = 1UL << 4, ExcludeKernelBit = 1UL << 5, ExcludeHvBit = 1UL << 6;

    public static IEnumerable<object[]> EveryEventAndItsAbiFields() => new[]
    {
        // name, type, config, the mode bits besides inherit: user only excludes the kernel, kernel only excludes user mode.
        new object[] { "instructionsUser", PerfTypeHardware, HwInstructions, ExcludeKernelBit | ExcludeHvBit },
        new object[] { "instructionsKernel", PerfTypeHardware, HwInstructions, ExcludeUserBit | ExcludeHvBit },
        new object[] { "cycles", PerfTypeHardware, HwCpuCycles, ExcludeHvBit },
        new object[] { "branchMisses", PerfTypeHardware, HwBranchMisses, ExcludeHvBit },
        new object[] { "cacheMisses", PerfTypeHardware, HwCacheMisses, ExcludeHvBit },
        new object[] { "driverInstructions", PerfTypeHardware, HwInstructions, ExcludeHvBit },
        new object[] { "taskClockNs", PerfTypeSoftware, SwTaskClock, ExcludeHvBit },
    };

    [Theory]
    [MemberData(nameof(EveryEventAndItsAbiFields))]
    public void Each_event_is_opened_with_the_type_config_and_mode_bits_of_the_perf_event_abi(string name, uint type, ulong config, ulong modeBits)
    {
        var e = CpuCounterSet.Hardware.Events.Concat(CpuCounterSet.Driver.Events).Concat(CpuCounterSet.TaskClockOnly.Events).Single(e => e.Name == name);

        var inherited = PerfEventOpen.AttrFor(e, inherit: true);
        var alone = PerfEventOpen.AttrFor(e, inherit: false);

        Assert.Equal((type, 64u, config, 3UL, InheritBit | modeBits), (inherited.Type, inherited.Size, inherited.Config, inherited.ReadFormat, inherited.Flags));
        Assert.Equal(modeBits, alone.Flags);
    }

    [Fact]
    public void The_hardware_set_is_the_five_events_each_figure_is_named_after()
    {
        Assert.Equal(new[] { "instructionsUser", "instructionsKernel", "cycles", "branchMisses", "cacheMisses" }, CpuCounterSet.Hardware.Events.Select(e => e.Name));
        Assert.Equal(new[] { "driverInstructions" }, CpuCounterSet.Driver.Events.Select(e => e.Name));
        Assert.Equal(new[] { "taskClockNs" }, CpuCounterSet.TaskClockOnly.Events.Select(e => e.Name));
    }

    [Fact]
    public void The_record_handed_to_the_kernel_is_perf_event_attr_byte_for_byte()
    {
        var bytes = PerfEventOpen.Bytes(PerfEventOpen.AttrFor(CpuCounterEvent.InstructionsUser, inherit: true));

        // PERF_ATTR_SIZE_VER0, little-endian: type 0 (hardware), size 64, config 1 (instructions), sample fields zero,
        // read_format 3 (time enabled and running), flags 0x62 (inherit, exclude_kernel, exclude_hv), the rest zero.
        var expected = new byte[64];
        expected[4] = 64;
        expected[8] = 1;
        expected[32] = 3;
        expected[40] = 0x62;
        Assert.Equal(expected, bytes);
    }

    /// <summary>A test's counts: every read adds the same step to every event, so each window counts one step exactly.</summary>
    private sealed class SteppingCounters(IReadOnlyDictionary<string, ulong> step) : ICpuCounterReader
    {
        private ulong _reads;

        public IReadOnlyDictionary<string, CpuCounterValue> Read()
        {
            var n = ++_reads;
            return step.ToDictionary(s => s.Key, s => new CpuCounterValue(s.Value * n, 1_000_000 * n, 1_000_000 * n));
        }
    }

    /// <summary>A driver whose every window is 1,000 requests, 200 of them failed.</summary>
    private sealed class FailingFifthDriver : ILoadDriver
    {
        public string Name => "fixed";
        public string Description => "a test's driver: one window's figures, returned at once";
        public string? CannotMeasure(LoadRequest request, bool keepAlive) => null;
        public IDriverSession Open(LoadRequest request, int concurrency, bool keepAlive, TimeSpan requestTimeout) => new Session();

        private sealed class Session : IDriverSession
        {
            public Task<DriverWindow> RunAsync(TimeSpan duration, CancellationToken cancellationToken) => Task.FromResult(
                new DriverWindow(1000, 200, 200, 0, 0, 1.0, new LatencySummary(1, 1, 2, 3, 4), 1000 * 200, 1000 * 100, 1000 * 50, 1, 0.1,
                    Array.Empty<string>(), Array.Empty<string>()));

            public void Dispose() { }
        }
    }

    [Fact]
    public async Task A_windows_counts_are_read_from_the_counters_and_shared_by_its_successful_requests()
    {
        // 40M user and 10M kernel instructions in a window of 1,000 requests of which 200 failed: 800 answered.
        var counters = new SteppingCounters(new Dictionary<string, ulong> { ["instructionsUser"] = 40_000_000, ["instructionsKernel"] = 10_000_000, ["cycles"] = 25_000_000 });
        var measurer = new CellMeasurer(new FailingFifthDriver(), new WindowSettings(TimeSpan.Zero, TimeSpan.Zero, TimeSpan.FromSeconds(1),
            new RepeatRule(2, 2, 0.05), KeepAlive: true, TimeSpan.FromSeconds(5)) { SteadyBound = TimeSpan.Zero });
        var request = LoadRequest.For(Endpoints.Time, new Uri("http://fixed.invalid/"), Array.Empty<byte>(), JsonSample.DefaultItems);

        var repeats = Assert.Single(await measurer.MeasureInterleavedAsync(new[] { new CellParticipant(request, null, counters) }, 1, CancellationToken.None));

        Assert.Equal(2, repeats.Count);
        Assert.All(repeats, m =>
        {
            Assert.Equal((40_000_000d, 10_000_000d, 25_000_000d), (m.Figures["instructionsUser"], m.Figures["instructionsKernel"], m.Figures["cycles"]));
            Assert.Equal(62_500, Metrics.InstructionsPerRequest.Of(m)!.Value, 6); // 50M over 800, not the 50k of 1,000
            Assert.Equal(50_000, Metrics.UserInstructionsPerRequest.Of(m)!.Value, 6);
            Assert.Equal(12_500, Metrics.KernelInstructionsPerRequest.Of(m)!.Value, 6);
            Assert.Equal(2.0, Metrics.InstructionsPerCycle.Of(m)!.Value, 6);
        });
    }

    [Fact]
    public void An_errno_of_perf_event_open_is_explained_with_the_step_that_allows_it()
    {
        var noPmu = CpuCounterAvailability.Explain(PerfEventOpen.ENOENT, CpuCounterEvent.InstructionsUser);
        var paranoid = CpuCounterAvailability.Explain(PerfEventOpen.EACCES, CpuCounterEvent.InstructionsUser);
        var kernel = CpuCounterAvailability.Explain(PerfEventOpen.EACCES, CpuCounterEvent.InstructionsKernel);
        var missingEvent = CpuCounterAvailability.Explain(PerfEventOpen.ENOENT, CpuCounterEvent.CacheMisses);

        Assert.Contains("no hardware counters", noPmu);
        Assert.Contains("sysctl -w kernel.perf_event_paranoid=2", paranoid);
        Assert.Contains("sysctl -w kernel.perf_event_paranoid=1", kernel);
        Assert.Equal("not on this PMU", missingEvent);
    }

    [Fact]
    public void Asked_not_to_count_the_run_says_so_in_one_line_and_counts_nothing()
    {
        var (set, line, systemCalls) = CpuCounting.Resolve(asked: false);

        Assert.Null(set);
        Assert.Equal(CpuCounterAvailability.Off.Line, line);
        Assert.Contains("--counters off", line);
        Assert.Equal(SystemCallCounting.Off.Line, systemCalls);
    }

    [Fact]
    public void A_multiplexed_counter_is_scaled_by_its_time_enabled_over_running_and_said_to_be()
    {
        var before = new System.Collections.Generic.Dictionary<string, CpuCounterValue> { ["cycles"] = new(1000, 0, 0), ["instructionsUser"] = new(500, 0, 0) };
        var after = new System.Collections.Generic.Dictionary<string, CpuCounterValue> { ["cycles"] = new(2000, 2000, 1000), ["instructionsUser"] = new(1500, 2000, 2000) };

        var window = CpuCounterWindow.Between(before, after);

        Assert.True(window.Multiplexed);
        Assert.Equal(2000, window.Counts["cycles"]); // 1,000 counted in half the time enabled
        Assert.Equal(1000, window.Counts["instructionsUser"]);
    }
}
