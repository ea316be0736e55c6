using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Reports;

/// <summary>A column of the per-cell table: its name, unit and meaning, kept apart from the values.</summary>
public sealed record CellColumn(string Name, string Unit, string Description, Func<CellResult, object?> Value);

/// <summary>
/// The per-cell columns, in results.csv order. The names are fixed (tools and spreadsheets read
/// them); ab's terms are given in the descriptions.
/// </summary>
public static class CellColumns
{
    public static IReadOnlyList<CellColumn> All { get; } = new CellColumn[]
    {
        new("target", "", "target name", c => c.Key.Target),
        new("runtime", "", "runtime the target ran on", c => c.Runtime),
        new("endpoint", "", "contract endpoint, or scenario operation", c => c.Key.Endpoint),
        new("size_bytes", "B", "request body size (0 for time and json)", c => c.Key.SizeBytes),
        new("concurrency", "", "concurrent closed-loop workers", c => c.Key.Concurrency),
        new("keep_alive", "", "connections reused", c => c.KeepAlive ? "true" : "false"),
        new("driver", "", "load driver", c => c.Key.Driver),
        new("cores", "", "the allotment of cores the server had: N of its own, or shared with the driver (--server-cores)", c => c.Key.Cores),
        new("requests", "", "ab: Complete requests, less any ab wrote on a connection the server had closed (see limitations) (median repeat)", c => c.Summary?.Requests),
        new("failed", "", "ab: Failed requests, total over all repeats (non-2xx, errors, timeouts, wrong bodies)", c => c.FailedTotal),
        new("non_2xx", "", "ab: Non-2xx responses, total over all repeats", c => c.Non2xxTotal),
        new("errors", "", "connection or protocol errors (median repeat)", c => c.Summary?.Errors),
        new("timeouts", "", "requests that timed out (median repeat)", c => c.Summary?.Timeouts),
        new("rps", "1/s", "ab: Requests per second, successful only (median repeat)", c => c.Summary?.RequestsPerSecond),
        new("rps_min", "1/s", "lowest requests/s of the repeats", c => c.RpsMin),
        new("rps_max", "1/s", "highest requests/s of the repeats", c => c.RpsMax),
        new("cv", "%", "coefficient of variation of requests/s over the repeats (sample stddev / mean, percent; 0 for one repeat)", c => c.RpsCv * 100),
        new("time_per_request_ms", "ms", "ab: Time per request (mean): concurrency x elapsed / requests", c => c.Summary is { } s && s.Succeeded > 0 ? c.Key.Concurrency * s.ElapsedSeconds * 1000 / s.Succeeded : null),
        new("time_per_request_all_ms", "ms", "ab: Time per request (mean, across all concurrent requests): elapsed / requests", c => c.Summary is { Succeeded: > 0 } s ? s.TimePerRequestAcrossMs : null),
        Latency("mean", "mean latency of successful requests", s => s.LatencyMeanMs),
        Latency("p50", "latency percentile 50", s => s.LatencyP50Ms),
        Latency("p90", "latency percentile 90", s => s.LatencyP90Ms),
        Latency("p99", "latency percentile 99", s => s.LatencyP99Ms),
        Latency("max", "highest latency of any repeat", s => s.LatencyMaxMs),
        new("bytes_received", "B", "ab: Total transferred: bytes read from the sockets, heads and chunk framing included", c => c.Summary?.BytesReceived),
        new("bytes_sent", "B", "ab: Total sent: bytes written to the sockets", c => c.Summary?.BytesSent),
        new("body_bytes_received", "B", "ab: HTML transferred: response body bytes after de-framing", c => c.Summary?.BodyBytesReceived),
        new("connections_opened", "", "connections the driver opened in the window (keep-alive on: more than concurrency means the server closed some)", c => c.Summary?.ConnectionsOpened),
        new("tls_handshakes", "", "https targets: TLS handshakes in the window, one per connection opened (the byte columns then count TLS records); empty over plain HTTP", c => c.Summary?.TlsHandshakes),
        new("bytes_received_per_request", "B", "wire bytes received per request", c => c.Summary is { Requests: > 0 } s ? (double)s.BytesReceived / s.Requests : null),
        new("transfer_kbps_received", "KiB/s", "ab: Transfer rate, received", c => c.Summary?.TransferKBpsReceived),
        new("transfer_kbps_sent", "KiB/s", "ab: Transfer rate, sent", c => c.Summary?.TransferKBpsSent),
        new("server_cpu_us_per_request", "µs", "server process CPU (user+system, /proc) over the window / successful requests", c => c.Summary?.ServerCpuUsPerRequest),
        new("server_peak_rss_mb", "MiB", "server peak resident set (VmHWM) at the end of the window", c => c.Summary?.ServerPeakRssMb),
        new("client_cpu_seconds", "s", "driver process CPU over the window", c => c.Summary?.ClientCpuSeconds),
        new("rate_asked", "", "fixed-rate cells: requests/s sent at a constant arrival rate (open model), latency counted from each request's intended send time; empty for the closed loop", c => c.Key.Rate),
        new("late_requests", "", "fixed-rate cells: requests whose intended send time came while their connection still waited for the previous answer (the server did not keep up)", c => c.Summary?.LateRequests),
        new("dropped_requests", "", "fixed-rate cells: requests due in the window that could not be sent before it ended", c => c.Summary?.DroppedRequests),
        Latency("p999", "latency percentile 99.9 (socket driver: from its HDR histogram)", s => s.LatencyP999Ms),
        new("bottleneck", "", "what bounded the cell: server, client, machine, wait (cores less than half busy), unknown (no server CPU)", c => c.Bottleneck?.Kind),
        new("cores_busy", "cores", "server plus driver CPU seconds per second of the window", c => c.Bottleneck?.CoresBusy),
        new("in_flight_ms", "ms", "time each request was in flight, by Little's law: concurrency / req/s", c => c.Bottleneck?.InFlightMs),
        new("cpu_us_per_request", "µs", "server plus driver CPU per successful request", c => c.Bottleneck?.CpuUsPerRequest),
        new("server_cpus", "", "the CPUs the server process was allowed, read back from /proc/PID/status (Cpus_allowed_list) in its median window", c => c.Summary?.Threads?.CpusAllowed),
        new("switches_per_request", "1/req", "the server's context switches (voluntary + involuntary, every thread, /proc/PID/task/*/status) per successful request", c => c.Summary?.SwitchesPerRequest),
        new("voluntary_switches", "", "the server's voluntary context switches over the window (a thread waited: socket, lock, another thread)", c => c.Summary?.Threads?.VoluntarySwitches),
        new("involuntary_switches", "", "the server's involuntary context switches over the window (the scheduler took the core away)", c => c.Summary?.Threads?.InvoluntarySwitches),
        new("server_threads", "threads", "threads of the server process at the window's end (/proc/PID/task)", c => c.Summary?.Threads?.ThreadsAtEnd),
        new("threadpool_threads", "threads", ".NET targets: thread-pool threads at the window's end (runtime counters)", c => c.Summary?.Counters?.ThreadPoolThreadsAtEnd),
        new("threadpool_queue", "items", ".NET targets: work items waiting for a pool thread, median sample", c => c.Summary?.Counters?.ThreadPoolQueueLengthMedian),
        new("time_in_gc_pct", "%", ".NET targets: time in GC, mean sample", c => c.Summary?.Counters?.TimeInGcPercent),
        new("alloc_mb_per_s", "MiB/s", ".NET targets: bytes allocated per second", c => c.Summary?.Counters is { } k ? k.AllocatedBytesPerSecond / (1024 * 1024) : null),
        new("flags", "", string.Join(", ", CellFlags.Meanings().Select(m => m.Name)), c => string.Join(' ', c.Flags)),
        new("limitations", "", "figures this driver cannot give (n/a in their columns) and why", c => c.Summary is { } s ? string.Join("; ", s.Limitations) : null),
        new("not_measured_reason", "", "why a cell has no figures", c => c.NotMeasuredReason),
    };

    /// <summary>A latency column of the median repeat, in ms: latency_{figure}_ms.</summary>
    private static CellColumn Latency(string figure, string description, Func<Measurement, double?> value) =>
        new($"latency_{figure}_ms", "ms", description, c => c.Summary is { } s ? value(s) : null);

    /// <summary>
    /// A column's text for a cell: empty where the cell was not measured at all, "n/a" where it was
    /// but the driver cannot give that figure (the limitations column says why).
    /// </summary>
    public static string FormatFor(CellResult cell, CellColumn column)
    {
        var value = column.Value(cell);
        return value is null && cell.Summary is not null && column.Unit.Length > 0 ? "n/a" : Format(value);
    }

    /// <summary>Invariant text for a value: integers as they are, other numbers to 3 decimals, null as empty.</summary>
    public static string Format(object? value) => value switch
    {
        null => "",
        double d => d.ToString("0.###", CultureInfo.InvariantCulture),
        long l => l.ToString(CultureInfo.InvariantCulture),
        int i => i.ToString(CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };
}
