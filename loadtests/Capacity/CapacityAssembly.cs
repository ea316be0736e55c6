using Comparator.Comparing;
using Comparator.Results;
using Comparator.Running;
using Comparator.Statistics;

namespace Comparator.Capacity;

/// <summary>The capacity run's result from what it measured: each target's summary per cell, then the verdicts between targets.</summary>
public static class CapacityAssembly
{
    public static CapacityResult Result(CapacityOptions options, RunRecord record, IReadOnlyDictionary<CellKey, List<CapacitySearchRecord>> searches,
        DateTimeOffset startedAt, bool partial)
    {
        var cells = searches.Select(s => new CapacityCell(s.Key, s.Value, Summarize(s.Value, options.Judging.Rule, options.AtRate))).ToList();
        var spec = record.Start.Spec with { Launches = record.LaunchesRun > 0 ? record.LaunchesRun : options.Judging.Launches };
        var capacity = new CapacitySpec(options.ObjectiveTexts, options.Precision, options.AtRate, options.StepWarmup.TotalSeconds, options.Step.TotalSeconds, options.Method);
        var targets = record.Targets.Select(t => t with { LaunchFailures = record.LaunchFailuresOf(t.Name) }).ToList();
        return new CapacityResult(CapacityResult.CurrentSchemaVersion, spec, capacity, startedAt, DateTimeOffset.UtcNow, partial, targets, record.Checks, cells,
            CapacityVerdicts.Build(cells, options.Targets.BaselineTarget, options.Judging.Rule, options.ObjectiveTexts));
    }

    /// <summary>
    /// The capacity over launches (geometric mean, Student's t interval over the logs at the rule's confidence),
    /// and the cost at the median launch's highest step that held.
    /// </summary>
    public static CapacitySummary? Summarize(IReadOnlyList<CapacitySearchRecord> launches, LeadRule rule, double? atRate)
    {
        if (launches.Count == 0) return null;
        var held = launches.Where(l => l.Held is not null).OrderBy(l => l.Held).ToList();
        var failedEverywhere = launches.Count(l => l.Held is null && l.Steps.Count > 0);
        if (held.Count == 0)
            return new CapacitySummary(null, null, null, 0, failedEverywhere, null, null, null,
                failedEverywhere > 0 ? "no rate held the objectives in any launch, down to the floor" : "no closed-loop capacity to search from");
        var interval = rule.Interval(held.Select(l => Math.Log(l.Held!.Value)).ToList(), out var whyNot);
        var median = held[(held.Count - 1) / 2];
        var step = median.Steps.Last(s => s.Rate == median.Held);
        var w = step.Window;
        var cpuUs = w.ServerCpuUsPerRequest;
        double? cores = w.ServerCpuSeconds is double s && w.ElapsedSeconds > 0 ? s / w.ElapsedSeconds : null;
        var notes = new List<string>();
        if (interval is null) notes.Add(whyNot ?? "no interval");
        if (failedEverywhere > 0) notes.Add($"{failedEverywhere} launch(es) held no rate");
        if (w.ElapsedSeconds > 0 && w.ClientCpuSeconds / w.ElapsedSeconds >= CellFlags.ClientBoundShare) notes.Add("client-bound at capacity: the driver may set the limit");
        if (w.OtherCores is double other && other >= CellFlags.ContendedCores(Environment.ProcessorCount)) notes.Add("contended: other processes used the cores at capacity");
        if (launches.Any(l => l.Held is not null && l.Broke is null)) notes.Add("held up to the ceiling in a launch: the capacity may be higher");
        var capacity = interval?.Ratio ?? median.Held!.Value;
        var coresAt = atRate is double r ? CoresAt(r, held) : null;
        if (atRate is double asked && asked > capacity) notes.Add(string.Create(CultureInfo.InvariantCulture, $"{asked:0} req/s is above the capacity: its cores are at the cost of the highest rate that held"));
        return new CapacitySummary(capacity, interval?.Low, interval?.High, held.Count, failedEverywhere,
            cpuUs, cores, coresAt, notes.Count > 0 ? string.Join("; ", notes) : null);
    }

    /// <summary>
    /// Cores the server would need at a rate: the rate times the server's CPU per request measured at
    /// the step that held nearest to it in each launch (the median of the launches), as CPU per request
    /// changes with the rate (batching at high rates, idle wake-ups at low ones).
    /// </summary>
    private static double? CoresAt(double rate, IReadOnlyList<CapacitySearchRecord> launches)
    {
        var costs = launches.Select(l => l.Steps.Where(s => s.Failure is null && s.Window.ServerCpuUsPerRequest is not null)
                .OrderBy(s => Math.Abs(Math.Log(s.Rate / rate))).FirstOrDefault()?.Window.ServerCpuUsPerRequest)
            .OfType<double>().OrderBy(c => c).ToList();
        return costs.Count == 0 ? null : rate * costs[(costs.Count - 1) / 2] / 1e6;
    }
}
