using System.ComponentModel;
using System.Diagnostics;

namespace Comparator.Measuring;

/// <summary>
/// CPU time and memory of a process, and the machine's busy time, the same way on every OS: CPU and
/// memory through System.Diagnostics.Process (on Linux it reads the same /proc counters, in 10 ms
/// ticks; on Windows GetProcessTimes and the working set), so the path Windows takes runs and is
/// tested on Linux too. /proc stays only for what the Process API lacks (ProcFs): context switches
/// per thread and the machine's busy time on Linux; Windows gives the latter through GetSystemTimes.
/// Every figure is null where it cannot be read (the process is gone, another user's, another OS).
/// </summary>
public static class ProcessSampler
{
    private const double BytesPerMiB = 1024.0 * 1024.0;

    /// <summary>Whether a process of that id is running here (Linux: /proc; elsewhere: the OS's process table).</summary>
    public static bool Exists(int pid)
    {
        if (OperatingSystem.IsLinux()) return System.IO.Directory.Exists($"/proc/{pid}");
        try { using var p = Process.GetProcessById(pid); return !p.HasExited; }
        catch (ArgumentException) { return false; }
    }

    /// <summary>User+system CPU seconds of the process so far (Process.TotalProcessorTime).</summary>
    public static double? CpuSeconds(int pid) => Read(pid, p => p.TotalProcessorTime.TotalSeconds);

    /// <summary>Peak resident set size in MiB (Process.PeakWorkingSet64: VmHWM on Linux, the peak working set on Windows).</summary>
    public static double? PeakRssMb(int pid) => Read(pid, p => p.PeakWorkingSet64 / BytesPerMiB);

    /// <summary>Resident set size now in MiB (Process.WorkingSet64).</summary>
    public static double? RssMb(int pid) => Read(pid, p => p.WorkingSet64 / BytesPerMiB);

    private static double? Read(int pid, Func<Process, double> figure)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            process.Refresh();
            return figure(process);
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or Win32Exception or NotSupportedException)
        {
            return null; // gone, exited between the look-up and the read, or not ours to read
        }
    }

    /// <summary>
    /// Busy CPU seconds of every core so far, whoever used them: /proc/stat on Linux (ProcFs), GetSystemTimes
    /// on Windows; null elsewhere. The Process API has no machine-wide figure.
    /// </summary>
    public static double? MachineBusySeconds() =>
        OperatingSystem.IsLinux() ? ProcFs.MachineBusySeconds()
        : OperatingSystem.IsWindows() ? WindowsSystemTimes.BusySeconds()
        : null;

    /// <summary>
    /// The machine's busy seconds (<see cref="MachineBusySeconds"/>) and the seconds the hypervisor gave its cores to other
    /// guests so far (/proc/stat's steal, Linux only), from one read.
    /// </summary>
    public static (double? Busy, double? Steal) MachineTimes() =>
        OperatingSystem.IsLinux() && ProcFs.CpuTimes() is { } t ? (t.Busy, t.Steal) : (MachineBusySeconds(), null);

    /// <summary>
    /// Context switches so far of every thread of the process (voluntary, involuntary), its thread count
    /// and the CPUs it may run on; Linux only (/proc/PID/task/*/status): the Process API has no switch
    /// counts, and Windows keeps them only as per-thread performance counters.
    /// </summary>
    public static (long Voluntary, long Involuntary, int Threads, string? CpusAllowed)? ThreadSwitches(int pid) => ProcFs.ThreadSwitches(pid);

    /// <summary>
    /// The CPUs the process may run on ("1", "0-1"), read back to show where it ran: /proc's
    /// Cpus_allowed_list on Linux (the Process API reads only the main thread's there), the process's
    /// affinity mask on Windows.
    /// </summary>
    public static string? CpusAllowed(int pid)
    {
        if (OperatingSystem.IsLinux()) return ProcFs.CpusAllowed(pid);
        if (!OperatingSystem.IsWindows()) return null;
        try
        {
            using var process = Process.GetProcessById(pid);
            return CpuAffinity.ListOf(process.ProcessorAffinity);
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or Win32Exception)
        {
            return null;
        }
    }
}
