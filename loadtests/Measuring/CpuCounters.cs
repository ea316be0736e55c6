using System.IO;
using System.Runtime.InteropServices;

namespace Comparator.Measuring;

/// <summary>One event a counter counts: a hardware event of the CPU's PMU, or a software one or a tracepoint of the kernel's.</summary>
/// <param name="Name">its name in results ("instructionsUser"), which is also the figure it fills</param>
/// <param name="Type">perf_event_attr.type: 0 hardware, 1 software, 2 a tracepoint</param>
/// <param name="Config">perf_event_attr.config: the event within its type</param>
/// <param name="User">counts user mode</param>
/// <param name="Kernel">counts kernel mode</param>
public sealed record CpuCounterEvent(string Name, uint Type, ulong Config, bool User = true, bool Kernel = true)
{
    public static readonly CpuCounterEvent InstructionsUser = new("instructionsUser", 0, 1, Kernel: false);
    public static readonly CpuCounterEvent InstructionsKernel = new("instructionsKernel", 0, 1, User: false);
    public static readonly CpuCounterEvent Cycles = new("cycles", 0, 0);
    public static readonly CpuCounterEvent BranchMisses = new("branchMisses", 0, 5);
    public static readonly CpuCounterEvent CacheMisses = new("cacheMisses", 0, 3);
    /// <summary>The load driver's instructions, user and kernel together: counted on the comparator's own process (and the tools it starts) over a window.</summary>
    public static readonly CpuCounterEvent DriverInstructions = new("driverInstructions", 0, 1);
    /// <summary>The kernel's own clock of a task's time on a CPU, in ns: counted on every Linux, PMU or not (the tests' proof of inheritance).</summary>
    public static readonly CpuCounterEvent TaskClock = new("taskClockNs", 1, 1);

    /// <summary>The kernel's raw_syscalls:sys_enter tracepoint (type 2, its id from tracefs): every system call entered, counted on any machine.</summary>
    public static CpuCounterEvent SystemCalls(ulong tracepointId) => new("systemCalls", 2, tracepointId);

    /// <summary>Whether the CPU's PMU counts it (a hardware event), rather than the kernel (a software event or a tracepoint).</summary>
    public bool NeedsPmu => Type == 0;
}

/// <summary>Which events a target's counters count: the CPU's (instructions first), or the task clock alone where a test needs no PMU.</summary>
public sealed record CpuCounterSet(IReadOnlyList<CpuCounterEvent> Events)
{
    /// <summary>Instructions (user and kernel apart), cycles, branch and cache misses: what a cost gap is made of.</summary>
    public static readonly CpuCounterSet Hardware = new(new[]
    {
        CpuCounterEvent.InstructionsUser, CpuCounterEvent.InstructionsKernel, CpuCounterEvent.Cycles, CpuCounterEvent.BranchMisses, CpuCounterEvent.CacheMisses,
    });

    public static readonly CpuCounterSet TaskClockOnly = new(new[] { CpuCounterEvent.TaskClock });

    /// <summary>These events and <paramref name="more"/>, or null where there is none to count.</summary>
    public static CpuCounterSet? Of(CpuCounterSet? set, CpuCounterEvent? more)
    {
        var events = (set?.Events ?? Array.Empty<CpuCounterEvent>()).Concat(more is null ? Array.Empty<CpuCounterEvent>() : new[] { more }).ToList();
        return events.Count == 0 ? null : new CpuCounterSet(events);
    }

    /// <summary>Whether any of its events is the CPU's own (needs a PMU).</summary>
    public bool CountsCpu => Events.Any(e => e.NeedsPmu);

    /// <summary>The driver's side: its instructions alone, one counter per thread of the comparator's process.</summary>
    public static readonly CpuCounterSet Driver = new(new[] { CpuCounterEvent.DriverInstructions });
}

/// <summary>A counter's three values as read: its count, and how long it was enabled and actually on the PMU (less when multiplexed).</summary>
public readonly record struct CpuCounterValue(ulong Count, ulong EnabledNs, ulong RunningNs)
{
    public static CpuCounterValue operator +(CpuCounterValue a, CpuCounterValue b) => new(a.Count + b.Count, a.EnabledNs + b.EnabledNs, a.RunningNs + b.RunningNs);
}

