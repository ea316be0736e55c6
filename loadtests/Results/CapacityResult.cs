namespace Comparator.Results;

/// <summary>
/// capacity.json: a capacity run whole. The run's spec (targets, cells, machine, as `run` records it),
/// the objectives and the search's settings, the targets and their checks, and per target and cell
/// every launch's search with every step's window as measured (rate asked, achieved, latency
/// histogram, CPU), so a report or a diff can be rebuilt from the file alone.
/// </summary>
public sealed record CapacityResult(
    int SchemaVersion,
    RunSpec Spec,
    CapacitySpec Capacity,
    DateTimeOffset StartedAt,
    DateTimeOffset FinishedAt,
    bool Partial,
    IReadOnlyList<TargetInfo> Targets,
    IReadOnlyList<Check> Verification,
    IReadOnlyList<CapacityCell> Cells,
    IReadOnlyList<CapacityVerdict> Verdicts)
{
    public const int CurrentSchemaVersion = 1;
    public const string FileName = "capacity.json";
}

/// <param name="Objectives">as written, such as "p90&lt;=20ms"; every one must hold at a rate for it to count</param>
/// <param name="Precision">the search ends when the lowest rate that broke is within this share of the highest that held</param>
/// <param name="AtRate">--at: the rate whose cores each target would need, from its CPU per request at capacity; null when not asked</param>
/// <param name="StepWarmupSeconds">each step's fixed-rate warm-up before its window</param>
/// <param name="StepSeconds">each step's measured window</param>
/// <param name="Method">how the search works, in words, for the reports</param>
public sealed record CapacitySpec(IReadOnlyList<string> Objectives, double Precision, double? AtRate, double StepWarmupSeconds, double StepSeconds, string Method);

/// <summary>One target in one cell: every launch's search, and the summary the reports show.</summary>
public sealed record CapacityCell(CellKey Key, IReadOnlyList<CapacitySearchRecord> Launches, CapacitySummary? Summary);

/// <summary>
/// One launch's search: the closed-loop requests/s the ramp started from, every step, and where it
/// ended: the highest rate that held (null: none did, down to the floor) and the lowest that broke
/// (null: every rate up to the ceiling held).
/// </summary>
public sealed record CapacitySearchRecord(int Launch, double ClosedLoopRps, IReadOnlyList<CapacityStepRecord> Steps, double? Held, double? Broke, double Floor, double Ceiling);

/// <param name="Failure">null when the step held every objective; else what broke first ("overloaded: …", "p90 31.2 ms over 20 ms")</param>
/// <param name="ObjectiveMs">the window's latency at each objective's percentile, in the order of the objectives</param>
public sealed record CapacityStepRecord(double Rate, string? Failure, IReadOnlyList<double?> ObjectiveMs, Measurement Window);

/// <summary>
/// A target's capacity in a cell over its launches: the geometric mean of the launches' capacities
/// and its interval (Student's t over their logs); the server's CPU per request and cores busy at the
/// highest step that held (the median launch's); the cores --at's rate would take, at the CPU per
/// request of the step that held nearest to that rate.
/// </summary>
/// <param name="Launches">launches with a capacity; <paramref name="FailedEverywhere"/> of them found none down to the floor</param>
public sealed record CapacitySummary(double? Capacity, double? Low, double? High, int Launches, int FailedEverywhere,
    double? ServerCpuUsPerRequest, double? ServerCoresAtCapacity, double? CoresAtRate, string? Note);

/// <summary>
/// One target's capacity against the baseline's in a cell, by the lead rule (per-launch log ratios):
/// Leader is the target with the higher capacity when the interval lies wholly beyond the minimum
/// effect; Outcome is higher, lower, equivalent or unsettled; Reason says why not where none is claimed.
/// </summary>
public sealed record CapacityVerdict(string Endpoint, long SizeBytes, int Concurrency, string? Cores, string Baseline, string Other,
    string Outcome, string? Leader, double? Ratio, double? RatioLow, double? RatioHigh, int Units, string? Reason);
