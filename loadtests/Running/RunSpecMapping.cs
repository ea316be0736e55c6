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
    public static RunStart Start(RunOptions options, RunPlan plan, IReadOnlyList<ILoadDriver> drivers, DateTimeOffset startedAt) =>
        new(RunResult.CurrentSchemaVersion, startedAt, Spec(options, plan, drivers), plan.Cells.Select(c => c.Id).ToList(),
            options.Targets.Select(t => new TargetRuntime(t.Name, t.Definition?.Runtime ?? "external")).ToList(),
            Environment.ProcessorCount, options.Repeats.Precision);

    /// <summary>The settings as asked; a design that adds launches records its plan, the launches it ran are added at the end.</summary>
    public static RunSpec Spec(RunOptions options, RunPlan plan, IReadOnlyList<ILoadDriver> drivers) => new(
        options.Targets.Select(t => t.Name).ToList(),
        options.Scenario is Scenario scenario ? scenario.Operations.Select(o => o.Name).Distinct().ToList() : options.Endpoints.Select(e => e.Name).ToList(),
        options.Scenario is not null ? plan.ScenarioSizes : options.Sizes.Select(s => s.Spec).ToList(),
        options.Concurrency,
        options.KeepAlive,
        options.Warmup.TotalSeconds,
        options.Duration.TotalSeconds,
        options.Repeats.MinRepeat,
        options.JsonItems,
        options.BaselineTarget,
        drivers.Select(d => new DriverInfo(d.Name, d.Description)).ToList(),
        options.Pin?.ToString(),
        MachineDescription.Current())
    {
        ServerHeader = options.ServerHeader,
        Schedule = options.Duet ? RunSpec.Duet : RunSpec.Interleaved,
        PrecisionPercent = options.Repeats.Precision * 100,
        MaxRepeat = options.Repeats.MaxRepeat,
        FirstWarmupSeconds = options.ColdWarmup.TotalSeconds,
        Launches = options.Launches,
        Confidence = options.Rule.Confidence,
        MinEffectPercent = options.Rule.MinEffect * 100,
        TcpNoDelay = options.TcpNoDelay,
        Scenario = options.Scenario is Scenario file ? ScenarioSpecOf(file, options) : null,
        Rates = drivers.Any(d => d.HoldsRate) ? options.RatePasses.Select(r => r.Describe()).ToList() : null,
        EquivalencePercent = options.Rule.Equivalence * 100,
        CpuCounters = CpuCounting.Resolve(options.Counters).Line,
        SteadyBoundSeconds = options.Window.SteadyBound.TotalSeconds,
        ProfileSeconds = options.Profile?.Duration.TotalSeconds,
        Label = options.Label,
        Revision = options.Revisions?.GetValueOrDefault(""),
        Cores = options.Allotments.Select(a => a.ToSpec()).ToList(),
        Sequential = options.Rule.Design is SequentialDesign d
            ? new SequentialSpec(d.FirstLook, d.MaxLaunches, options.BudgetSeconds, 0, 0, $"the horizon of {options.Launches} launches", new List<LookSpec>())
            : null,
    };

    private static ScenarioSpec ScenarioSpecOf(Scenario scenario, RunOptions options) => new(scenario.File, scenario.Operations.Select(o => new OperationSpec(o.Name, o.Size?.Label,
        options.Targets.Select(t => (t.Name, Request: Scenario.RequestFor(o, t.Name)!)).Select(t => new OperationRequestSpec(t.Name, t.Request.Method, t.Request.PathAndQuery,
            t.Request.Headers.Select(h => $"{h.Key}: {h.Value}").ToList(), t.Request.BodyFile, t.Request.Body?.LongLength, Scenario.ExpectFor(o, t.Name).Describe(), t.Request.Parts.Describe())).ToList())).ToList());
}
