using System;
using System.Linq;
using System.Text;
using Comparator.Contracts;
using System.Threading;
using System.Threading.Tasks;
using Comparator.KestrelHosting;
using Comparator.KestrelService;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;

namespace Comparator.MisbehavingService;

/// <summary>
/// `MisbehavingService delay|block|doctor MS [service options]`: answers the contract like
/// KestrelService, each request first waiting MS milliseconds, asynchronously (delay: nothing busy,
/// a timer sets the pace) or by blocking the thread-pool thread it runs on (block: the pool runs out
/// of threads and injects more, slowly, as sync-over-async or synchronous I/O makes it do); `doctor N`
/// answers its first N requests to /api/json rightly and every later one with its second item renamed:
/// a deliberately different answer for the answer-equivalence checks (0: from the first, which verify
/// catches; 1: after verification, which only the checks under load can catch). `pause MS` answers at
/// once until told `POST /control/pause?after=A` and then holds every answer that comes due in the MS
/// milliseconds from A ms later until that pause ends: one stall, placed by the test, for the
/// coordinated-omission check of the fixed-rate driver. `spin US` answers like KestrelService after
/// spinning the CPU for US microseconds per request: a service made costlier on purpose by a known
/// amount, the known gap the rule must find (and an A/A pair of it must not). `stall MS` holds every
/// answer that comes due in the first MS milliseconds of each wall-clock second until that mark: a
/// service that stalls once a second, whose tail no rate can keep under a tight objective. `thread-spin US`
/// starts a new thread for every request that spins until its own CPU clock (CLOCK_THREAD_CPUTIME_ID) has
/// run US microseconds, then answers: work done on threads born after any counter was opened, a known
/// amount of it, the proof that the CPU's counters inherit into new threads (Linux only). In every mode a HEAD
/// of /api/time is answered as its GET would be, head only: 200, its Content-Type and Content-Length,
/// no body (a real service answering HEAD, for scenarios that send one). `exit-after N` answers its first N requests like
/// KestrelService, then writes one line to stderr and exits with code 7: a service that dies in a launch, after its checks.
/// `syscalls N` answers like KestrelService after N system calls of its own a request (getppid, which the C library never
/// caches): the known gap in system calls per request (CountedTwinsTests). `allocate N` answers like KestrelService after allocating
/// N managed bytes of its own a request (one array, header included): the known gap in bytes allocated per request (CountedTwinsTests).
/// </summary>
public static class Program
{
    /// <summary>The exit code of `exit-after N` once its N requests are answered.</summary>
    public const int ExitAfterCode = 7;

    [System.Runtime.InteropServices.DllImport("libc", EntryPoint = "_exit")]
    private static extern void ExitNow(int code);

    public static Task<int> Main(string[] args)
    {
        if (args.Length < 2 || args[0] is not ("delay" or "block" or "doctor" or "pause" or "spin" or "stall" or "thread-spin" or "exit-after" or "syscalls" or "allocate") || !int.TryParse(args[1], out var ms) || ms < 0)
        {
            Console.Error.WriteLine("MisbehavingService: usage: MisbehavingService delay|block|pause|stall MS | doctor N | spin US | thread-spin US | exit-after N | syscalls N | allocate N [--port N ...]");
            return Task.FromResult(2);
        }
        var spin = args[0] == "spin";
        var threadSpin = args[0] == "thread-spin";
        var spinTicks = ms * System.Diagnostics.Stopwatch.Frequency / 1_000_000;
        var block = args[0] == "block";
        var doctor = args[0] == "doctor";
        var pause = args[0] == "pause";
        var stall = args[0] == "stall";
        var exitAfter = args[0] == "exit-after";
        var syscalls = args[0] == "syscalls";
        var allocate = args[0] == "allocate";
        if (allocate && (ms < ManagedWork.ArrayHeader || ms % 8 != 0))
        {
            Console.Error.WriteLine($"MisbehavingService: allocate N: N must be a multiple of 8 of at least {ManagedWork.ArrayHeader} (an array's header)");
            return Task.FromResult(2);
        }
        var answered = 0;
        var jsonAnswers = 0;
        long pauseFrom = long.MaxValue, pauseUntil = long.MaxValue; // Stopwatch timestamps
        return KestrelServiceHost.RunAsync("MisbehavingService", args.Skip(2).ToArray(), _ => { }, app =>
        {
            app.Use(async (context, next) =>
            {
                if (HttpMethods.IsHead(context.Request.Method) && context.Request.Path == Routes.Time)
                {
                    context.Response.ContentType = ContentTypes.Text;
                    context.Response.ContentLength = TimeText.Length; // what the GET would carry; Kestrel sends no body to a HEAD
                    return;
                }
                if (exitAfter)
                {
                    if (Interlocked.Increment(ref answered) > ms)
                    {
                        Console.Error.WriteLine($"MisbehavingService: exiting after {ms} requests, as asked");
                        Console.Error.Flush();
                        // At once, as a crash ends a process: Environment.Exit would wait for the host to stop, and the host for
                        // this request, which never ends (seen: a service that hung instead of dying).
                        if (OperatingSystem.IsWindows()) Environment.Exit(ExitAfterCode);
                        else ExitNow(ExitAfterCode);
                    }
                }
                else if (pause)
                {
                    if (context.Request.Path == "/control/pause")
                    {
                        var after = int.Parse(context.Request.Query["after"].ToString(), System.Globalization.CultureInfo.InvariantCulture);
                        var from = System.Diagnostics.Stopwatch.GetTimestamp() + after * System.Diagnostics.Stopwatch.Frequency / 1000;
                        Interlocked.Exchange(ref pauseUntil, from + ms * System.Diagnostics.Stopwatch.Frequency / 1000);
                        Interlocked.Exchange(ref pauseFrom, from);
                        context.Response.StatusCode = 204;
                        return;
                    }
                    var now = System.Diagnostics.Stopwatch.GetTimestamp();
                    if (now >= Interlocked.Read(ref pauseFrom) && now < Interlocked.Read(ref pauseUntil))
                        await Task.Delay(System.Diagnostics.Stopwatch.GetElapsedTime(now, Interlocked.Read(ref pauseUntil)));
                }
                else if (syscalls) KernelWork.Calls(ms);
                else if (allocate) ManagedWork.Allocate(ms);
                else if (spin) CostlyWork.SpinFor(spinTicks);
                else if (threadSpin)
                {
                    var worker = new Thread(() => ThreadClock.SpinFor(ms)) { IsBackground = true };
                    worker.Start();
                    worker.Join();
                }
                else if (block) Thread.Sleep(ms);
                else if (stall)
                {
                    // Every answer due in the first MS ms of a wall-clock second waits for that mark: a stall once a second.
                    var into = DateTime.UtcNow.Millisecond;
                    if (into < ms) await Task.Delay(ms - into);
                }
                else if (!doctor) await Task.Delay(ms);
                if (doctor && context.Request.Path == Routes.Json && Interlocked.Increment(ref jsonAnswers) > ms)
                {
                    var items = JsonSample.Create(3);
                    items[1].Name += " (doctored)";
                    await ContractBodies.WriteBufferedAsync(context.Response, ContentTypes.Json, Encoding.UTF8.GetBytes(JsonSample.Serialize(items)));
                    return;
                }
                await next(context);
            });
            app.Run(ContractHandler.HandleAsync);
        });
    }
}

