namespace Comparator.Results;

/// <summary>
/// One soak, immutable: its settings, and per target the verified request counts and the resident
/// memory over time. Written as soak.json; the console table only reads it.
/// </summary>
public sealed record SoakResult(
    int SchemaVersion,
    SoakSpec Spec,
    DateTimeOffset StartedAt,
    DateTimeOffset FinishedAt,
    bool Partial,
    IReadOnlyList<SoakTargetResult> Targets)
{
    public const int CurrentSchemaVersion = 1;
}

/// <summary>
/// What the soak ran: every target at once, cycling through the cells, one window per cell, for the
/// duration and for MinimumPasses passes at least (null in files saved before the soak ran past the
/// duration to finish them).
/// </summary>
public sealed record SoakSpec(
    double DurationSeconds,
    int Concurrency,
    double WindowSeconds,
    IReadOnlyList<string> Cells,
    string Driver,
    string GrowthRule,
    MachineInfo Machine,
    bool? TcpNoDelay = null,
    int? MinimumPasses = null);

/// <summary>RSS (VmRSS) of a target at a moment of the soak, in MiB.</summary>
public sealed record RssSample(double Seconds, double RssMb);

/// <summary>
/// A target's soak. Failed counts every request that was not a verified success (Non2xx, Errors
/// and Timeouts are parts of it). RSS is sampled every 5 s (Rss) and at the end of every pass over
/// the cells (RssAtPassEndsMb), which the growth verdict ("none", "flagged", "undetermined") reads.
/// PastDurationSeconds: when the target's load ended, where it ran past the duration to finish the
/// passes the verdict needs (its passes were slower than planned); null when it ended with the duration.
/// </summary>
public sealed record SoakTargetResult(
    string Name,
    string Stack,
    string Runtime,
    string Server,
    string? NotRunReason,
    bool ExitedDuringSoak,
    long Requests,
    long Failed,
    long Non2xx,
    long Errors,
    long Timeouts,
    double ElapsedSeconds,
    int Passes,
    IReadOnlyList<string> FailureSamples)
{
    // The memory figures are init properties, after the counts, in soak.json's order.
    public required IReadOnlyList<RssSample> Rss { get; init; }
    public required IReadOnlyList<double> RssAtPassEndsMb { get; init; }
    public double? RssStartMb { get; init; }
    public double? RssAfterFirstPassMb { get; init; }
    public double? RssLateMedianMb { get; init; }
    public double? RssEndMb { get; init; }
    public double? RssPeakMb { get; init; }
    public required string Growth { get; init; }
    public required string GrowthDetail { get; init; }
    public double? PastDurationSeconds { get; init; }
}
