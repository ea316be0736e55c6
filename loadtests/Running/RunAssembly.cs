using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Running;

/// <summary>
/// The result of a run from its record: one cell per planned cell and target, in the order asked, with every
/// launch's windows or the reason none was measured; the spec with the launches the run ended with; the
/// verdicts. A finished run, a run stopped early and a run rebuilt from its journal are assembled alike.
/// </summary>
public static class RunAssembly
{
    public const string NoRepeat = "stopped before a repeat completed";

    /// <summary>The run as results.json keeps it: each target with the launches it missed, the drivers' agreement and the verdicts, judged by <paramref name="judge"/>.</summary>
    public static RunResult Result(RunRecord record, bool partial, DateTimeOffset finishedAt, JudgeRun judge)
    {
        var cells = Cells(record);
        var targets = record.Targets.Select(t => record.LaunchFailuresOf(t.Name) is { } f ? t with { LaunchFailures = f.ToList() } : t).ToList();
        var result = new RunResult(record.Start.SchemaVersion, Spec(record), record.Start.StartedAt, finishedAt, partial, targets, record.Checks.ToList(),
            DriverAgreement.Flag(cells));
        // A simulated pass the journal holds: its windows on their cells, and where it did not reach its end, the line says so.
        if (record.SimulatedLine is string line)
            result = SimulatedMerge.Merge(result, record.SimulatedWindows, record.SimulatedEnded ? line
                : $"{line}; the pass did not reach its end (rebuilt from the journal with the {record.SimulatedWindows.Values.Sum(w => w.Count)} simulated window(s) it had counted)",
                record.SimulatedSequential, record.SimulatedRuntimes);
        return result with { Verdicts = judge(result), Profile = record.Profile };
    }

    /// <summary>The run so far, for the sequential design's look: the cells as measured, judged by the same rule.</summary>
    public static RunResult Interim(RunRecord record) =>
        new(record.Start.SchemaVersion, Spec(record), record.Start.StartedAt, DateTimeOffset.UtcNow, false, record.Targets.ToList(), record.Checks.ToList(), Cells(record));

    /// <summary>The spec the run started with, and the launches it ran when the design added them.</summary>
    private static RunSpec Spec(RunRecord record)
    {
        var spec = record.Start.Spec;
        return spec.Sequential is not SequentialSpec planned ? spec : spec with
        {
            Launches = record.LaunchesRun,
            Sequential = planned with
            {
                LoadSeconds = Math.Round(record.LoadSeconds, 1), LaunchesRun = record.LaunchesRun, Stopped = record.Stopped, Looks = record.Looks.ToList(),
            },
        };
    }

    private static List<CellResult> Cells(RunRecord record)
    {
        var cells = new List<CellResult>();
        foreach (var planned in record.Start.Cells)
        {
            foreach (var target in record.Start.Targets)
            {
                var key = record.Key(target.Name, planned);
                if (record.Targets.FirstOrDefault(t => t.Name == target.Name) is { Measured: false } info)
                    cells.Add(NotMeasured(record, target, planned, info.NotMeasuredReason!));
                else if (record.WindowsOf(key) is { Count: > 0 } measured)
                    cells.Add(Measured(record, target, planned, measured));
                else if (record.MissedOf(key) is { } why)
                    cells.Add(NotMeasured(record, target, planned, why.Reason, why.Flag));
                else
                    cells.Add(NotMeasured(record, target, planned, NoRepeat));
            }
        }
        return cells;
    }

    private static CellResult Measured(RunRecord record, TargetRuntime target, CellPlan c, IReadOnlyList<Measurement> repeats)
    {
        var rate = record.RateOf(c);
        var cores = record.Start.ProcessorCount;
        var flags = CellFlags.For(repeats, c.Key.Concurrency, cores, record.Start.Precision, rate);
        return new CellResult(record.Key(target.Name, c), target.Runtime, c.SizeLabel, record.Start.Spec.KeepAlive, repeats.ToList(),
            CellMeasurer.MedianRepeat(repeats), repeats.Min(r => r.RequestsPerSecond), repeats.Max(r => r.RequestsPerSecond),
            repeats.Sum(r => r.Failed), repeats.Sum(r => r.Non2xx), flags, null,
            Spread.CoefficientOfVariation(repeats.Select(r => r.RequestsPerSecond).ToList()))
        {
            Bottleneck = BottleneckRule.Of(repeats, c.Key.Concurrency, cores, flags, rate),
        };
    }

    private static CellResult NotMeasured(RunRecord record, TargetRuntime target, CellPlan c, string reason, string flag = CellFlags.NotMeasured) =>
        new(record.Key(target.Name, c), target.Runtime, c.SizeLabel, record.Start.Spec.KeepAlive, Array.Empty<Measurement>(), null, null, null, 0, 0,
            new[] { flag }, reason);
}
