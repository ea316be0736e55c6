using Comparator.Results;
using Comparator.Statistics;
using Comparator.Reports.Exporters;

namespace Comparator.Reports.Sections;

/// <summary>A column of the per-cell table: its name, unit and meaning, kept apart from the values.</summary>
public sealed record CellColumn(string Name, string Unit, string Description, Func<CellResult, object?> Value);

/// <summary>
/// The per-cell columns, in results.csv order. The names are fixed (tools and spreadsheets read
/// them); ab's terms are given in the descriptions.
/// </summary>
public static class CellColumns
{
    public static IReadOnlyList<CellColumn> All => AllColumns.Value;

    private static readonly Lazy<IReadOnlyList<CellColumn>> AllColumns = new(() => Placed!.Concat(Unplaced()).Concat(Closing!).ToList());

    /// <summary>The columns in the order tools already read; a figure added to the catalogue since comes after them (<see cref="Unplaced"/>).</summary>
    private static readonly CellColumn[] Placed =
    {
        new("target", "", "target name", c => c.Key.Target),
        new("runtime", "", "runtime the target ran on", c => c.Runtime),
        new("endpoint", "", "contract endpoint, or scenario operation", c => c.Key.Endpoint),
        new("size_bytes", "B", "request body size (0 for time and json)", c => c.Key.SizeBytes),
        new("concurrency", "", "concurrent closed-loop workers", c => c.Key.Concurrency),
        new("keep_alive", "", "connections reused", c => c.KeepAlive ? "true" : "false"),
        new("driver", "", "load driver", c => c.Key.Driver),
        new("cores", "", "the allotment of cores the server had: N of its own, or shared with the driver (--server-cores)", c => c.Key.Cores),
        Figure(Metrics.Requests),
        new("failed", "", "ab: Failed requests, total over all repeats (non-2xx, errors, timeouts, wrong bodies)", c => c.FailedTotal),
        new("non_2xx", "", "ab: Non-2xx responses, total over all repeats", c => c.Non2xxTotal),
        Figure(Metrics.Errors),
        Figure(Metrics.Timeouts),
        Figure(Metrics.RequestsPerSecond),
        new("rps_min", "1/s", "lowest requests/s of the repeats", c => c.RpsMin),
        new("rps_max", "1/s", "highest requests/s of the repeats", c => c.RpsMax),
        new("cv", "%", "coefficient of variation of requests/s over the repeats (sample stddev / mean, percent; 0 for one repeat)", c => c.RpsCv * 100),
        new("time_per_request_ms", "ms", "ab: Time per request (mean): concurrency x elapsed / requests", c => c.Summary is { } s && s.Succeeded > 0 ? c.Key.Concurrency * s.ElapsedSeconds * 1000 / s.Succeeded : null),
        new("time_per_request_all_ms", "ms", Metrics.TimePerRequestAcrossMs.Description, c => c.Summary is { Succeeded: > 0 } s ? s.TimePerRequestAcrossMs : null),
        Figure(Metrics.LatencyMeanMs),
        Figure(Metrics.LatencyP50Ms),
        Figure(Metrics.LatencyP90Ms),
        Figure(Metrics.LatencyP99Ms),
        Figure(Metrics.LatencyMaxMs),
        Figure(Metrics.BytesReceived),
        Figure(Metrics.BytesSent),
        Figure(Metrics.BodyBytesReceived),
        Figure(Metrics.ConnectionsOpened),
        Figure(Metrics.TlsHandshakes),
        Figure(Metrics.BytesPerRequest),
        Figure(Metrics.TransferKBpsReceived),
        Figure(Metrics.TransferKBpsSent),
        Figure(Metrics.ServerCpuUsPerRequest),
        Figure(Metrics.ServerPeakRssMb),
        Figure(Metrics.ClientCpuSeconds),
        new("rate_asked", "", "fixed-rate cells: requests/s sent at a constant arrival rate (open model), latency counted from each request's intended send time; empty for the closed loop", c => c.Key.Rate),
        Figure(Metrics.LateRequests),
        Figure(Metrics.DroppedRequests),
        Figure(Metrics.LatencyP999Ms),
        new("bottleneck", "", "what bounded the cell: server, client, machine, wait (cores less than half busy), unknown (no server CPU)", c => c.Bottleneck?.Kind),
        new("cores_busy", "cores", "server plus driver CPU seconds per second of the window", c => c.Bottleneck?.CoresBusy),
        new("in_flight_ms", "ms", "time each request was in flight, by Little's law: concurrency / req/s", c => c.Bottleneck?.InFlightMs),
        new("cpu_us_per_request", "µs", "server plus driver CPU per successful request", c => c.Bottleneck?.CpuUsPerRequest),
        new("server_cpus", "", "the CPUs the server process was allowed, read back from /proc/PID/status (Cpus_allowed_list) in its median window", c => c.Summary?.Threads?.CpusAllowed),
        Figure(Metrics.SwitchesPerRequest),
        Figure(Metrics.VoluntarySwitches),
        Figure(Metrics.InvoluntarySwitches),
        Figure(Metrics.ServerThreads),
        Figure(Metrics.ThreadPoolThreads),
        Figure(Metrics.ThreadPoolQueue),
        Figure(Metrics.TimeInGcPercent),
        Figure(Metrics.AllocatedMbPerSecond),
    };

    /// <summary>What describes a cell after its figures: flags, limitations, why it was not measured.</summary>
    private static readonly CellColumn[] Closing =
    {
        new("flags", "", string.Join(", ", CellFlags.Meanings().Select(m => m.Name)), c => string.Join(' ', c.Flags)),
        new("limitations", "", "figures this driver cannot give (n/a in their columns) and why", c => c.Summary is { } s ? string.Join("; ", s.Limitations) : null),
        new("not_measured_reason", "", "why a cell has no figures", c => c.NotMeasuredReason),
    };

    /// <summary>A figure of the catalogue as the median window's column: its name, unit and meaning from its descriptor.</summary>
    private static CellColumn Figure(MetricDescriptor m) => new(m.Column!, m.Unit, m.Description, c => c.Summary is { } s ? m.Of(s) : null);

    /// <summary>Every figure with a CSV column that <see cref="Placed"/> does not name, in the catalogue's order.</summary>
    private static IEnumerable<CellColumn> Unplaced() =>
        Metrics.All.Where(m => m.Column is not null && Placed.All(c => c.Name != m.Column)).Select(Figure);

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