/// <summary>
/// The counts of one window: each event's count over it, scaled by enabled/running where the kernel had
/// to share the PMU's registers between events (then <see cref="Multiplexed"/> says so: the count is an estimate).
/// </summary>
public sealed record CpuCounterWindow(IReadOnlyDictionary<string, double> Counts, bool Multiplexed)
{
    public static CpuCounterWindow Between(IReadOnlyDictionary<string, CpuCounterValue> before, IReadOnlyDictionary<string, CpuCounterValue> after)
    {
        var counts = new Dictionary<string, double>();
        var multiplexed = false;
        foreach (var (name, end) in after)
        {
            if (!before.TryGetValue(name, out var start)) continue;
            double count = end.Count - start.Count, enabled = end.EnabledNs - start.EnabledNs, running = end.RunningNs - start.RunningNs;
            if (end.Count < start.Count || running <= 0) continue; // never on the PMU in the window: no figure rather than a guess
            if (running < enabled * 0.999) { multiplexed = true; count *= enabled / running; }
            counts[name] = count;
        }
        return new CpuCounterWindow(counts, multiplexed);
    }
}

/// <summary>What a window's counts are read from: the CPU's counters of a process, or a test's values.</summary>
public interface ICpuCounterReader
{
    /// <summary>Every counted event's values now, by its name (its figure's id).</summary>
    IReadOnlyDictionary<string, CpuCounterValue> Read();
}

/// <summary>
/// The CPU's own counters of one process, every thread: one small room around Linux's perf_event_open
/// (no maintained .NET library counts a child process's instructions). Counted with inheritance, so a
/// thread the process starts later is counted too and its counts, while it runs and after it ends, are
/// read through the counter it inherited from (the kernel sums a counter's children into its reads).
/// <see cref="OpenAtStart"/> opens on a process stopped before its first instruction (every thread
/// it will ever have descends from it); <see cref="Attach"/> on a process already running opens on
/// each thread alive then, so a thread started in the instant between listing and opening is missed.
/// </summary>
public sealed class CpuCounters : ICpuCounterReader, IDisposable
{
    private readonly List<(CpuCounterEvent Event, int Fd)> _fds;

    private CpuCounters(List<(CpuCounterEvent, int)> fds, IReadOnlyList<string> notCounted)
    {
        _fds = fds;
        NotCounted = notCounted;
    }

    /// <summary>The events of the set this process's PMU or permissions could not count, with why ("cacheMisses: not on this PMU").</summary>
    public IReadOnlyList<string> NotCounted { get; }

    /// <summary>The events counted.</summary>
    public IReadOnlyList<string> Counted => _fds.Select(f => f.Event.Name).Distinct().ToList();

    /// <summary>Counts every thread the (stopped, single-threaded) process will ever have: call before it runs on.</summary>
    public static CpuCounters OpenAtStart(int pid, CpuCounterSet set) => Open(new[] { pid }, set);

    /// <summary>Counts a running process from now: every thread alive and every thread they start.</summary>
    public static CpuCounters Attach(int pid, CpuCounterSet set)
    {
        var threads = Directory.Exists($"/proc/{pid}/task")
            ? Directory.EnumerateDirectories($"/proc/{pid}/task").Select(d => int.TryParse(Path.GetFileName(d), out var t) ? t : 0).Where(t => t > 0).ToList()
            : new List<int>();
        if (threads.Count == 0) throw new CpuCounterException($"process {pid} is gone or not ours to read (/proc/{pid}/task)");
        return Open(threads, set);
    }

    private static CpuCounters Open(IReadOnlyList<int> threads, CpuCounterSet set)
    {
        var fds = new List<(CpuCounterEvent, int)>();
        var notCounted = new List<string>();
        foreach (var e in set.Events)
        {
            var opened = new List<int>();
            int errno = 0;
            foreach (var tid in threads)
            {
                var fd = PerfEventOpen.Open(e, tid, inherit: true, out errno);
                if (fd >= 0) opened.Add(fd);
                else if (errno != PerfEventOpen.ESRCH) break; // a thread gone since the listing is no failure; anything else is the event's
            }
            if (opened.Count == 0 || errno is not (0 or PerfEventOpen.ESRCH))
            {
                foreach (var fd in opened) PerfEventOpen.Close(fd);
                notCounted.Add($"{e.Name}: {CpuCounterAvailability.Explain(errno, e)}");
                continue;
            }
            fds.AddRange(opened.Select(fd => (e, fd)));
        }
        if (fds.Count == 0) throw new CpuCounterException(string.Join("; ", notCounted));
        return new CpuCounters(fds, notCounted);
    }

