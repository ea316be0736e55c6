using System.IO;

namespace Comparator.Measuring;

/// <summary>
/// Whether this machine lets the comparator count the CPU's instructions, asked once by opening one counter
/// on itself, and if not, one line that says which obstacle and how to remove it: never a silent zero.
/// </summary>
public sealed record CpuCounterAvailability(bool Available, string Line)
{
    public const string Switch = "--counters";

    /// <summary>What the run says when asked not to count (--counters off).</summary>
    public static readonly CpuCounterAvailability Off = new(false, $"CPU counters: off ({Switch} off): instructions and cycles per request are not counted");

    /// <summary>Opens an instructions counter (user mode, then kernel mode) on this process and closes it again.</summary>
    public static CpuCounterAvailability Probe()
    {
        if (!OperatingSystem.IsLinux())
            return new(false, $"CPU counters: not read on {OsName()}: the comparator counts instructions through Linux's perf_event_open " +
                              "(on Windows, ETW's PMU sampling needs an elevated session this comparator does not start); every other figure is measured");
        var user = PerfEventOpen.Open(CpuCounterEvent.InstructionsUser, 0, inherit: false, out var errno);
        if (user < 0) return new(false, "CPU counters: " + Explain(errno, CpuCounterEvent.InstructionsUser) + "; every other figure is measured");
        PerfEventOpen.Close(user);
        var kernel = PerfEventOpen.Open(CpuCounterEvent.InstructionsKernel, 0, inherit: false, out var kernelErrno);
        if (kernel >= 0) PerfEventOpen.Close(kernel);
        return new(true, "CPU counters: instructions (user and kernel" + (kernel >= 0 ? "" : " not: " + Explain(kernelErrno, CpuCounterEvent.InstructionsKernel)) +
                         "), cycles, branch and cache misses per request, every thread of each target's process (perf_event_open, inherited by new threads)");
    }

    /// <summary>What an errno of perf_event_open means for a counter, and the step that would allow it.</summary>
    public static string Explain(int errno, CpuCounterEvent e) => errno switch
    {
        PerfEventOpen.ENOENT or PerfEventOpen.EOPNOTSUPP or PerfEventOpen.ENODEV when e.Type == 0 && e.Config == CpuCounterEvent.InstructionsUser.Config =>
            "not available: this CPU or virtual machine exposes no hardware counters (no PMU; `perf stat -e instructions true` prints <not supported>); " +
            "on a VM, give the guest the host's PMU (KVM/libvirt: cpu mode host-passthrough with pmu on; VMware: virtualize CPU performance counters; a cloud instance type with a virtual PMU)",
        PerfEventOpen.ENOENT or PerfEventOpen.EOPNOTSUPP or PerfEventOpen.ENODEV or PerfEventOpen.EINVAL => "not on this PMU",
        PerfEventOpen.EACCES or PerfEventOpen.EPERM =>
            $"not permitted: kernel.perf_event_paranoid is {Paranoid() ?? "unknown"}" +
            (e.User ? "; allow it with `sudo sysctl -w kernel.perf_event_paranoid=2` (or run as root, or grant CAP_PERFMON); in a container, also a seccomp profile that allows perf_event_open"
                    : "; kernel-mode counts need `sudo sysctl -w kernel.perf_event_paranoid=1` (or root, or CAP_PERFMON)"),
        PerfEventOpen.ENOSYS => "not available: this kernel or architecture has no perf_event_open (CONFIG_PERF_EVENTS)",
        _ => $"not available: perf_event_open failed with errno {errno}",
    };

    private static string? Paranoid()
    {
        try { return File.ReadAllText("/proc/sys/kernel/perf_event_paranoid").Trim(); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) { return null; }
    }

    private static string OsName() => OperatingSystem.IsWindows() ? "Windows" : OperatingSystem.IsMacOS() ? "macOS" : "this OS";
}
