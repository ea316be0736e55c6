using System.Diagnostics;

namespace Comparator.Targets;

/// <summary>
/// Last line of defence against orphans: every child still running when this process exits
/// (normally, or on an unhandled exception) is killed with its tree.
/// </summary>
internal static class ChildProcessGuard
{
    private static readonly HashSet<Process> Children = new();

    static ChildProcessGuard()
    {
        AppDomain.CurrentDomain.ProcessExit += (_, _) => KillAll();
        AppDomain.CurrentDomain.UnhandledException += (_, _) => KillAll();
    }

    public static void Track(Process process)
    {
        lock (Children) Children.Add(process);
        process.Exited += (_, _) => { lock (Children) Children.Remove(process); };
    }

    private static void KillAll()
    {
        Process[] alive;
        lock (Children) alive = new List<Process>(Children).ToArray();
        foreach (var p in alive)
        {
            try { if (!p.HasExited) p.Kill(entireProcessTree: true); } catch (Exception) { /* already gone */ }
        }
    }
}
