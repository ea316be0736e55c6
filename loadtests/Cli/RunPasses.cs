using System.Threading;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;

namespace Comparator.Cli;

/// <summary>
/// A run's passes in their one order, shared by run and calibrate: the measured launches, then the profile pass (--profile), then the
/// simulated pass (--counters simulated), then every verdict judged with what they added. Each pass after the first is apart from the judged
/// windows: it runs after them, in launches of its own, and is journaled so a killed run keeps it.
/// </summary>
public static class RunPasses
{
    /// <param name="measure">how the measured launches are shown while they run (a live table, or progress lines); null: progress lines</param>
    public static async Task<RunResult> RunAsync(RunOptions options, IReadOnlyList<ILoadDriver> drivers, ITargetLauncher launcher, BuildLayout layout,
        RunJournal journal, string directory, IRunProgress progress, CancellationToken cancellationToken,
        Func<Func<IRunProgress, Task<RunResult>>, Task<RunResult>>? measure = null)
    {
        Task<RunResult> Run(IRunProgress p) => new RunOrchestrator(options, drivers, launcher, p, PairVerdicts.Build).RunAsync(cancellationToken, journal);
        var measured = await (measure is null ? Run(progress) : measure(Run));
        var profiled = await ProfiledAsync(measured, options, drivers, layout, journal, directory, progress, cancellationToken);
        return await SimulatedAsync(profiled, options, drivers, layout, directory, journal, progress, cancellationToken);
    }

    /// <summary>
    /// The run with its profile pass (--profile), taken after the run's end and journaled after it: the measured windows are
    /// the same with and without it. A run stopped by the user is not profiled.
    /// </summary>
    public static async Task<RunResult> ProfiledAsync(RunResult run, RunOptions options, IReadOnlyList<ILoadDriver> drivers, BuildLayout layout,
        RunJournal journal, string directory, IRunProgress progress, CancellationToken cancellationToken)
    {
        if (options.Output.Profile is not ProfileSettings settings || cancellationToken.IsCancellationRequested) return run;
        var profile = Profiling.ProfilePass.WithMeasured(await Profiling.ProfilePass.RunAsync(options.Targets, options.Cells, options.Window, settings, drivers, layout,
            directory, progress, cancellationToken), run);
        journal.Append(new JournalEntry(JournalEntry.IsProfile, DateTimeOffset.UtcNow) { Profile = profile });
        return run with { Profile = profile };
    }

    /// <summary>
    /// The run with its simulated pass (--counters simulated or both), taken after the measured windows and the profile, its windows
    /// on their cells (each journaled as it is read) and every verdict judged again with them (the same rule). A run stopped by the user is not simulated.
    /// </summary>
    public static async Task<RunResult> SimulatedAsync(RunResult run, RunOptions options, IReadOnlyList<ILoadDriver> drivers, BuildLayout layout,
        string directory, RunJournal? journal, IRunProgress progress, CancellationToken cancellationToken)
    {
        if (options.Output.Simulation is not SimulationSettings settings || cancellationToken.IsCancellationRequested) return run;
        var simulated = await Simulating.SimulationPass.RunAsync(run, options.Targets, options.Cells, options.Window, settings, drivers, layout, directory, journal,
            progress, cancellationToken);
        foreach (var failure in simulated.Failures) progress.Message("simulate: " + failure);
        var merged = Simulating.SimulationPass.Merge(run, simulated);
        return merged with { Verdicts = PairVerdicts.Build(merged) };
    }
}