/// <summary>The spin of `spin US`, in a method of its own name: a profile of the service must find the extra work here (ProfileTests).</summary>
public static class CostlyWork
{
    private static long _sink;

    /// <summary>
    /// CPU work, not a wait: the thread stays busy for the span, on a thousand multiply-adds between clock reads, so that the samples
    /// land in this method rather than in the runtime's spin-wait or the clock's call.
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public static void SpinFor(long ticks)
    {
        var until = System.Diagnostics.Stopwatch.GetTimestamp() + ticks;
        long x = 1;
        while (System.Diagnostics.Stopwatch.GetTimestamp() < until)
            for (var i = 0; i < 1000; i++) x = x * 31 + i;
        Volatile.Write(ref _sink, x);
    }
}

/// <summary>System calls made on purpose, a known number a request.</summary>
public static class KernelWork
{
    [System.Runtime.InteropServices.DllImport("libc", EntryPoint = "getppid")]
    private static extern int GetParentPid();

    /// <summary>N entries into the kernel: getppid does nothing else, and the C library passes every call through.</summary>
    public static void Calls(int n)
    {
        for (var i = 0; i < n; i++) GetParentPid();
    }
}

/// <summary>The allocation of `allocate N`: N bytes on the managed heap a request, in one array that escapes (so no compiler may keep it off the heap).</summary>
public static class ManagedWork
{
    /// <summary>A byte array's header on a 64-bit runtime: method table, object header and length; its elements follow, the whole rounded up to 8.</summary>
    public const int ArrayHeader = 24;

    private static byte[]? _last;

    public static void Allocate(int bytes)
    {
        var array = new byte[bytes - ArrayHeader];
        array[0] = 1;
        Volatile.Write(ref _last, array);
    }
}

/// <summary>The calling thread's own CPU clock (Linux clock_gettime(CLOCK_THREAD_CPUTIME_ID)): time this thread ran, not wall time.</summary>
internal static class ThreadClock
{
    private const int ThreadCpuTime = 3; // CLOCK_THREAD_CPUTIME_ID

    [System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Sequential)]
    private struct TimeSpec { public long Seconds; public long Nanoseconds; }

    [System.Runtime.InteropServices.DllImport("libc", EntryPoint = "clock_gettime")]
    private static extern int ClockGetTime(int clock, out TimeSpec time);

    private static long NowNs() => ClockGetTime(ThreadCpuTime, out var t) == 0 ? t.Seconds * 1_000_000_000 + t.Nanoseconds : 0;

    private static long _sink;

    /// <summary>
    /// Spins until this thread has run the given microseconds on a CPU: a thousand multiply-adds between clock reads,
    /// so that most of the work is user-mode arithmetic (a thread clock read is a system call, not a vDSO call).
    /// </summary>
    public static void SpinFor(int microseconds)
    {
        var until = NowNs() + microseconds * 1000L;
        long x = 1;
        while (NowNs() < until)
            for (var i = 0; i < 1000; i++) x = x * 31 + i;
        System.Threading.Volatile.Write(ref _sink, x);
    }
}
