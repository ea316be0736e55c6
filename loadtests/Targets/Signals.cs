using System.Runtime.InteropServices;

namespace Comparator.Targets;

/// <summary>POSIX signals to child processes (Process.Kill sends only SIGKILL).</summary>
internal static partial class Signals
{
    private const int SIGINT = 2;
    private const int SIGTERM = 15;
    private const int SIGCONT = 18;
    private const int SIGKILL = 9;

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int signal);

    /// <summary>Asks a process to stop cleanly; false when it could not be signalled.</summary>
    public static bool Terminate(int pid) => !OperatingSystem.IsWindows() && Kill(pid, SIGTERM) == 0;

    /// <summary>SIGTERM to every process of a process group (kill(-PGID)).</summary>
    public static bool TerminateGroup(int group) => !OperatingSystem.IsWindows() && Kill(-group, SIGTERM) == 0;

    /// <summary>SIGKILL to every process of a process group.</summary>
    public static bool KillGroup(int group) => !OperatingSystem.IsWindows() && Kill(-group, SIGKILL) == 0;

    /// <summary>Interrupts a process as Ctrl+C does (SIGINT): perf record then writes its file and exits.</summary>
    public static bool Interrupt(int pid) => !OperatingSystem.IsWindows() && Kill(pid, SIGINT) == 0;

    /// <summary>Lets a stopped process run on (SIGCONT).</summary>
    public static bool Continue(int pid) => !OperatingSystem.IsWindows() && Kill(pid, SIGCONT) == 0;
}
