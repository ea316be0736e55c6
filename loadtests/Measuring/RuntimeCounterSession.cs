using System.Diagnostics.Tracing;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Results;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;

namespace Comparator.Measuring;

/// <summary>
/// One EventPipe session on a .NET target for as long as it runs: the "System.Runtime" event
/// counters (those dotnet-counters shows), one sample a second, kept with their timestamps so each
/// measured window takes the samples that fall inside it. One session per process rather than one
/// per window: starting a session costs the target a rundown, and it would miss the first second.
/// The same session takes the runtime's GC events, each with its own timestamp, so a window's bytes
/// allocated and collections are cut at the window's own edges rather than at whole seconds.
/// </summary>
public sealed class RuntimeCounterSession : IAsyncDisposable
{
    public const string Provider = "System.Runtime";
    /// <summary>The runtime's own provider, GC keyword at verbose level: AllocationTick (verbose) and GCStart (informational).</summary>
    public const string RuntimeProvider = "Microsoft-Windows-DotNETRuntime";
    private const long GcKeyword = 0x1;
    /// <summary>System.Diagnostics.Metrics' provider, asked for the System.Runtime meter's total allocated (.NET 9 and later).</summary>
    public const string MeterProvider = "System.Diagnostics.Metrics";
    private const string TotalAllocated = "dotnet.gc.heap.total_allocated";
    private const string MeterRefresh = "0.1";
    private readonly string _meterSession;
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);
    /// <summary>A sample stands for the second before its timestamp; it belongs to a window when most of that second does.</summary>
    private static readonly TimeSpan HalfInterval = Interval / 2;

    private readonly EventPipeSession _session;
    private readonly Task _reader;
    private readonly object _gate = new();
    private readonly List<Sample> _samples = new();
    private DateTimeOffset _newest = DateTimeOffset.MinValue;
    private readonly AllocationLedger _allocation = new();
    private double _counterAllocated; // the alloc-rate counter's increments summed: the total where the runtime has no meter
    private bool _meterTotals;
    private int _disposed;

    private readonly record struct Sample(DateTimeOffset At, string Name, double Value, double IntervalSeconds);

    private RuntimeCounterSession(EventPipeSession session, string meterSession)
    {
        _session = session;
        _meterSession = meterSession;
        _reader = Task.Factory.StartNew(Read, TaskCreationOptions.LongRunning);
    }

    /// <summary>Attaches to a .NET process's diagnostics port; null with the reason when it cannot (the process is gone, diagnostics are off).</summary>
    public static RuntimeCounterSession? TryStart(int processId, out string? whyNot)
    {
        try
        {
            var provider = new EventPipeProvider(Provider, EventLevel.Informational, (long)EventKeywords.None,
                new Dictionary<string, string> { ["EventCounterIntervalSec"] = Interval.TotalSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture) });
            // AllocationTick fires once each time a heap has taken about 100 KB: a few thousand events a second at hundreds of
            // MB/s, against the per-object events that would make the count exact at many times the cost (AllocationLedger).
            var gc = new EventPipeProvider(RuntimeProvider, EventLevel.Verbose, GcKeyword);
            var meterSession = Guid.NewGuid().ToString("N");
            var meter = new EventPipeProvider(MeterProvider, EventLevel.Informational, 0x2, new Dictionary<string, string>
            {
                ["SessionId"] = meterSession, ["Metrics"] = "System.Runtime\\" + TotalAllocated, ["RefreshInterval"] = MeterRefresh,
                ["MaxTimeSeries"] = "10", ["MaxHistograms"] = "0",
            });
            // No stack with each event: nothing here reads one, and walking the stack would be most of an event's cost to the target.
            var session = new DiagnosticsClient(processId).StartEventPipeSession(
                new EventPipeSessionConfiguration(new[] { provider, gc, meter }, circularBufferSizeMB: 256, requestRundown: false, requestStackwalk: false));
            whyNot = null;
            return new RuntimeCounterSession(session, meterSession);
        }
        catch (Exception e) when (e is ServerNotAvailableException or DiagnosticsClientException or TimeoutException or UnauthorizedAccessException or System.IO.IOException)
        {
            whyNot = $"no EventPipe session on process {processId}: {e.Message}";
            return null;
        }
    }

    private void Read()
    {
        try
        {
            using var source = new EventPipeEventSource(_session.EventStream);
            source.Dynamic.All += OnEvent;
            source.Clr.GCAllocationTick += e => { lock (_gate) _allocation.Tick(At(e), e.AllocationAmount64); };
            source.Clr.GCStart += e => { lock (_gate) _allocation.CollectionStarted(At(e)); };
            source.Process();
        }
        catch (Exception) when (Volatile.Read(ref _disposed) == 1)
        {
            // The session was stopped under the reader, or the process exited: the samples taken stay.
        }
        catch (Exception)
        {
            // A broken stream ends the samples; windows after it get no counters rather than failing the run.
        }
    }

    private static DateTimeOffset At(TraceEvent e) => new(e.TimeStamp.ToUniversalTime(), TimeSpan.Zero);

    private void OnEvent(TraceEvent e)
    {
        if (e.EventName == "CounterRateValuePublished") OnMeterValue(e);
        if (e.EventName != "EventCounters" || e.PayloadValue(0) is not IDictionary<string, object> outer ||
            !outer.TryGetValue("Payload", out var inner) || inner is not IDictionary<string, object> fields ||
            !fields.TryGetValue("Name", out var name) || name is not string counter) return;
        // Mean counters (thread count, queue length, time in GC) carry Mean; incrementing ones (GCs, bytes, items) Increment.
        var value = fields.TryGetValue("Increment", out var inc) ? Convert.ToDouble(inc, System.Globalization.CultureInfo.InvariantCulture)
            : fields.TryGetValue("Mean", out var mean) ? Convert.ToDouble(mean, System.Globalization.CultureInfo.InvariantCulture) : double.NaN;
        if (double.IsNaN(value)) return;
        var interval = fields.TryGetValue("IntervalSec", out var sec) ? Convert.ToDouble(sec, System.Globalization.CultureInfo.InvariantCulture) : Interval.TotalSeconds;
        var at = At(e);
        lock (_gate)
        {
            _samples.Add(new Sample(at, counter, value, interval));
            if (at > _newest) _newest = at;
            if (counter == "alloc-rate" && !_meterTotals) _allocation.Total(at, _counterAllocated += value);
        }
    }

    /// <summary>The meter's total allocated since the process started: once one has come, the only totals the ledger takes.</summary>
    private void OnMeterValue(TraceEvent e)
    {
        if (e.PayloadByName("sessionId") as string != _meterSession || e.PayloadByName("instrumentName") as string != TotalAllocated ||
            !double.TryParse(e.PayloadByName("value") as string, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var total)) return;
        lock (_gate)
        {
            if (!_meterTotals) _allocation.ForgetTotals();
            _meterTotals = true;
            _allocation.Total(At(e), total);
        }
    }

    /// <summary>Waits (at most a few seconds) until the samples covering a window that ended at <paramref name="end"/> have arrived.</summary>
    public async Task WaitForSamplesAsync(DateTimeOffset end, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + 3 * Interval;
        while (DateTime.UtcNow < deadline && !_reader.IsCompleted)
        {
            lock (_gate) if (_newest >= end + HalfInterval) return;
            await Task.Delay(100, cancellationToken);
        }
    }

    /// <summary>The counters of one window, or null when no sample fell inside it.</summary>
    public RuntimeCounters? Window(DateTimeOffset start, DateTimeOffset end)
    {
        List<Sample> inside, before;
        lock (_gate)
        {
            inside = _samples.Where(s => s.At > start + HalfInterval && s.At <= end + HalfInterval).ToList();
            before = _samples.Where(s => s.At <= start + HalfInterval).ToList();
        }
        List<Sample> Of(string name) => inside.Where(s => s.Name == name).OrderBy(s => s.At).ToList();
        var threads = Of("threadpool-thread-count");
        if (threads.Count == 0) return null;
        var queue = Of("threadpool-queue-length").Select(s => s.Value).OrderBy(v => v).ToList();
        // The thread count as the window began: the last sample before it, else its first.
        var startThreads = before.Where(s => s.Name == "threadpool-thread-count").OrderBy(s => s.At).LastOrDefault() is { Name: not null } b ? b.Value : threads[0].Value;
        double Total(string name) => Of(name).Sum(s => s.Value);
        double Rate(string name) => Of(name) is { Count: > 0 } l && l.Sum(s => s.IntervalSeconds) is var secs && secs > 0 ? l.Sum(s => s.Value) / secs : 0;
        var gc = Of("time-in-gc");
        var jitted = Of("methods-jitted-count");
        var jittedBefore = before.Where(s => s.Name == "methods-jitted-count").OrderBy(s => s.At).LastOrDefault() is { Name: not null } jb ? jb.Value : (double?)null;
        return new RuntimeCounters(
            threads.Count,
            startThreads,
            threads[^1].Value,
            Math.Max(startThreads, threads.Max(s => s.Value)),
            queue.Count > 0 ? queue[queue.Count / 2] : 0,
            queue.Count > 0 ? queue[^1] : 0,
            Rate("threadpool-completed-items-count"),
            Total("gen-0-gc-count"),
            Total("gen-1-gc-count"),
            Total("gen-2-gc-count"),
            gc.Count > 0 ? gc.Average(s => s.Value) : 0,
            Rate("alloc-rate"),
            Rate("monitor-lock-contention-count"),
            Of("time-in-jit").Count > 0 ? Rate("time-in-jit") : null,
            jitted.Count > 0 ? jitted[^1].Value - (jittedBefore ?? jitted[0].Value) : null);
    }

    /// <summary>
    /// The collector's work over one window, cut at its own edges (<see cref="AllocationLedger"/>): bytes allocated and
    /// collections started. Null when no reading of the total allocated came after the window's end.
    /// </summary>
    public CollectorWork? Collector(DateTimeOffset start, DateTimeOffset end)
    {
        lock (_gate)
        {
            return _allocation.Between(start, end);
        }
    }

    /// <summary>
    /// Milliseconds of JIT compilation per second in the newest sample that has arrived and stands wholly for time after
    /// <paramref name="since"/> (the warm-up's question: has the runtime stopped compiling under this load?), without waiting
    /// for the next one; null when none has arrived yet.
    /// </summary>
    public double? LatestJitMsPerSecond(DateTimeOffset since)
    {
        lock (_gate)
            return _samples.Where(s => s.Name == "time-in-jit" && s.At - TimeSpan.FromSeconds(s.IntervalSeconds) >= since && s.IntervalSeconds > 0)
                .OrderBy(s => s.At).Select(s => (double?)(s.Value / s.IntervalSeconds)).LastOrDefault();
    }

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 1) return;
        try { await _session.StopAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(3)); }
        catch (Exception) { /* the process may be gone already: nothing to stop */ }
        await Task.WhenAny(_reader, Task.Delay(TimeSpan.FromSeconds(3)));
        _session.Dispose();
    }
}