    /// <summary>Every counted event's values now, summed over the threads it was opened on (each with its children).</summary>
    public IReadOnlyDictionary<string, CpuCounterValue> Read()
    {
        var values = new Dictionary<string, CpuCounterValue>();
        foreach (var (e, fd) in _fds)
        {
            if (PerfEventOpen.Read(fd) is not CpuCounterValue v) continue;
            values[e.Name] = values.TryGetValue(e.Name, out var sum) ? sum + v : v;
        }
        return values;
    }

    public void Dispose()
    {
        foreach (var (_, fd) in _fds) PerfEventOpen.Close(fd);
        _fds.Clear();
    }
}

/// <summary>A process's counters could not be opened at all; the message says why.</summary>
public sealed class CpuCounterException(string message) : Exception(message);

/// <summary>The system call and its record (linux/perf_event.h), nothing else.</summary>
public static unsafe partial class PerfEventOpen
{
    public const int EPERM = 1, ENOENT = 2, ESRCH = 3, EACCES = 13, ENODEV = 19, EINVAL = 22, ENOSYS = 38, EOPNOTSUPP = 95;
    private const ulong FlagFdCloexec = 8; // PERF_FLAG_FD_CLOEXEC: a target started later must not inherit another's counters
    private const ulong ReadFormat = 1 | 2; // PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING
    private const int AttrSize = 64; // PERF_ATTR_SIZE_VER0: every kernel with perf events takes it

    /// <summary>The fields of perf_event_attr this room sets; every other field is zero.</summary>
    [StructLayout(LayoutKind.Explicit, Size = AttrSize)]
    public struct Attr
    {
        [FieldOffset(0)] public uint Type;
        [FieldOffset(4)] public uint Size;
        [FieldOffset(8)] public ulong Config;
        [FieldOffset(32)] public ulong ReadFormat;
        [FieldOffset(40)] public ulong Flags;
    }

    // perf_event_attr's bit field at offset 40.
    private const ulong Inherit = 1UL << 1, ExcludeUser = 1UL << 4, ExcludeKernel = 1UL << 5, ExcludeHv = 1UL << 6;

    [LibraryImport("libc", EntryPoint = "syscall", SetLastError = true)]
    private static partial long Syscall(long number, Attr* attr, int pid, int cpu, int groupFd, ulong flags);

    [LibraryImport("libc", EntryPoint = "read", SetLastError = true)]
    private static partial nint ReadFd(int fd, void* buffer, nint count);

    [LibraryImport("libc", EntryPoint = "close")]
    private static partial int CloseFd(int fd);

    private static long Number => RuntimeInformation.ProcessArchitecture switch
    {
        Architecture.X64 => 298,
        Architecture.Arm64 => 241,
        _ => -1,
    };

    /// <summary>The record the kernel is handed for an event: a pure function, so a test can hold it to the ABI without a PMU.</summary>
    public static Attr AttrFor(CpuCounterEvent e, bool inherit) => new()
    {
        Type = e.Type, Size = AttrSize, Config = e.Config, ReadFormat = ReadFormat,
        // The hypervisor's time is not the target's work; a guest cannot count it anyway.
        Flags = ExcludeHv | (inherit ? Inherit : 0) | (e.User ? 0 : ExcludeUser) | (e.Kernel ? 0 : ExcludeKernel),
    };

    /// <summary>The record's bytes as the system call reads them (the machine's byte order).</summary>
    public static byte[] Bytes(Attr attr) => MemoryMarshal.AsBytes(new ReadOnlySpan<Attr>(in attr)).ToArray();

    /// <summary>Opens one counter on a thread (0: this one), on any CPU; the fd, or -1 with errno.</summary>
    internal static int Open(CpuCounterEvent e, int tid, bool inherit, out int errno)
    {
        if (!OperatingSystem.IsLinux() || Number < 0) { errno = ENOSYS; return -1; }
        var attr = AttrFor(e, inherit);
        var fd = Syscall(Number, &attr, tid, -1, -1, FlagFdCloexec);
        errno = fd < 0 ? Marshal.GetLastSystemError() : 0;
        return (int)fd;
    }

    internal static CpuCounterValue? Read(int fd)
    {
        var buffer = stackalloc ulong[3];
        return ReadFd(fd, buffer, 24) == 24 ? new CpuCounterValue(buffer[0], buffer[1], buffer[2]) : null;
    }

    internal static void Close(int fd) => CloseFd(fd);
}
