using System;
using System.Globalization;
using System.IO;

namespace Comparator.Measuring;

/// <summary>
/// CPU time and peak RSS of a process, read from /proc (Linux). CPU is user+system time in clock
/// ticks (USER_HZ, 100 on Linux), so a window's CPU has a resolution of 10 ms.
/// </summary>
public static class ProcessSampler
{
    private const double TicksPerSecond = 100.0;

    /// <summary>User+system CPU seconds of the process so far, or null if it cannot be read.</summary>
    public static double? CpuSeconds(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            // Field 2 (comm) may hold spaces; the fields after its closing parenthesis are fixed.
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            var utime = long.Parse(fields[11], CultureInfo.InvariantCulture); // field 14
            var stime = long.Parse(fields[12], CultureInfo.InvariantCulture); // field 15
            return (utime + stime) / TicksPerSecond;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return null;
        }
    }

    /// <summary>User+system CPU seconds of this process's children that have exited and been reaped.</summary>
    public static double? ReapedChildrenCpuSeconds()
    {
        try
        {
            var stat = File.ReadAllText("/proc/self/stat");
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            var cutime = long.Parse(fields[13], CultureInfo.InvariantCulture); // field 16
            var cstime = long.Parse(fields[14], CultureInfo.InvariantCulture); // field 17
            return (cutime + cstime) / TicksPerSecond;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return null;
        }
    }

    /// <summary>Peak resident set size (VmHWM) in MiB, or null if it cannot be read.</summary>
    public static double? PeakRssMb(int pid)
    {
        try
        {
            foreach (var line in File.ReadLines($"/proc/{pid}/status"))
            {
                if (!line.StartsWith("VmHWM:", StringComparison.Ordinal)) continue;
                var kb = long.Parse(line[6..].Trim().Split(' ')[0], CultureInfo.InvariantCulture);
                return kb / 1024.0;
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
        }
        return null;
    }
}
