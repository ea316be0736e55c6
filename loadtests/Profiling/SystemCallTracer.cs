using System.Diagnostics;
using System.IO;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Targets;

namespace Comparator.Profiling;

/// <summary>
/// Which system calls a server makes, by call: `perf trace -s` on its every thread over a window of the profile pass's own
/// (after the sampled one, so the two tools never slow the same window), its per-thread summaries summed by call. The judged
/// count (raw_syscalls:sys_enter on the counters) says how many; this says which, in the pass where a slowed server is no harm.
/// Tracing copies every call's record to perf, which slows the server: how many requests one epoll wake-up serves may
/// change with that pace, so the figures are this window's own, beside the measured ones, not instead of them.
/// </summary>
public sealed partial class SystemCallTracer
{
    private SystemCallTracer(string program) => Program = program;

    public string Program { get; }

    public string Describe => $"{Program} trace -s on the server's every thread, over a window of its own after the sampled one";

    /// <summary>The tracer, or the one line that says why this machine has none (perf without its trace command, a kernel that forbids it).</summary>
    public static (SystemCallTracer? Tracer, string? Unavailable) Find(string perf)
    {
        var output = Path.Combine(Path.GetTempPath(), $"comparator-trace-probe-{Environment.ProcessId}.txt");
        try
        {
            var (exit, _, error) = ToolProcess.Capture(perf, TimeSpan.FromSeconds(20), "trace", "-s", "-o", output, "--", "true");
            return exit == 0 ? (new SystemCallTracer(perf), null)
                : (null, $"system calls by call: not traced: `{perf} trace` failed (exit {exit}){(error is null ? "" : ": " + error)}");
        }
        finally
        {
            File.Delete(output);
        }
    }

    /// <summary>Starts tracing the process into <paramref name="output"/>; returns once perf has had a moment to attach to its threads.</summary>
    public async Task<Trace> StartAsync(int pid, string output)
    {
        var info = new ProcessStartInfo(Program) { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        // A larger ring than perf's default: under a server's load perf trace drops records it cannot read in time (see Trace.StopAsync).
        foreach (var a in new[] { "trace", "-s", "-m", "1024", "-p", $"{pid}", "-o", output }) info.ArgumentList.Add(a);
        var process = Process.Start(info) ?? throw new InvalidOperationException("cannot start " + Program);
        // perf creates its file before its events are open, and says nothing when they are: a fixed moment, as perf record's own wait.
        await Task.Delay(300, CancellationToken.None);
        return new Trace(process, output);
    }

    [GeneratedRegex(@"LOST (?<lost>\d+) events", RegexOptions.CultureInvariant)]
    private static partial Regex LostLine();

    /// <summary>The records perf trace says it lost (its "LOST N events!" lines), summed.</summary>
    public static long Lost(IEnumerable<string> output) =>
        output.Select(l => LostLine().Match(l)).Where(m => m.Success).Sum(m => long.Parse(m.Groups["lost"].Value, CultureInfo.InvariantCulture));

    [GeneratedRegex(@"^\s*(?<call>[a-z_0-9]+)\s+(?<calls>\d+)\s+(?<errors>\d+)\s+\d", RegexOptions.CultureInvariant)]
    private static partial Regex Row();

    /// <summary>The summary's rows summed over its threads, by call; rows of anything else (headers, thread lines) are skipped.</summary>
    public static IReadOnlyDictionary<string, (long Calls, long Errors)> Parse(IEnumerable<string> summary)
    {
        var totals = new Dictionary<string, (long Calls, long Errors)>();
        foreach (var line in summary)
            if (Row().Match(line) is { Success: true } m)
            {
                var was = totals.GetValueOrDefault(m.Groups["call"].Value);
                totals[m.Groups["call"].Value] = (was.Calls + long.Parse(m.Groups["calls"].Value, CultureInfo.InvariantCulture),
                    was.Errors + long.Parse(m.Groups["errors"].Value, CultureInfo.InvariantCulture));
            }
        return totals;
    }

    /// <summary>Every call a request, most first.</summary>
    public static IReadOnlyList<SystemCallCount> PerRequest(IReadOnlyDictionary<string, (long Calls, long Errors)> totals, long requests) =>
        requests <= 0 ? Array.Empty<SystemCallCount>()
            : totals.OrderByDescending(t => t.Value.Calls).ThenBy(t => t.Key, StringComparer.Ordinal)
                .Select(t => new SystemCallCount(t.Key, (double)t.Value.Calls / requests, (double)t.Value.Errors / requests)).ToList();
}

/// <summary>A perf trace running on a server; <see cref="StopAsync"/> interrupts it, and it then writes its summary.</summary>
public sealed class Trace(Process process, string output) : IDisposable
{
    /// <summary>Stops tracing: the summary's calls by name, or why there is none.</summary>
    public async Task<(IReadOnlyDictionary<string, (long Calls, long Errors)>? Totals, string? Failure)> StopAsync()
    {
        var error = process.StandardError.ReadToEndAsync();
        if (!process.HasExited) Signals.Interrupt(process.Id);
        var exited = process.WaitForExitAsync();
        if (await Task.WhenAny(exited, Task.Delay(TimeSpan.FromSeconds(30))) != exited)
        {
            try { process.Kill(true); } catch (InvalidOperationException) { }
            return (null, "perf trace did not stop within 30 s of its interrupt");
        }
        if (process.ExitCode is not (0 or 130 or -2) || !File.Exists(output))
            return (null, $"perf trace failed (exit {process.ExitCode}): {ToolProcess.LastLine(await error) ?? "no message"}");
        var lines = await File.ReadAllLinesAsync(output);
        File.Delete(output);
        // perf trace reads its ring as fast as it can; what it could not read is lost, and its counts are then short (a CI run: 37 of 50 a request).
        if (SystemCallTracer.Lost(lines.Concat((await error).Split('\n'))) is var lost and > 0)
            return (null, $"perf trace lost {lost:N0} records under this load, so its counts would be short; the judged count (untraced) stands");
        var totals = SystemCallTracer.Parse(lines);
        return totals.Count > 0 ? (totals, null) : (null, "perf trace saw no system call of the server");
    }

    public void Dispose()
    {
        try { if (!process.HasExited) process.Kill(true); } catch (InvalidOperationException) { }
        process.Dispose();
    }
}
