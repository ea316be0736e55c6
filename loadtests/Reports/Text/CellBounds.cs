using Comparator.Results;
using Comparator.Statistics;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Text;

/// <summary>
/// "What bounded each cell": per cell and target, the bottleneck with the figures it was read from
/// (cores busy, time in flight, CPU per request), and for .NET targets the runtime counters of the
/// median window (thread pool, GC, allocation, lock contention), which say why a cell waited.
/// </summary>
public static class CellBounds
{
    public const string Explanation =
        "Median window. Bottleneck: machine (driver and server kept every core busy), client (the driver used a core or more), " +
        "wait (the cores the cell could use, min(concurrency, cores), were less than half busy: a wait set the pace, not computation), " +
        "server (the server's work set the pace), unknown (no server CPU: an external target). In flight: concurrency ÷ req/s (Little's law), " +
        "against the CPU each request cost the server and the driver together. Switches/req: the server's context switches, voluntary and involuntary, " +
        "summed over every thread (/proc/PID/task/*/status), per request: the thread hand-offs a request costs; server threads at the window's end and the CPUs the process was allowed (read back). Pool threads, queue, GCs, time in GC, allocation and lock contentions " +
        "are the .NET runtime's own counters (EventPipe, one sample a second); starved marks a window whose pool kept work queued while adding threads on cores not saturated, or while the cores stood idle.";

    public static TextTable? Build(RunResult run)
    {
        var cells = run.ComparedCells().Where(c => c.Bottleneck is not null && c.Summary is not null)
            .OrderBy(c => c.Key.Endpoint).ThenBy(c => c.Key.Concurrency).ThenBy(c => c.Key.SizeBytes).ThenBy(c => c.Key.Target).ToList();
        if (cells.Count == 0) return null;
        var rows = cells.Select(c =>
        {
            var b = c.Bottleneck!;
            var k = c.Summary!.RuntimeCounters;
            var kind = b.Kind + (c.Flags.Contains(CellFlags.Starved) ? ", starved" : "");
            return (IReadOnlyList<string>)new[]
            {
                c.Key.Endpoint, c.Key.SizeBytes > 0 ? c.SizeLabel : "-", N(c.Key.Concurrency, "0"), c.Key.Target, kind,
                b.CoresBusy is double busy ? N(busy, "0.00") : "n/a", N(Math.Min(c.Key.Concurrency, run.Spec.Machine.LogicalCores), "0"),
                b.InFlightMs is double ms ? N(ms, "0.00") : "n/a", b.CpuUsPerRequest is double cpu ? N(cpu, "0.0") : "n/a",
                c.Summary.SwitchesPerRequest is double sw ? N(sw, "0.00") : "n/a",
                c.Summary.Threads is { } t ? $"{N(t.ThreadsAtEnd, "0")} on CPU {t.CpusAllowed ?? "?"}" : "n/a",
                k is null ? "n/a" : $"{N(k.ThreadPoolThreadsAtStart, "0")}→{N(k.ThreadPoolThreadsAtEnd, "0")}",
                k is null ? "n/a" : N(k.ThreadPoolQueueLengthMedian, "0"),
                k is null ? "n/a" : N(k.ThreadPoolCompletedItemsPerSecond, "0"),
                k is null ? "n/a" : $"{N(k.Gen0Collections, "0")}/{N(k.Gen1Collections, "0")}/{N(k.Gen2Collections, "0")}",
                k is null ? "n/a" : N(k.TimeInGcPercent, "0.0"),
                k is null ? "n/a" : N(k.AllocatedBytesPerSecond / (1024 * 1024), "0.0"),
                k is null ? "n/a" : N(k.LockContentionsPerSecond, "0.0"),
                k?.JitMsPerSecond is double jit ? N(jit, "0.0") : "n/a",
            };
        }).ToList();
        return new TextTable(new[]
        {
            "endpoint", "size", "conc", "target", "bottleneck", "cores busy", "of usable", "in flight ms", "CPU µs/req (server+driver)", "switches/req", "server threads",
            "pool threads", "pool queue", "items/s", "GCs 0/1/2", "time in GC %", "alloc MiB/s", "contentions/s", "JIT ms/s",
        }, rows);
    }

    /// <summary>The results.csv columns this section shows, left out of the reports' every-cell tables.</summary>
    public static bool Shows(string column) => column is "cores_busy" or "in_flight_ms" or "cpu_us_per_request" or
        "switches_per_request" or "server_threads" or "server_cpus" or "voluntary_switches" or "involuntary_switches" or
        "threadpool_threads" or "threadpool_queue" or "time_in_gc_pct" or "alloc_mb_per_s" or "jit_ms_per_s";

    /// <summary>One line per target: where its context switches and threads came from, or why they are not available.</summary>
    public static IEnumerable<string> ThreadSources(RunResult run) =>
        run.Targets.Where(t => t.Measured).Select(t => run.Cells.Any(c => c.Key.Target == t.Name && c.Summary?.Threads is not null)
            ? $"{t.Name}: context switches and threads read from every thread of its process (/proc/PID/task/*/status) at each window's start and end"
            : $"{t.Name}: context switches and threads not available: " + (t.External && !run.Cells.Any(c => c.Key.Target == t.Name && c.Summary?.ServerCpuSeconds is not null)
                ? "a service given by URL whose process was not found"
                : "they are read from /proc, which this machine does not have"));

    /// <summary>One line per target: whether its runtime counters were read, and why not where they were not; then the CPU's counters: the run's line and each target's.</summary>
    public static IEnumerable<string> CounterSources(RunResult run) =>
        run.Targets.Where(t => t.Measured && t.RuntimeCounters is not null).Select(t => $"runtime counters of {t.Name}: {t.RuntimeCounters}")
            .Concat(run.Spec.CpuCounters is string line ? new[] { line } : Array.Empty<string>())
            .Concat(run.Targets.Where(t => t.Measured && t.CpuCounters is not null).Select(t => $"CPU counters of {t.Name}: {t.CpuCounters}"));

    private static string N(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
