using System;
using System.Globalization;
using System.IO;
using System.Linq;

namespace Comparator.Measuring;

/// <summary>
/// CPU time and peak RSS of a process, read from /proc (Linux). CPU is user+system time in clock
/// ticks (USER_HZ, 100 on Linux), so a window's CPU has a resolution of 10 ms.
/// </summary>
public static class ProcessSampler
{
    private const double TicksPerSecond = 100.0;

    /// <summary>User+system CPU seconds of the process so far (stat fields 14 and 15), or null if it cannot be read.</summary>
    /// <summary>Whether a process of that id is running here (Linux: /proc; elsewhere: the OS's process table).</summary>
    public static bool Exists(int pid)
    {
        if (OperatingSystem.IsLinux()) return System.IO.Directory.Exists($"/proc/{pid}");
        try { using var p = System.Diagnostics.Process.GetProcessById(pid); return !p.HasExited; }
        catch (ArgumentException) { return false; }
    }

    public static double? CpuSeconds(int pid) => StatSeconds($"/proc/{pid}/stat", 14, 15);

    /// <summary>User+system CPU seconds of this process's children that have exited and been reaped (fields 16 and 17).</summary>
    public static double? ReapedChildrenCpuSeconds() => StatSeconds("/proc/self/stat", 16, 17);

    /// <summary>The sum of two clock-tick fields of a stat file (1-based field numbers, as in proc(5)), in seconds.</summary>
    private static double? StatSeconds(string path, int firstField, int secondField)
    {
        try
        {
            var stat = File.ReadAllText(path);
            // Field 2 (comm) may hold spaces; the fields after its closing parenthesis are fixed, starting at field 3.
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            var ticks = long.Parse(fields[firstField - 3], CultureInfo.InvariantCulture) + long.Parse(fields[secondField - 3], CultureInfo.InvariantCulture);
            return ticks / TicksPerSecond;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return null;
        }
    }

    /// <summary>
    /// Busy CPU seconds of every core so far, whoever used them: /proc/stat's first line, user + nice +
    /// system + irq + softirq + steal (idle and iowait left out); null off Linux.
    /// </summary>
    public static double? MachineBusySeconds()
    {
        try
        {
            var fields = File.ReadLines("/proc/stat").First().Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (fields[0] != "cpu") return null;
            long Field(int i) => i < fields.Length ? long.Parse(fields[i], CultureInfo.InvariantCulture) : 0;
            return (Field(1) + Field(2) + Field(3) + Field(6) + Field(7) + Field(8)) / TicksPerSecond;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or InvalidOperationException)
        {
            return null;
        }
    }

    /// <summary>Peak resident set size (VmHWM) in MiB, or null if it cannot be read.</summary>
    public static double? PeakRssMb(int pid) => StatusMb(pid, "VmHWM:");

    /// <summary>Resident set size now (VmRSS) in MiB, or null if it cannot be read.</summary>
    public static double? RssMb(int pid) => StatusMb(pid, "VmRSS:");

    private static double? StatusMb(int pid, string field)
    {
        try
        {
            foreach (var line in File.ReadLines($"/proc/{pid}/status"))
            {
                if (!line.StartsWith(field, StringComparison.Ordinal)) continue;
                var kb = long.Parse(line[field.Length..].Trim().Split(' ')[0], CultureInfo.InvariantCulture);
                return kb / 1024.0;
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
        }
        return null;
    }
}
