using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Targets;

namespace Comparator.Running;

/// <summary>A target's runtime counters: read through EventPipe from a started .NET target, not read otherwise (and why).</summary>
public static class TargetRuntimeCounters
{
    public const string RuntimeCountersOn = "System.Runtime event counters through EventPipe, one sample a second: thread-pool threads and queue, completed items, GCs per generation, time in GC, allocation rate, lock contentions; and its GC events (AllocationTick, GCStart) for bytes allocated and collections per request";
    public const string NotOnMono = "not available: Mono 6.8 has no EventPipe and no event counters, and no allocation count but its log profiler's " +
                                    "per-object events, which slow it many times over (so no bytes allocated per request); server CPU and peak RSS come from /proc as for every target";

    public const string NotUnderSimulation = "not read under the simulator: the runtime's work for an EventPipe session would be counted as the service's";

    /// <summary>What this run reads of a target's runtime: EventPipe counters on .NET, nothing of the kind on Mono.</summary>
    public static (RuntimeCounterSession? Session, string Note) For(TargetPlan plan, IStartedTarget? running)
    {
        if (running is null) return (null, "not read: an external service's process is not the comparator's to attach to");
        if (plan.Definition!.Host == HostRuntime.Other)
            return (null, "not read: its command runs neither .NET nor Mono (runtime other), so there are no runtime counters to attach to; server CPU and peak RSS come from its process");
        if (plan.Definition!.Host != HostRuntime.DotNet)
            return (null, OperatingSystem.IsWindows() ? "not read: the .NET Framework publishes its counters through ETW and performance counters, which this comparator does not attach" : NotOnMono);
        if (running.ProcessId is not int pid) return (null, "not read: the target has no process to attach to");
        var session = RuntimeCounterSession.TryStart(pid, out var whyNot);
        return (session, session is not null ? RuntimeCountersOn : "not read: " + whyNot);
    }

    /// <summary>A window with its collector's work (bytes allocated, collections) as figures of its own, or as it was where none was read.</summary>
    public static Measurement WithCollector(Measurement window, CollectorWork? work) =>
        work is { } w ? window.With(Metrics.AllocatedBytes, w.AllocatedBytes).With(Metrics.Collections, w.Collections) : window;

    /// <summary>Each window's runtime counters, once the samples covering the last window have arrived.</summary>
    public static async Task<IReadOnlyList<Measurement>> WithRuntimeCountersAsync(RuntimeCounterSession? counters, IReadOnlyList<Measurement> windows,
        CancellationToken cancellationToken)
    {
        if (counters is null || windows.Count == 0) return windows;
        static DateTimeOffset? End(Measurement m) => m.WindowStartedAt?.AddSeconds(m.ElapsedSeconds);
        if (windows.Select(End).Max() is DateTimeOffset last) await counters.WaitForSamplesAsync(last, cancellationToken);
        return windows.Select(m => m.WindowStartedAt is DateTimeOffset start ? WithCollector(m with { RuntimeCounters = counters.Window(start, End(m)!.Value) },
            counters.Collector(start, End(m)!.Value)) : m).ToList();
    }
}
