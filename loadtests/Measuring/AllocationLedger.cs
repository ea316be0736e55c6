namespace Comparator.Measuring;

/// <summary>
/// A .NET process's allocation and collections as its runtime reports them, cut at a window's own edges. Two sources, each
/// right where the other is not:
/// <list type="bullet">
/// <item>the total allocated (GC.GetTotalAllocatedBytes, sampled every 0.1 s through the System.Runtime meter, or summed from the
/// one-a-second alloc-rate counter where a runtime has no meter): exact bytes, but only at its samples' times;</item>
/// <item>AllocationTick, one event each time a heap has taken about 100 KB more for allocation, with its own time: where in an
/// interval the allocation happened, but not exact bytes (it counts the unused ends of allocation contexts a larger object
/// retired: measured 20.4 KB a request for a 16 KB array).</item>
/// </list>
/// The total at an edge is the sample before it plus the share of the next interval's growth that its ticks place before the
/// edge; with too few ticks in that interval to place it (under <see cref="TicksToPlace"/>), the share of its time. So the count
/// is within one tick (about 100 KB) of the truth at each edge, or within one interval's allocation where the process
/// allocated too little to tick. Collections are the GCStart events inside the edges, every generation, exact.
/// </summary>
public sealed class AllocationLedger
{
    /// <summary>Ticks an interval needs before they, not the clock, place its growth about an edge.</summary>
    public const int TicksToPlace = 4;

    private readonly List<(DateTimeOffset At, double Total)> _totals = new();
    private readonly List<(DateTimeOffset At, long Bytes)> _ticks = new();
    private readonly List<DateTimeOffset> _collections = new();

    /// <summary>Drops the totals read so far: a better source of them has begun (the meter, after the counter's first seconds).</summary>
    public void ForgetTotals() => _totals.Clear();

    /// <summary>A reading of the total allocated since the process started.</summary>
    public void Total(DateTimeOffset at, double bytesSinceStart) => _totals.Add((at, bytesSinceStart));

    /// <summary>An AllocationTick: <paramref name="bytes"/> taken for allocation since the heap's previous one.</summary>
    public void Tick(DateTimeOffset at, long bytes) => _ticks.Add((at, bytes));

    /// <summary>A collection started.</summary>
    public void CollectionStarted(DateTimeOffset at) => _collections.Add(at);

    /// <summary>The newest total read: a window is cut once a reading after its end has come.</summary>
    public DateTimeOffset? NewestTotal => _totals.Count > 0 ? _totals.Max(t => t.At) : null;

    /// <summary>Bytes allocated and collections started over (start, end]; null when no reading of the total brackets both edges.</summary>
    public CollectorWork? Between(DateTimeOffset start, DateTimeOffset end)
    {
        if (TotalAt(start) is not double first || TotalAt(end) is not double last) return null;
        return new CollectorWork((long)Math.Round(Math.Max(0, last - first)), _collections.Count(at => at > start && at <= end));
    }

    /// <summary>The total allocated at <paramref name="at"/>, from the readings either side of it; null outside them.</summary>
    private double? TotalAt(DateTimeOffset at)
    {
        var totals = _totals.OrderBy(t => t.At).ToList();
        var after = totals.FindIndex(t => t.At >= at);
        if (after < 0) return null;
        if (totals[after].At == at) return totals[after].Total;
        if (after == 0) return null;
        var (from, to) = (totals[after - 1], totals[after]);
        var inside = _ticks.Where(t => t.At > from.At && t.At <= to.At).ToList();
        var share = inside.Count >= TicksToPlace
            ? inside.Where(t => t.At <= at).Sum(t => (double)t.Bytes) / inside.Sum(t => (double)t.Bytes)
            : (at - from.At) / (to.At - from.At);
        return from.Total + (to.Total - from.Total) * share;
    }
}

/// <summary>A window's collector work from the runtime: bytes allocated and collections started.</summary>
public readonly record struct CollectorWork(long AllocatedBytes, int Collections);
