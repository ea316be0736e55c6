using System.Diagnostics;
using System.IO;

namespace Comparator.Measuring;

/// <summary>
/// Whether this machine lets the comparator count a target's system calls, asked once: the kernel's
/// raw_syscalls:sys_enter tracepoint, a software event that perf_event_open counts on any machine, PMU or not, with
/// the same inheriting counter as the CPU's events. Its id is read from tracefs; where tracefs is not mounted and this
/// process is root, it is mounted as perf mounts it. Otherwise one line says which obstacle, and the run goes on.
/// </summary>
public sealed record SystemCallCounting(CpuCounterEvent? Event, string Line)
{
    public const string Tracepoint = "raw_syscalls/sys_enter";

    private static readonly string[] TraceFs = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

    public static readonly SystemCallCounting Off = new(null, "system calls: off (--counters off): not counted");

    private static readonly Lazy<SystemCallCounting> Probed = new(Probe);

    /// <summary>The machine asked, once per process.</summary>
    public static SystemCallCounting Resolve(bool asked) => asked ? Probed.Value : Off;

    private static SystemCallCounting Probe()
    {
        if (!OperatingSystem.IsLinux())
            return new(null, "system calls: not counted on this OS: the comparator counts them through Linux's raw_syscalls tracepoint (perf_event_open)");
        var id = TracepointId() ?? (MountTraceFs() ? TracepointId() : null);
        if (id is null)
            return new(null, $"system calls: not counted: the tracepoint {Tracepoint} is not readable (tracefs is not mounted, or not ours to read); " +
                             "mount it with `sudo mount -t tracefs nodev /sys/kernel/tracing` (perf mounts it so), or run as root");
        var e = CpuCounterEvent.SystemCalls(id.Value);
        var fd = PerfEventOpen.Open(e, 0, inherit: false, out var errno);
        if (fd < 0) return new(null, "system calls: " + CpuCounterAvailability.Explain(errno, e));
        PerfEventOpen.Close(fd);
        return new(e, $"system calls: counted per request, every thread of each target's process from its first instruction (tracepoint {Tracepoint}, " +
                      "perf_event_open, inherited by new threads): entries into the kernel by call, not the time they took");
    }

    private static ulong? TracepointId()
    {
        foreach (var root in TraceFs)
        {
            try
            {
                var path = Path.Combine(root, "events", Tracepoint, "id");
                if (File.Exists(path) && ulong.TryParse(File.ReadAllText(path).Trim(), out var id)) return id;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException) { }
        }
        return null;
    }

    /// <summary>Mounts tracefs at its usual place when it is empty there and this process is root, as perf does; false otherwise.</summary>
    private static bool MountTraceFs()
    {
        const string place = "/sys/kernel/tracing";
        try
        {
            if (System.Environment.UserName != "root" || !Directory.Exists(place) || Directory.EnumerateFileSystemEntries(place).Any()) return false;
            var (exit, _) = ToolProcess.Capture(ToolPath.Find("mount") ?? "/bin/mount", "-t", "tracefs", "nodev", place);
            return exit == 0;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) { return false; }
    }
}
