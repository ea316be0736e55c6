namespace Comparator.Results;

/// <summary>
/// Which cells a run compares: the first driver's (several drivers cross-check each other; the verdicts,
/// charts and crossovers follow the first, and say so), at the closed loop or at the fixed rates. The
/// one place this choice is made.
/// </summary>
public static class CellsCompared
{
    /// <summary>The driver whose cells are compared: the first the run named; null for a run without drivers.</summary>
    public static string? ComparedDriver(this RunResult run) => run.Spec.Drivers.FirstOrDefault()?.Name;

    /// <summary>The first driver's closed-loop cells, or its fixed-rate cells.</summary>
    public static IReadOnlyList<CellResult> ComparedCells(this RunResult run, bool fixedRate = false)
    {
        var driver = run.ComparedDriver();
        return run.Cells.Where(c => c.Key.Driver == driver && (c.Key.Rate is not null) == fixedRate).ToList();
    }
}
