using System.Diagnostics;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;

namespace Comparator.Targets;

/// <summary>
/// Starting a target so that the CPU's counters see every thread it will ever have: the start goes
/// through `/bin/sh -c 'read -r _ || exit 1; exec "$0" "$@"'`, which waits on a line of its stdin before
/// the target's first instruction; the counters open on that one waiting thread with inheritance, then
/// the line lets the shell exec the target in the same process (same pid, same stdin and stdout). Every
/// thread of the runtime then descends from a counted thread. Without counters the start is the plain one.
/// A wait on stdin rather than a stop (SIGSTOP, as this once was): a stopped shell whose comparator died
/// before continuing it stayed stopped for good (one was found after a CI run); a reading one sees its
/// stdin close with the comparator and exits, and nothing of the target ever starts.
/// </summary>
public static class CountedStart
{
    private const string Shell = "/bin/sh";
    private const string WaitThenExec = "read -r _ || exit 1; exec \"$0\" \"$@\"";

    /// <summary>What a target's note says of counters opened at its start.</summary>
    public const string CountedNote = "counted from its first instruction, every thread (inherited by the threads it starts)";

    /// <summary>Makes the start info stop before the target runs (Linux only; elsewhere nothing changes).</summary>
    public static bool Wrap(ProcessStartInfo info)
    {
        if (!OperatingSystem.IsLinux() || !File.Exists(Shell)) return false;
        var arguments = info.ArgumentList.ToList();
        info.ArgumentList.Clear();
        info.ArgumentList.Add("-c");
        info.ArgumentList.Add(WaitThenExec);
        info.ArgumentList.Add(info.FileName);
        foreach (var a in arguments) info.ArgumentList.Add(a);
        info.FileName = Shell;
        return true;
    }

    /// <summary>
    /// Once the wrapped process is started (the shell, one thread, waiting on its stdin or about to): opens its counters and
    /// lets it run on. Never leaves it waiting: a counter that cannot open is a note, and the target runs uncounted.
    /// </summary>
    public static Task<(CpuCounters? CpuCounters, string? Note)> OpenAndContinueAsync(Process process, CpuCounterSet set, CancellationToken cancellationToken)
    {
        try
        {
            if (process.HasExited) return Task.FromResult<(CpuCounters?, string?)>((null, "not counted: the process ended before its counters opened"));
            var counters = CpuCounters.OpenAtStart(process.Id, set);
            return Task.FromResult<(CpuCounters?, string?)>((counters, CountedNote + (counters.NotCounted.Count > 0 ? "; not counted: " + string.Join("; ", counters.NotCounted) : "")));
        }
        catch (CpuCounterException e)
        {
            return Task.FromResult<(CpuCounters?, string?)>((null, "not counted: " + e.Message));
        }
        finally
        {
            Release(process);
        }
    }

    /// <summary>The line the shell waits on: it then execs the target. A process already gone has no stdin to write to.</summary>
    private static void Release(Process process)
    {
        try
        {
            process.StandardInput.WriteLine();
            process.StandardInput.Flush();
        }
        catch (Exception e) when (e is IOException or InvalidOperationException or ObjectDisposedException)
        {
            // The shell has exited (its stdin's pipe is closed): the launch sees the exit and says so.
        }
    }
}
