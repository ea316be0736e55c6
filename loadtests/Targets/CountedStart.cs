using System.Diagnostics;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;

namespace Comparator.Targets;

/// <summary>
/// Starting a target so that the CPU's counters see every thread it will ever have: the start goes
/// through `/bin/sh -c 'kill -STOP $$; exec "$0" "$@"'`, which stops itself before the target's first
/// instruction; the counters open on that one stopped thread with inheritance, then SIGCONT lets the
/// shell exec the target in the same process (same pid, same stdin and stdout). Every thread of the
/// runtime then descends from a counted thread. Without counters the start is the plain one.
/// </summary>
internal static class CountedStart
{
    private const string Shell = "/bin/sh";
    private const string StopThenExec = "kill -STOP $$; exec \"$0\" \"$@\"";
    private static readonly TimeSpan StopWait = TimeSpan.FromSeconds(5);

    /// <summary>What a target's note says of counters opened at its start.</summary>
    public const string CountedNote = "counted from its first instruction, every thread (inherited by the threads it starts)";

    /// <summary>Makes the start info stop before the target runs (Linux only; elsewhere nothing changes).</summary>
    public static bool Wrap(ProcessStartInfo info)
    {
        if (!OperatingSystem.IsLinux() || !File.Exists(Shell)) return false;
        var arguments = info.ArgumentList.ToList();
        info.ArgumentList.Clear();
        info.ArgumentList.Add("-c");
        info.ArgumentList.Add(StopThenExec);
        info.ArgumentList.Add(info.FileName);
        foreach (var a in arguments) info.ArgumentList.Add(a);
        info.FileName = Shell;
        return true;
    }

    /// <summary>
    /// Once the wrapped process has stopped itself: opens its counters and lets it run on. Never leaves
    /// it stopped: a counter that cannot open is a note, and the target runs uncounted.
    /// </summary>
    public static async Task<(CpuCounters? CpuCounters, string? Note)> OpenAndContinueAsync(Process process, CpuCounterSet set, CancellationToken cancellationToken)
    {
        try
        {
            var deadline = DateTime.UtcNow + StopWait;
            while (!Stopped(process.Id))
            {
                if (process.HasExited) return (null, "not counted: the process ended before its counters opened");
                if (DateTime.UtcNow > deadline) return (null, $"not counted: the start shell did not stop within {StopWait.TotalSeconds:0} s");
                await Task.Delay(1, cancellationToken);
            }
            var counters = CpuCounters.OpenAtStart(process.Id, set);
            return (counters, CountedNote + (counters.NotCounted.Count > 0 ? "; not counted: " + string.Join("; ", counters.NotCounted) : ""));
        }
        catch (CpuCounterException e)
        {
            return (null, "not counted: " + e.Message);
        }
        catch (OperationCanceledException)
        {
            return (null, "not counted: start cancelled");
        }
        finally
        {
            Signals.Continue(process.Id);
        }
    }

    /// <summary>Whether /proc/PID/stat's state is T (stopped by a signal).</summary>
    private static bool Stopped(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            var afterName = stat.LastIndexOf(')');
            return afterName > 0 && afterName + 2 < stat.Length && stat[afterName + 2] is 'T' or 't';
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
