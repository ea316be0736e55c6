using Comparator.Results;

namespace Comparator.Running;

/// <summary>
/// The simulated pass's windows put on their cells: each cell's summary carrying the median of its launches' counts per request (the
/// figure the tables quote; <see cref="CellResult.PerLaunch"/>), the spec the line that says what was counted and how the pass added launches. The pass as it ends and a
/// run rebuilt from its journal (<see cref="RunAssembly"/>) merge alike, so a killed run keeps every simulated window it had counted.
/// </summary>
public static class SimulatedMerge
{
    public static RunResult Merge(RunResult run, IReadOnlyDictionary<CellKey, IReadOnlyList<Measurement>> windows, string line, SequentialSpec? sequential,
        IReadOnlyDictionary<string, string>? runtimes = null) => run with
    {
        Cells = run.Cells.Select(c => windows.TryGetValue(c.Key, out var simulated) && simulated.Count > 0
            ? c with
            {
                Simulated = simulated,
                Summary = c.Summary?.With(Metrics.SimulatedInstructionsPerRequest,
                    CellResult.Median(CellResult.PerLaunch(simulated).Select(w => Metrics.SimulatedInstructionsPerRequest.Of(w)).OfType<double>().ToList())),
            }
            : c).ToList(),
        Spec = run.Spec with { SimulatedCounters = line, SimulatedSequential = sequential, SimulatedRuntimes = runtimes },
    };
}
