using Comparator.Drivers;
using Comparator.Results;
using Comparator.Scenarios;
using Comparator.Statistics;

namespace Comparator.Running;

/// <summary>
/// The one place a run's options become what its results record: the spec (settings as asked, in the
/// units results.json keeps: seconds, percents), and the run's start in its journal.
/// </summary>
public static class RunSpecMapping
{
    /// <summary>What the run knows before it measures: the spec, the planned cells, each target's runtime, what judges a cell.</summary>
    public static RunStart Start(RunOptions options, RunPlan plan, IReadOnlyList<ILoadDriver> drivers, DateTimeOffset startedAt)
    {
        var start = Start(options.Targets, options.Cells, options.Window, options.Judging, plan, drivers, startedAt, options.Output.Label);
        return start with { Spec = start.Spec with { ProfileSeconds = options.Output.Profile?.Duration.TotalSeconds } };
    }

    /// <summary>The start from the groups a part reads (capacity, the profile pass): no profile pass of its own; <paramref name="label"/> what the user called it.</summary>
    public static RunStart Start(TargetSet targets, CellGrid cells, WindowSettings window, JudgingPlan judging, RunPlan plan, IReadOnlyList<ILoadDriver> drivers,
        DateTimeOffset startedAt, string? label = null) =>
        new(RunResult.CurrentSchemaVersion, startedAt, Spec(targets, cells, window, judging, plan, drivers) with { Label = label }, plan.Cells.Select(c => c.Plan).ToList(),
            targets.Plans.Select(t => new TargetRuntime(t.Name, t.Definition?.Runtime ?? "external")).ToList(),
            Environment.ProcessorCount, window.Rounds.Precision);

    /// <summary>The settings as asked; a design that adds launches records its plan, the launches it ran are added at the end.</summary>
    private static RunSpec Spec(TargetSet targets, CellGrid cells, WindowSettings window, JudgingPlan judging, RunPlan plan, IReadOnlyList<ILoadDriver> drivers) => new(
        targets.Plans.Select(t => t.Name).ToList(),
        cells.Scenario is Scenario scenario ? scenario.Operations.Select(o => o.Name).Distinct().ToList() : cells.Endpoints.Select(e => e.Name).ToList(),
        cells.Scenario is not null ? plan.ScenarioSizes : cells.Sizes.Select(s => s.Spec).ToList(),
        cells.Concurrency,
        window.KeepAlive,
        window.Warmup.TotalSeconds,
        window.Duration.TotalSeconds,
        window.Rounds.MinRepeat,
        cells.JsonItems,
        targets.BaselineTarget,
        drivers.Select(d => new DriverInfo(d.Name, d.Description)).ToList(),
        cells.Pin?.ToString(),
        MachineDescription.Current())
    {
        ServerHeader = targets.ServerHeader,
        Schedule = window.Duet ? RunSpec.Duet : RunSpec.Interleaved,
        PrecisionPercent = window.Rounds.Precision * 100,
        MaxRepeat = window.Rounds.MaxRepeat,
        FirstWarmupSeconds = window.ColdWarmup.TotalSeconds,
        Launches = judging.Launches,
        Confidence = judging.Rule.Confidence,
        MinEffectPercent = judging.Rule.MinEffect * 100,
        TcpNoDelay = targets.TcpNoDelay,
        Scenario = cells.Scenario is Scenario file ? ScenarioSpecOf(file, targets) : null,
        Rates = drivers.Any(d => d.HoldsRate) ? cells.Rates.Select(r => r.Describe()).ToList() : null,
        EquivalencePercent = judging.Rule.Equivalence * 100,
        CpuCounters = window.CpuCounting.Line,
        SystemCalls = window.CpuCounting.SystemCallsLine,
        SteadyBoundSeconds = window.SteadyBound.TotalSeconds,
        Revision = targets.Revisions?.GetValueOrDefault(""),
        Cores = cells.Allotments.Select(a => a.ToSpec()).ToList(),
        Sequential = judging.Rule.Design is SequentialDesign d
            ? new SequentialSpec(d.FirstLook, d.MaxLaunches, judging.BudgetSeconds, 0, 0, $"the horizon of {judging.Launches} launches", new List<LookSpec>())
            : null,
    };

    private static ScenarioSpec ScenarioSpecOf(Scenario scenario, TargetSet targets) => new(scenario.File, scenario.Operations.Select(o => new OperationSpec(o.Name, o.Size?.Label,
        targets.Plans.Select(t => (t.Name, Request: Scenario.RequestFor(o, t.Name)!)).Select(t => new OperationRequestSpec(t.Name, t.Request.Method, t.Request.PathAndQuery,
            t.Request.Headers.Select(h => $"{h.Key}: {h.Value}").ToList(), t.Request.BodyFile, t.Request.Body?.LongLength, Scenario.ExpectFor(o, t.Name).Describe(), t.Request.Parts.Describe())).ToList())).ToList());
}
