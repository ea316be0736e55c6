namespace Comparator.Running;

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
