using System.IO;
using System.Linq;

namespace Comparator.Tests;

/// <summary>The process table as the kernel sees it (/proc), for the tests that check nothing is left behind.</summary>
public static class ChildProcesses
{
    /// <summary>Processes whose parent is the given one.</summary>
    public static int[] Of(int parent) =>
        Directory.GetDirectories("/proc")
            .Select(d => int.TryParse(Path.GetFileName(d), out var pid) ? pid : 0)
            .Where(pid => pid > 0)
            .Where(pid =>
            {
                try { return File.ReadLines($"/proc/{pid}/status").Any(l => l == $"PPid:\t{parent}"); }
                catch (IOException) { return false; }
            })
            .ToArray();

    /// <summary>True while the process exists and is not a zombie waiting to be reaped.</summary>
    public static bool IsAlive(int pid)
    {
        try { return !File.ReadLines($"/proc/{pid}/status").Any(l => l.StartsWith("State:") && l.Contains("zombie")); }
        catch (IOException) { return false; }
    }

    /// <summary>Live processes whose command line or environment holds <paramref name="marker"/> (a word no other process has), this one's excepted.</summary>
    public static int[] WithCommandLine(string marker) =>
        Directory.GetDirectories("/proc")
            .Select(d => int.TryParse(Path.GetFileName(d), out var pid) ? pid : 0)
            .Where(pid => pid > 0 && pid != System.Environment.ProcessId && IsAlive(pid) && (CommandLine(pid).Contains(marker) || Environment(pid).Contains(marker)))
            .ToArray();

    private static string Environment(int pid)
    {
        try { return File.ReadAllText($"/proc/{pid}/environ"); }
        catch (System.Exception e) when (e is IOException or System.UnauthorizedAccessException) { return ""; }
    }

    public static string CommandLine(int pid)
    {
        try { return File.ReadAllText($"/proc/{pid}/cmdline").Replace('\0', ' '); }
        catch (IOException) { return ""; }
    }

    public static void Signal(int pid, int signal) => kill(pid, signal);

    [System.Runtime.InteropServices.DllImport("libc", SetLastError = true)]
    private static extern int kill(int pid, int sig);
}
