using System.Diagnostics;
using Comparator.Errors;

namespace Comparator.Measuring;

/// <summary>
/// Placing processes on CPUs given as a taskset list (0, 0-1, 0,2): taskset on Linux, the process
/// affinity mask (Process.ProcessorAffinity) on Windows. Linux keeps taskset because there
/// ProcessorAffinity calls sched_setaffinity on the process id, which moves only the main thread:
/// threads already running stay where they were, and `taskset -a` moves every one of them.
/// </summary>
public static class CpuAffinity
{
    /// <summary>
    /// Sets the start info to run the program on those CPUs: under `taskset -c` on Linux (the runtime then
    /// sees only them from its first instruction); on Windows the program itself, placed by <see cref="Place"/>
    /// once started, and told its CPU count through DOTNET_PROCESSOR_COUNT (a .NET runtime sizes its thread
    /// pool before the mask is set; .NET Framework ignores the variable). Arguments are added after this.
    /// </summary>
    public static void RunOn(ProcessStartInfo info, string program, string? cpus)
    {
        if (cpus is null || !OperatingSystem.IsLinux())
        {
            info.FileName = program;
            if (cpus is not null && OperatingSystem.IsWindows())
                info.Environment["DOTNET_PROCESSOR_COUNT"] = Expand(cpus).Count.ToString(CultureInfo.InvariantCulture);
            return;
        }
        info.FileName = ToolProcess.Locate("taskset", "util-linux");
        info.ArgumentList.Add("-c");
        info.ArgumentList.Add(cpus);
        info.ArgumentList.Add(program);
    }

    /// <summary>Windows: puts a process started by <see cref="RunOn"/> on its CPUs (a no-op elsewhere, where taskset did it).</summary>
    public static void Place(Process process, string? cpus)
    {
        if (cpus is null || !OperatingSystem.IsWindows()) return;
        try
        {
            process.ProcessorAffinity = Mask(cpus);
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception && process.HasExited)
        {
            // it finished before it could be placed: nothing left to place
        }
    }

    /// <summary>Every thread of this process onto these CPUs, and the threads it makes later; one line if it cannot be done.</summary>
    public static void MoveThisProcess(string cpus, string flag)
    {
        if (OperatingSystem.IsWindows())
        {
            using var self = Process.GetCurrentProcess();
            self.ProcessorAffinity = Mask(cpus);
            return;
        }
        if (!OperatingSystem.IsLinux())
            throw new SettingsException($"run: {flag} places processes on CPUs through taskset (Linux) or processor affinity (Windows); this OS has neither here");
        var taskset = ToolProcess.Locate("taskset", "util-linux");
        using var p = Process.Start(new ProcessStartInfo(taskset) { ArgumentList = { "-a", "-p", "-c", cpus, Environment.ProcessId.ToString(CultureInfo.InvariantCulture) }, RedirectStandardOutput = true })!;
        p.WaitForExit();
        if (p.ExitCode != 0) throw new SettingsException($"run: {flag}: taskset could not move the comparator to CPU {cpus}");
    }

    /// <summary>The affinity mask of a CPU list: bit N for CPU N. Windows masks hold 64 CPUs (one processor group).</summary>
    public static nint Mask(string cpus)
    {
        long mask = 0;
        foreach (var cpu in Expand(cpus))
        {
            if (cpu >= 64) throw new SettingsException($"run: CPU {cpu}: processor affinity reaches CPUs 0-63 only (one processor group)");
            mask |= 1L << cpu;
        }
        return (nint)mask;
    }

    /// <summary>The CPUs of a taskset list ("0-2,5" is 0, 1, 2, 5).</summary>
    public static IReadOnlyList<int> Expand(string list) => list.Split(',').SelectMany(range =>
    {
        var ends = range.Split('-').Select(e => int.Parse(e, CultureInfo.InvariantCulture)).ToArray();
        return Enumerable.Range(ends[0], (ends.Length == 2 ? ends[1] : ends[0]) - ends[0] + 1);
    }).Distinct().OrderBy(c => c).ToList();

    /// <summary>A mask as a CPU list, ranges joined ("0-1", "0,2"), as /proc's Cpus_allowed_list writes it.</summary>
    public static string ListOf(nint mask)
    {
        var cpus = Enumerable.Range(0, 64).Where(c => ((long)mask & (1L << c)) != 0).ToList();
        var ranges = new List<string>();
        for (var i = 0; i < cpus.Count;)
        {
            var j = i;
            while (j + 1 < cpus.Count && cpus[j + 1] == cpus[j] + 1) j++;
            ranges.Add(i == j ? $"{cpus[i]}" : $"{cpus[i]}-{cpus[j]}");
            i = j + 1;
        }
        return string.Join(",", ranges);
    }
}
