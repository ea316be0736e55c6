using System;
using System.Collections.Generic;
using Comparator.Verification;

namespace Comparator.Results;

/// <summary>
/// One run, immutable: the settings it ran with (kept inside the result, as bombardier does),
/// the targets, the verification, and one record per cell. Renderers only read this.
/// </summary>
public sealed record RunResult(
    int SchemaVersion,
    RunSpec Spec,
    DateTimeOffset StartedAt,
    DateTimeOffset FinishedAt,
    bool Partial,
    IReadOnlyList<TargetInfo> Targets,
    IReadOnlyList<Check> Verification,
    IReadOnlyList<CellResult> Cells)
{
    /// <summary>Bumped whenever a field changes meaning or goes away; readers refuse other versions.</summary>
    public const int CurrentSchemaVersion = 1;
}

/// <summary>What was asked for, and where it ran.</summary>
public sealed record RunSpec(
    IReadOnlyList<string> Targets,
    IReadOnlyList<string> Endpoints,
    IReadOnlyList<PayloadSpec> Sizes,
    IReadOnlyList<int> Concurrency,
    bool KeepAlive,
    double WarmupSeconds,
    double DurationSeconds,
    int Repeat,
    int JsonItems,
    string BaselineTarget,
    IReadOnlyList<DriverInfo> Drivers,
    string? Pin,
    MachineInfo Machine,
    bool ServerHeader = false,
    string? Schedule = null,
    double? PrecisionPercent = null,
    int? MaxRepeat = null,
    double? FirstWarmupSeconds = null)
{
    // Repeat is the fewest repeats a cell got (all of them for a fixed --repeat); MaxRepeat the cap,
    // PrecisionPercent the asked CV of requests/s that stops the rounds; FirstWarmupSeconds the
    // warm-up of each target's first (cold) cell. All null in runs saved before they were recorded.

    /// <summary>How this comparator orders the windows; runs saved before it was recorded ran one target after another.</summary>
    public const string Interleaved = "interleaved: per cell, every repeat runs each target in turn, in alternating order (A B C, C B A...)";
}

public sealed record DriverInfo(string Name, string Description);

public sealed record PayloadSpec(string Label, long Bytes, string Source);

public sealed record MachineInfo(
    string MachineName,
    string OperatingSystem,
    string CpuModel,
    int LogicalCores,
    string DotNetRuntime,
    IReadOnlyDictionary<string, string> Packages);

/// <summary>A target as it was in this run: what it is, where it listened, and whether it was measured.</summary>
public sealed record TargetInfo(
    string Name,
    string Stack,
    string Runtime,
    string Server,
    string? BaseUrl,
    bool External,
    bool Measured,
    string? NotMeasuredReason);
