namespace Comparator.Results;

/// <summary>
/// What one measured window produced: its figures, each the value of a <see cref="MetricDescriptor"/> of
/// <see cref="Metrics"/> (byte counts come from the sockets, headers and chunk framing included; latency
/// covers successful requests only; server figures are absent where the server process is not ours to
/// read), and what describes the window rather than measures it (when, which launch and round, the
/// failures seen, what the driver cannot give). A figure is never a parameter of this record: a new one
/// is a descriptor and a source that fills it.
/// </summary>
/// <param name="Figures">the stored figures by <see cref="MetricDescriptor.Id"/>; a figure the window does not have is absent</param>
[System.Text.Json.Serialization.JsonConverter(typeof(MeasurementJson))]
public sealed record Measurement(IReadOnlyDictionary<string, double> Figures)
{
    /// <summary>A few failed requests as seen (status, the check that failed), for the report.</summary>
    public IReadOnlyList<string> FailureSamples { get; init; } = Array.Empty<string>();

    /// <summary>Figures this driver cannot give (absent in their columns) and why.</summary>
    public IReadOnlyList<string> Limitations { get; init; } = Array.Empty<string>();

    public DateTimeOffset? WindowStartedAt { get; init; }

    /// <summary>Which fresh start of the target this window belongs to (0-based); null in files saved before launches were recorded.</summary>
    public int? Launch { get; init; }

    /// <summary>The window's round in its launch; null in files saved before launches were recorded.</summary>
    public int? Round { get; init; }

    /// <summary>The process id of the target started for this window's launch: a fresh start has a new one; null for a service given by URL and older files.</summary>
    public int? ProcessId { get; init; }

    /// <summary>The .NET runtime's counters over this window (EventPipe); null for Mono, external targets and older files.</summary>
    public RuntimeCounters? RuntimeCounters { get; init; }

    /// <summary>Latency at <see cref="PercentilePoint.Standard"/> percentiles, where the driver records a histogram (socket).</summary>
    public IReadOnlyList<PercentilePoint>? LatencyDistribution { get; init; }

    /// <summary>
    /// The window's whole HDR histogram (µs, 3 significant digits), compressed and base64 encoded as
    /// HdrHistogram's own log format writes it ("HISTF..."), so any percentile can be read later.
    /// </summary>
    public string? LatencyHistogram { get; init; }

    /// <summary>The server's context switches over the window and its thread count (every thread, /proc); null off Linux, for external targets and in older files.</summary>
    public ThreadActivity? Threads { get; init; }

    /// <summary>A window of these figures; absent (null) ones are left out.</summary>
    public static Measurement Of(params (MetricDescriptor Metric, double? Value)[] figures) =>
        new(figures.Where(f => f.Value is not null).ToDictionary(f => Stored(f.Metric).Id, f => f.Value!.Value));

    /// <summary>This window with one stored figure set (or removed, for null).</summary>
    public Measurement With(MetricDescriptor metric, double? value)
    {
        var figures = new Dictionary<string, double>(Figures);
        if (value is double v) figures[Stored(metric).Id] = v;
        else figures.Remove(metric.Id);
        return this with { Figures = figures };
    }

    /// <summary>The window's value of any figure of the catalogue.</summary>
    public double? this[MetricDescriptor metric] => metric.Of(this);

    private static MetricDescriptor Stored(MetricDescriptor m) =>
        m.Storage == MetricStorage.Stored ? m : throw new ArgumentException($"{m.Id} is computed, not stored in a window");

    private long Count(MetricDescriptor m) => (long)(m.Of(this) ?? 0);
    private long? CountOrNull(MetricDescriptor m) => m.Of(this) is double v ? (long)v : null;

    // Named reads of the figures most code asks for: each is its descriptor's value, nothing more.
    public long Requests => Count(Metrics.Requests);
    public long Failed => Count(Metrics.Failed);
    public long Non2xx => Count(Metrics.Non2xx);
    public long Errors => Count(Metrics.Errors);
    public long Timeouts => Count(Metrics.Timeouts);
    public double ElapsedSeconds => Metrics.ElapsedSeconds.Of(this) ?? 0;
    public double RequestsPerSecond => Metrics.RequestsPerSecond.Of(this) ?? 0;
    public double LatencyMeanMs => Metrics.LatencyMeanMs.Of(this) ?? 0;
    public double LatencyP50Ms => Metrics.LatencyP50Ms.Of(this) ?? 0;
    public double LatencyP90Ms => Metrics.LatencyP90Ms.Of(this) ?? 0;
    public double LatencyP99Ms => Metrics.LatencyP99Ms.Of(this) ?? 0;
    public double LatencyMaxMs => Metrics.LatencyMaxMs.Of(this) ?? 0;
    public double? LatencyP999Ms => Metrics.LatencyP999Ms.Of(this);
    public long BytesReceived => Count(Metrics.BytesReceived);
    public long? BytesSent => CountOrNull(Metrics.BytesSent);
    public long? BodyBytesReceived => CountOrNull(Metrics.BodyBytesReceived);
    public long? ConnectionsOpened => CountOrNull(Metrics.ConnectionsOpened);
    public long? TlsHandshakes => CountOrNull(Metrics.TlsHandshakes);
    public long? LateRequests => CountOrNull(Metrics.LateRequests);
    public long? DroppedRequests => CountOrNull(Metrics.DroppedRequests);
    public double? ServerCpuSeconds => Metrics.ServerCpuSeconds.Of(this);
    public double? ServerPeakRssMb => Metrics.ServerPeakRssMb.Of(this);
    public double ClientCpuSeconds => Metrics.ClientCpuSeconds.Of(this) ?? 0;
    public double? MachineCpuSeconds => Metrics.MachineCpuSeconds.Of(this);
    public long Succeeded => Requests - Failed;
    public double? ServerCpuUsPerRequest => Metrics.ServerCpuUsPerRequest.Of(this);
    public double? SwitchesPerRequest => Metrics.SwitchesPerRequest.Of(this);
    public double? OtherCores => Metrics.OtherCores.Of(this);
    public double TimePerRequestAcrossMs => Metrics.TimePerRequestAcrossMs.Of(this) ?? 0;
    public double TransferKBpsReceived => Metrics.TransferKBpsReceived.Of(this) ?? 0;
    public double? TransferKBpsSent => Metrics.TransferKBpsSent.Of(this);

    public bool Equals(Measurement? other) =>
        other is not null && Figures.Count == other.Figures.Count && Figures.All(f => other.Figures.TryGetValue(f.Key, out var v) && v.Equals(f.Value)) &&
        FailureSamples.SequenceEqual(other.FailureSamples) && Limitations.SequenceEqual(other.Limitations) && WindowStartedAt == other.WindowStartedAt &&
        Launch == other.Launch && Round == other.Round && ProcessId == other.ProcessId && Equals(RuntimeCounters, other.RuntimeCounters) && LatencyHistogram == other.LatencyHistogram && Equals(Threads, other.Threads);

    public override int GetHashCode() => HashCode.Combine(Requests, RequestsPerSecond, WindowStartedAt, Launch, Round);
}
