using Comparator.Contracts;
using Comparator.Results;
using Comparator.Statistics;
using Comparator.Targets;

namespace Comparator.Running;

/// <summary>A payload as the run uses it: its label and source for the results, its bytes for the driver.</summary>
public sealed record Payload(PayloadSpec Spec, byte[] Bytes);

/// <summary>Where a target comes from: started by us from the catalogue, or already running at a URL.</summary>
/// <param name="ExternalPid">the process of an external service whose CPU is read (given, or found listening on its loopback port), or null</param>
public sealed record TargetPlan(string Name, TargetDefinition? Definition, Uri? ExternalUrl, int? ExternalPid = null)
{
    public bool IsExternal => ExternalUrl is not null;

    /// <summary>An https target's TLS as first negotiated ("TLS 1.3, TLS_AES_256_GCM_SHA384, certificate validated"); null over plain HTTP.</summary>
    public string? Tls { get; init; }
}

/// <summary>
/// A fixed-rate pass of every cell (open model): an absolute rate in requests/s, or a share of the
/// lower closed-loop capacity of the compared targets in that cell (taken from the first launch).
/// </summary>
public sealed record RateSpec(double? PerSecond, double? ShareOfCapacity)
{
    public string Describe() => PerSecond is double r
        ? r.ToString("0.#", System.Globalization.CultureInfo.InvariantCulture) + " req/s"
        : (ShareOfCapacity!.Value * 100).ToString("0.#", System.Globalization.CultureInfo.InvariantCulture) + "% of the lower closed-loop capacity of the compared targets";
}

/// <summary>
/// What a profile pass samples: each target under each closed-loop cell's load for <paramref name="Duration"/>, its frames read by
/// <paramref name="Layers"/> (a user's --layers file, then the project's profile-layers.json), with perf at <paramref name="Perf"/> (null: on PATH).
/// </summary>
public sealed record ProfileSettings(TimeSpan Duration, IReadOnlyList<LayerRule> Layers, string LayersFile, string? Perf)
{
    public static readonly TimeSpan DefaultDuration = TimeSpan.FromSeconds(5);
}

/// <summary>
/// Everything `run` was asked to do, validated, in the groups its parts read: the targets, the cells, the windows,
/// the judging and the output. A part is handed the groups it reads (the profile pass and capacity never the whole).
/// </summary>
public sealed record RunOptions(TargetSet Targets, CellGrid Cells, WindowSettings Window, JudgingPlan Judging, RunOutput Output)
{
    /// <summary>The cells a launch measures: every cell on every target.</summary>
    public int CellsPerLaunch => Cells.PerTarget * Targets.Plans.Count;

    /// <summary>
    /// Seconds of load one launch puts on when it measures the given share of the cells: their warm-ups and
    /// windows, and the longer cold warm-up of every target started (once per allotment of cores: at most).
    /// </summary>
    public double LaunchLoadSeconds(int cellsMeasured) => cellsMeasured * Window.CellSeconds
        + (cellsMeasured > 0 ? Math.Min(cellsMeasured, Targets.Plans.Count * Cells.Allotments.Count) * (Window.ColdWarmup - Window.Warmup).TotalSeconds : 0);

    /// <summary>Seconds of load the run will put on at the fewest repeats, over every launch, without start-up and verification.</summary>
    public double LoadSeconds => Judging.Launches * LaunchLoadSeconds(CellsPerLaunch);

    /// <summary>Seconds of load if every cell went to the repeat cap.</summary>
    public double MaxLoadSeconds => LoadSeconds + Judging.Launches * CellsPerLaunch * (Window.Rounds.MaxRepeat - Window.Rounds.MinRepeat) * Window.Duration.TotalSeconds;
}
