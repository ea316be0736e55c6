using System.Diagnostics;
using System.IO;

namespace Comparator.Targets;

/// <summary>
/// A command target and every process it starts, stopped together. On Linux it runs in a session of its own
/// (setsid execs it in place: same pid, and that pid is its process group's), and a watchdog, a shell
/// blocked reading a pipe only this process holds, ends the group when this process dies without stopping it
/// (SIGKILL closes the pipe): SIGTERM, then SIGKILL after the grace. Elsewhere the group is its process tree
/// (Windows: Process.Kill's tree walk), and no watchdog outlives this process.
/// </summary>
internal sealed class ProcessGroup : IDisposable
{
    private readonly int _id;
    private readonly Process? _watchdog;

    private ProcessGroup(int id, Process? watchdog) => (_id, _watchdog) = (id, watchdog);

    /// <summary>setsid, where a command can be given a session of its own (util-linux); null elsewhere.</summary>
    public static string? Setsid { get; } = OperatingSystem.IsLinux() ? Measuring.ToolPath.Find("setsid") : null;

    /// <summary>The program and arguments that run <paramref name="program"/> in a session of its own, where setsid exists.</summary>
    public static (string Program, IReadOnlyList<string> Arguments) InOwnSession(string program, IReadOnlyList<string> arguments) =>
        Setsid is string setsid ? (setsid, new[] { program }.Concat(arguments).ToList()) : (program, arguments);

    /// <summary>Watches the group led by <paramref name="leader"/> (started through <see cref="InOwnSession"/>) for this process's death.</summary>
    public static ProcessGroup Watch(Process leader, TimeSpan grace)
    {
        if (Setsid is null) return new ProcessGroup(leader.Id, null);
        var seconds = Math.Max(1, (int)Math.Ceiling(grace.TotalSeconds)).ToString(System.Globalization.CultureInfo.InvariantCulture);
        var info = new ProcessStartInfo("/bin/sh") { RedirectStandardInput = true, UseShellExecute = false };
        // Ctrl+C reaches this process's group, the watchdog's too: the comparator stops its targets itself then.
        info.ArgumentList.Add("-c");
        // dash's kill takes a group as a negative pid after the signal, without "--".
        info.ArgumentList.Add("trap '' INT HUP; read _ignored; kill -TERM -$0 2>/dev/null || exit 0; sleep $1; kill -KILL -$0 2>/dev/null; exit 0");
        info.ArgumentList.Add(leader.Id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        info.ArgumentList.Add(seconds);
        try
        {
            return new ProcessGroup(leader.Id, Process.Start(info));
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or IOException)
        {
            return new ProcessGroup(leader.Id, null);
        }
    }

    /// <summary>Whether the group is a real process group (Linux, setsid): signals reach every process in it.</summary>
    public bool IsGroup => Setsid is not null;

    /// <summary>SIGTERM to every process of the group (the leader alone where there is no group).</summary>
    public void Terminate()
    {
        if (IsGroup) Signals.TerminateGroup(_id);
        else Signals.Terminate(_id);
    }

    /// <summary>SIGKILL to every process of the group: what is left of it once its leader has gone, or all of it after the grace.</summary>
    public void Kill()
    {
        if (IsGroup) Signals.KillGroup(_id);
    }

    /// <summary>The group is stopped: the watchdog goes (killed, so that it never signals a group id used again).</summary>
    public void Dispose()
    {
        if (_watchdog is null) return;
        try { if (!_watchdog.HasExited) _watchdog.Kill(); } catch (InvalidOperationException) { }
        _watchdog.Dispose();
    }
}
