using Comparator.Results;

namespace Comparator.Crank;

/// <summary>
/// The .NET runtime counters a crank agent collects for a .NET job (`collectCounters: true`): the
/// System.Runtime EventCounters as `runtime-counter/NAME`, one sample a second, each count (GCs,
/// completed work items, lock contentions, allocated bytes) over its own second. A window's
/// <see cref="RuntimeCounters"/> are read from the samples inside it, as the comparator reads its
/// own EventPipe session on a local run.
/// </summary>
public sealed class AgentRuntimeCounters
{
    public const string Prefix = "runtime-counter/";
    private readonly IReadOnlyDictionary<string, IReadOnlyList<CrankSample>> _series;

    private AgentRuntimeCounters(IReadOnlyDictionary<string, IReadOnlyList<CrankSample>> series) => _series = series;

    /// <summary>The job's counters, or null where its agent collected none (a Mono process, or collectCounters off).</summary>
    public static AgentRuntimeCounters? Of(CrankJob job)
    {
        var series = job.Samples.Where(s => s.Name.StartsWith(Prefix, StringComparison.Ordinal))
            .GroupBy(s => s.Name[Prefix.Length..])
            .ToDictionary(g => g.Key, g => (IReadOnlyList<CrankSample>)g.OrderBy(s => s.Timestamp).ToList());
        return series.ContainsKey("threadpool-thread-count") ? new AgentRuntimeCounters(series) : null;
    }

    /// <summary>The counters over [start, start + seconds]; null where no thread-pool sample falls inside.</summary>
    public RuntimeCounters? Window(DateTimeOffset start, double seconds)
    {
        var end = start.AddSeconds(seconds);
        IReadOnlyList<double> Values(string name) => _series.TryGetValue(name, out var s)
            ? s.Where(x => x.Timestamp > start && x.Timestamp <= end).Select(x => x.Value).ToList()
            : Array.Empty<double>();
        var threads = Values("threadpool-thread-count");
        if (threads.Count == 0) return null;
        var queue = Values("threadpool-queue-length");
        double Mean(IReadOnlyList<double> v) => v.Count == 0 ? 0 : v.Average();
        double Median(IReadOnlyList<double> v) => v.Count == 0 ? 0 : v.OrderBy(x => x).ElementAt((v.Count - 1) / 2);
        return new RuntimeCounters(
            threads.Count,
            threads[0], threads[^1], threads.Max(),
            Median(queue), queue.Count == 0 ? 0 : queue.Max(),
            Mean(Values("threadpool-completed-items-count")),
            Values("gen-0-gc-count").Sum(), Values("gen-1-gc-count").Sum(), Values("gen-2-gc-count").Sum(),
            Mean(Values("time-in-gc")),
            Mean(Values("alloc-rate")),
            Mean(Values("monitor-lock-contention-count")));
    }
}
