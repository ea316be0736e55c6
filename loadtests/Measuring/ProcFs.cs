using System.IO;

namespace Comparator.Measuring;

/// <summary>
/// What Linux's /proc tells that System.Diagnostics.Process does not: context switches of every
/// thread, the CPUs a process may run on, the machine's busy time (/proc/stat). Its CPU and memory
/// readers (stat utime+stime, status VmHWM and VmRSS) are kept only as the reference the Process
/// figures are checked against on Linux (ProcessSamplerTests); ProcessSampler reads those through
/// the Process API, as on every OS. Every reader returns null off Linux or when the file is gone.
/// </summary>
public static class ProcFs
{
    /// <summary>USER_HZ, 100 on Linux: /proc's CPU times count 10 ms ticks.</summary>
    public const double TicksPerSecond = 100.0;

    /// <summary>User+system CPU seconds of the process so far (stat fields 14 and 15).</summary>
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
    /// system + irq + softirq + steal (idle and iowait left out).
    /// </summary>
    public static double? MachineBusySeconds() => CpuTimes()?.Busy;

    /// <summary>/proc/stat's first line: the busy seconds of every core (as <see cref="MachineBusySeconds"/>) and, of them, the steal (its eighth field).</summary>
    public static (double Busy, double Steal)? CpuTimes()
    {
        try
        {
            var fields = File.ReadLines("/proc/stat").First().Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (fields[0] != "cpu") return null;
            long Field(int i) => i < fields.Length ? long.Parse(fields[i], CultureInfo.InvariantCulture) : 0;
            return ((Field(1) + Field(2) + Field(3) + Field(6) + Field(7) + Field(8)) / TicksPerSecond, Field(8) / TicksPerSecond);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or InvalidOperationException)
        {
            return null;
        }
    }

    /// <summary>Peak resident set size (VmHWM) in MiB.</summary>
    public static double? PeakRssMb(int pid) => StatusMb(pid, "VmHWM:");

    /// <summary>Resident set size now (VmRSS) in MiB.</summary>
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

    /// <summary>
    /// Context switches so far of every thread of the process (voluntary, involuntary), its thread count
    /// and the CPUs it may run on, from /proc/PID/task/*/status. /proc/PID/status alone counts the main
    /// thread only, which on a thread-pool server is the idle one.
    /// </summary>
    public static (long Voluntary, long Involuntary, int Threads, string? CpusAllowed)? ThreadSwitches(int pid)
    {
        if (!OperatingSystem.IsLinux()) return null;
        try
        {
            long voluntary = 0, involuntary = 0;
            var threads = 0;
            foreach (var task in Directory.EnumerateDirectories($"/proc/{pid}/task"))
            {
                try
                {
                    foreach (var line in File.ReadLines(Path.Combine(task, "status")))
                    {
                        if (line.StartsWith("voluntary_ctxt_switches:", StringComparison.Ordinal)) voluntary += Value(line);
                        else if (line.StartsWith("nonvoluntary_ctxt_switches:", StringComparison.Ordinal)) involuntary += Value(line);
                    }
                    threads++;
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                {
                    // the thread exited between the listing and the read
                }
            }
            return threads == 0 ? null : (voluntary, involuntary, threads, CpusAllowed(pid));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }

        static long Value(string line) => long.Parse(line[(line.IndexOf(':') + 1)..].Trim(), CultureInfo.InvariantCulture);
    }

    /// <summary>The CPUs the process may run on (Cpus_allowed_list, such as "1" or "0-1").</summary>
    public static string? CpusAllowed(int pid)
    {
        try
        {
            var line = File.ReadLines($"/proc/{pid}/status").FirstOrDefault(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal));
            return line?["Cpus_allowed_list:".Length..].Trim();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
