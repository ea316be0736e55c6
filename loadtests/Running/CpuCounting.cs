using Comparator.Measuring;

namespace Comparator.Running;

/// <summary>
/// Whether a run counts the CPU's instructions: asked (--counters, on by default) and possible here
/// (<see cref="CpuCounterAvailability.Probe"/>, probed once per process when the options are built). The launcher
/// opens <paramref name="Set"/> on every target it starts, a service given by URL whose process is found gets
/// them attached, and the run records <paramref name="Line"/>.
/// </summary>
/// <param name="Set">the events to count; null: none</param>
/// <param name="Line">what is counted, or which obstacle stops it and how to remove it</param>
/// <param name="SystemCallsLine">whether each target's system calls are counted (the raw_syscalls tracepoint, in <paramref name="Set"/>), or why not</param>
public sealed record CpuCounting(CpuCounterSet? Set, string Line, string? SystemCallsLine = null)
{
    /// <summary>Whether the CPU's counters count here (the system-call count needs no PMU and is not one of them).</summary>
    public bool Available => Set?.CountsCpu == true;

    private static readonly Lazy<CpuCounterAvailability> Probed = new(CpuCounterAvailability.Probe);

    /// <summary>Nothing counted, as --counters off asks.</summary>
    public static CpuCounting Off => new(null, CpuCounterAvailability.Off.Line, SystemCallCounting.Off.Line);

    /// <summary>The machine asked, once: what it can count where counting is asked; the system calls wherever the counters are not off.</summary>
    public static CpuCounting Resolve(bool asked, bool systemCalls = false)
    {
        var calls = SystemCallCounting.Resolve(systemCalls);
        if (!asked) return new(CpuCounterSet.Of(null, calls.Event), CpuCounterAvailability.Off.Line, calls.Line);
        var probe = Probed.Value;
        return new(CpuCounterSet.Of(probe.Available ? CpuCounterSet.Hardware : null, calls.Event), probe.Line, calls.Line);
    }

    /// <summary>What a service given by URL misses when its counters are attached to its running process rather than opened at its start.</summary>
    public const string AttachedNote = "counted from the window's start over the threads alive when attached and every thread they start " +
                                       "(a thread started in the instant of attaching is missed; a process the service forwards to is not counted)";

    /// <summary>The counters of a service given by URL whose process was found: attached now; null with why when they cannot be.</summary>
    public static (CpuCounters? CpuCounters, string Note) AttachExternal(int? pid, CpuCounterSet? set)
    {
        if (set is null) return (null, "not counted");
        if (pid is not int p) return (null, "not counted: no process of the service was found listening on its loopback port");
        try
        {
            var counters = CpuCounters.Attach(p, set);
            return (counters, AttachedNote + (counters.NotCounted.Count > 0 ? "; not counted: " + string.Join("; ", counters.NotCounted) : ""));
        }
        catch (CpuCounterException e)
        {
            return (null, "not counted: " + e.Message);
        }
    }
}
