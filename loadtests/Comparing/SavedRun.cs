using Comparator.Results;

namespace Comparator.Comparing;

/// <summary>A saved run read back to be compared or rendered: results.json through <see cref="ResultStore"/>, with its verdicts.</summary>
public static class SavedRun
{
    /// <summary>
    /// Reads a results file (a file that is not one is an error with one line, as <see cref="ResultStore.Deserialize"/> says).
    /// Files saved before the verdicts were stored (schema 1), before the three outcomes (schema 2), or
    /// before verdicts were keyed by their cell (schema 3), are judged on reading by the rule they recorded, so that every renderer reads run.Verdicts alike.
    /// </summary>
    public static RunResult Read(string json, string source)
    {
        var run = ResultStore.Deserialize(json, source);
        return run.Verdicts is null || run.SchemaVersion < 4 ? run with { Verdicts = PairVerdicts.Build(run) } : run;
    }
}
