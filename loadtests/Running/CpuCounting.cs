using Comparator.Measuring;

namespace Comparator.Running;

/// <summary>
/// Whether a run counts the CPU's instructions, decided once per process: asked (--counters, on by default)
/// and possible here (<see cref="CounterAvailability.Probe"/>). The launcher opens the set on every target it
/// starts, a service given by URL whose process is found gets them attached, and the run records the line.
/// </summary>
public static class CpuCounting
{
    private static readonly Lazy<CounterAvailability> Probed = new(CounterAvailability.Probe);

    /// <summary>The events to count (null: none) and the one line that says what is counted, or which obstacle stops it and how to remove it.</summary>
    public static (CounterSet? Set, string Line) Resolve(bool asked)
    {
        if (!asked) return (null, CounterAvailability.Off.Line);
        var probe = Probed.Value;
        return (probe.Available ? CounterSet.Hardware : null, probe.Line);
    }

    /// <summary>What a service given by URL misses when its counters are attached to its running process rather than opened at its start.</summary>
    public const string AttachedNote = "counted from the window's start over the threads alive when attached and every thread they start " +
                                       "(a thread started in the instant of attaching is missed; a process the service forwards to is not counted)";

    /// <summary>The counters of a service given by URL whose process was found: attached now; null with why when they cannot be.</summary>
    public static (CpuCounters? Counters, string Note) AttachExternal(int? pid, CounterSet? set)
    {
        if (set is null) return (null, "not counted");
        if (pid is not int p) return (null, "not counted: no process of the service was found listening on its loopback port");
        try
        {
            var counters = CpuCounters.Attach(p, set);
            return (counters, AttachedNote + (counters.NotCounted.Count > 0 ? "; not counted: " + string.Join("; ", counters.NotCounted) : ""));
        }
        catch (CounterException e)
        {
            return (null, "not counted: " + e.Message);
        }
    }
}
