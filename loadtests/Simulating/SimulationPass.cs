using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Statistics;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;

namespace Comparator.Simulating;

/// <summary>The simulated pass's windows by the measured cell they belong to, its one line (what was counted, or why nothing was), and how it added launches.</summary>
public sealed record SimulationResult(IReadOnlyDictionary<CellKey, IReadOnlyList<Measurement>> Windows, string Line, IReadOnlyList<string> Failures,
    SequentialSpec? Sequential = null, IReadOnlyDictionary<string, string>? Runtimes = null)
{
    /// <summary>The line with every failure after it: what the spec line and the journal keep.</summary>
    public string FullLine => Line + (Failures.Count > 0 ? "; " + string.Join("; ", Failures) : "");
}

/// <summary>
/// The simulated pass: after every measured window and apart from them (as the profile pass), each target started afresh under valgrind's
/// callgrind in launches of its own (<see cref="SimulatedLaunch"/>). A window's figure is the user-mode instructions of every thread but those
/// that spent it compiling, per successful request. Launches stay the unit of evidence: the verdict pairs the two sides' windows by launch and
/// round as it pairs measured ones. By default three launches run, then after each launch the cells whose simulated judgment is not settled
/// get one more, by a sequential design of the pass's own (Lan–DeMets α spending, so every stated rate holds whenever a cell stopped), until
/// every cell settles, the horizon is reached, or the next launch would not fit the pass's budget. Every window is journaled as it is read,
/// so a run killed in the pass keeps what it counted. Fixed-rate cells are not simulated: a simulated server is 50-100 times slower, so no
/// asked rate means there what it means on the real CPU.
/// </summary>
public static class SimulationPass
{
    public static async Task<SimulationResult> RunAsync(RunResult measured, TargetSet targets, CellGrid grid, WindowSettings window, SimulationSettings settings,
        IReadOnlyList<ILoadDriver> drivers, BuildLayout layout, string directory, RunJournal? journal, IRunProgress progress, CancellationToken cancellationToken)
    {
        var empty = new Dictionary<CellKey, IReadOnlyList<Measurement>>();
        var (simulator, line) = await CallgrindSimulator.FindAsync();
        if (simulator is null)
        {
            progress.Message(line);
            return new SimulationResult(empty, line, Array.Empty<string>());
        }
        var pause = SimulatedLaunch.PauseFor(targets);
        var design = settings.Sequential ? new SequentialDesign(settings.Launches, settings.MaxLaunches) : null;
        var how = (design is null ? $"{settings.Launches} launches" : $"{settings.Launches} launches, then launches added to unsettled cells " +
                      $"({design.Describe()}) within {Seconds(settings.Budget)}") +
                  $", every target afresh under callgrind in each, side by side; per closed-loop cell {Seconds(settings.Warmup)} of warm-up with counting off " +
                  $"({Seconds(settings.FirstWarmup)} for a launch's first), then counting on, {settings.DiscardRequests} requests counted and not read, then " +
                  $"{settings.Rounds} windows of at least {settings.WindowRequests} requests and " +
                  $"{Seconds(settings.WindowTime)}, whole connections where the server says how many requests it serves on one, on at most {settings.Connections} " +
                  "connection(s)" + (pause > TimeSpan.Zero ? $", each request sent {pause.TotalMilliseconds:0.#} ms after the answer before it (a .NET target's worker then waits for every request at rest)" : "") +
                  "; a launch's figure its windows' median";
        progress.Message("simulate: " + how);
        line += "; " + Runtimes(targets, settings.DotNet) + "; " + how;
        var failures = new List<string>();
        // A service given by URL runs outside the comparator: it cannot be started under the simulator. Said once, not per cell.
        foreach (var external in targets.Plans.Where(t => t.ExternalUrl is not null))
            failures.Add($"{external.Name}: not simulated: a service given by URL runs outside the comparator, so it cannot be started under the simulator");
        // A command of no runtime it knows may be a wrapper (a shell) that execs or forks the service: the simulator counts only the
        // program it starts, so the count could be the wrapper's alone.
        foreach (var other in targets.Plans.Where(t => t.Definition?.Host == HostRuntime.Other))
            failures.Add($"{other.Name}: not simulated: its runtime was not found from its command (neither mono X.exe nor dotnet X.dll), and the simulator counts " +
                         "only the program it starts: a wrapper that starts the service would leave the service uncounted");
        var plan = new RunPlan(grid, drivers);
        var allotment = grid.Allotments[0];
        var driver = drivers[0];
        var cells = plan.Cells.Where(c => c.Plan.Rate is null && c.Driver == driver && c.Cores == allotment).ToList();
        var simulatedWindow = window with { RequestTimeout = TimeSpan.FromSeconds(Math.Max(30, window.RequestTimeout.TotalSeconds)) };
        var pass = new SimulationContext(simulator, targets, grid, simulatedWindow, settings, plan, driver, layout, directory, progress, failures) { Pause = pause };
        SequentialSpec? Spec(int launches, string stopped, IReadOnlyList<LookSpec> looks, double seconds) => design is null ? null
            : new SequentialSpec(design.FirstLook, design.MaxLaunches, settings.Budget.TotalSeconds, Math.Round(seconds, 1), launches, stopped, looks);
        var runtimes = targets.Plans.Where(SimulatedLaunch.Simulable).ToDictionary(t => t.Name, t => RuntimeOf(t, settings.DotNet));
        journal?.Append(new JournalEntry(JournalEntry.IsSimulatedStart, DateTimeOffset.UtcNow)
            { Note = line, Sequential = Spec(0, "", Array.Empty<LookSpec>(), 0), Runtimes = runtimes });

        var windows = new Dictionary<CellKey, List<Measurement>>();
        var looks = new List<LookSpec>();
        var launchTimes = new List<SimulatedLaunchResult>();
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var pending = cells;
        var stopped = "";
        var launch = 0;
        var anySimulable = targets.Plans.Any(SimulatedLaunch.Simulable);
        for (; anySimulable && !cancellationToken.IsCancellationRequested; launch++)
        {
            if (design is null && launch >= settings.Launches) break;
            if (design is not null && launch >= design.FirstLook)
            {
                // A look: the cells whose simulated judgment is not settled get the next launch, if it fits the budget and the horizon.
                var unsettled = Unsettled(measured, cells, windows, line, Spec(launch, "", looks, clock.Elapsed.TotalSeconds));
                looks.Add(new LookSpec(launch, Math.Round(clock.Elapsed.TotalSeconds, 1), cells.Count, cells.Count - unsettled.Count));
                if (unsettled.Count == 0) { stopped = "every cell settled"; break; }
                if (launch >= design.MaxLaunches) { stopped = $"the horizon ({design.MaxLaunches} launches)"; break; }
                var estimate = launchTimes.Average(l => l.StartSeconds) + launchTimes.Average(l => l.CellSeconds) * unsettled.Count;
                if (clock.Elapsed.TotalSeconds + estimate > settings.Budget.TotalSeconds)
                {
                    stopped = $"the budget ({Seconds(settings.Budget)}: the next launch would take about {estimate:0} s more)";
                    break;
                }
                pending = unsettled;
            }
            var launched = await SimulatedLaunch.RunAsync(pass, launch, pending, cancellationToken);
            launchTimes.Add(launched);
            foreach (var (key, counted) in launched.Windows)
            {
                (windows.TryGetValue(key, out var list) ? list : windows[key] = new List<Measurement>()).Add(counted);
                journal?.Append(new JournalEntry(JournalEntry.IsSimulatedWindow, DateTimeOffset.UtcNow) { Key = key, Window = counted });
            }
        }
        if (cancellationToken.IsCancellationRequested) stopped = "stopped by the user";
        else if (stopped.Length == 0) stopped = design is null ? $"{settings.Launches} launches, as asked" : "no target to simulate";

        // Said either way: a dump that needed wake-up connections counted their work in its window (CallgrindSimulator.DumpAsync).
        var (asked, woken) = simulator.DumpCounts;
        if (asked > 0) line += woken == 0 ? $"; all {asked} dumps read between windows with no request in flight"
            : $"; {woken} of {asked} dumps needed wake-up connections, whose work their windows count";
        var setAside = launchTimes.Sum(l => l.SetAside);
        if (asked > 0) line += $"; {setAside} window(s) set aside in which the JIT compiled more than {MostCompiling:0%} of the count, each counted again";
        var starts = launchTimes.Sum(l => l.Starts);
        var restarts = launchTimes.SelectMany(l => l.Restarts).ToList();
        if (starts > 0) line += $"; {starts} starts under the simulator, {restarts.Count} of them did not come up and were tried again" +
                                (restarts.Count == 0 ? "" : $" ({string.Join("; ", restarts)})");
        if (design is not null) line += $"; {launch} launch(es) in {clock.Elapsed.TotalSeconds:0} s, stopped at {stopped}";
        var result = new SimulationResult(windows.ToDictionary(w => w.Key, w => (IReadOnlyList<Measurement>)w.Value), line, failures,
            Spec(launch, stopped, looks, clock.Elapsed.TotalSeconds), runtimes);
        journal?.Append(new JournalEntry(JournalEntry.IsSimulatedEnd, DateTimeOffset.UtcNow) { Note = result.FullLine, Sequential = result.Sequential });
        return result;
    }

    /// <summary>
    /// The cells whose simulated judgment is not settled yet, judged as the run's verdicts will judge them (the same rule, the pass's design
    /// at this many launches): a cell where any side's simulated verdict has an interval that is neither a lead nor equivalent. A cell with no
    /// interval (a side failed requests, or missed its launches) gets none: more launches would not judge it.
    /// </summary>
    public static List<PlannedCell> Unsettled(RunResult measured, IReadOnlyList<PlannedCell> cells, IReadOnlyDictionary<CellKey, List<Measurement>> windows,
        string line, SequentialSpec? design)
    {
        var merged = Merge(measured, new SimulationResult(windows.ToDictionary(w => w.Key, w => (IReadOnlyList<Measurement>)w.Value), line, Array.Empty<string>(), design));
        var verdicts = PairVerdicts.Build(merged).Where(v => v.Metric == Metrics.SimulatedInstructionsPerRequest.VerdictId && v.Key.Rate is null).ToList();
        return cells.Where(cell => verdicts.Any(v => cell.Plan.For(v.Key.Target, null) == v.Key && v.RatioLow is not null && v.Outcome == CellVerdict.Unsettled))
            .ToList();
    }

    /// <summary>
    /// What each runtime among the simulated targets ran with, every target of a runtime alike: "Mono: MONO_DEBUG=explicit-null-checks; .NET:
    /// DOTNET_EnableWriteXorExecute=0 DOTNET_TieredCompilation=0 DOTNET_ReadyToRun=0, one-compile: ...".
    /// </summary>
    public static string Runtimes(TargetSet targets, DotNetUnderSimulation dotnet)
    {
        var hosts = targets.Plans.Where(SimulatedLaunch.Simulable).Select(t => t.Definition!.Host).Distinct().OrderBy(h => h).ToList();
        // A target that names its own pool workers (one would deadlock it) is said apart: "wcf: 2 thread-pool workers".
        var own = targets.Plans.Where(SimulatedLaunch.Simulable).Where(t => t.Definition!.SimulatedWorkers is not null)
            .Select(t => $"{t.Name}: {t.Definition!.SimulatedWorkers} thread-pool workers ({Workers(t)}), as one would deadlock it").ToList();
        return hosts.Count == 0 ? "no target to simulate" : string.Join("; ", hosts.Select(host => host == HostRuntime.DotNet
            ? $".NET: {DotNetUnderSimulation.Assignments(dotnet.EnvironmentFor(host))} ({dotnet.Name}: {dotnet.Meaning})"
            : $"{RuntimeName(host)}: {DotNetUnderSimulation.Assignments(dotnet.EnvironmentFor(host))}").Concat(own));
    }

    private static string Workers(TargetPlan target) =>
        string.Join(" ", DotNetUnderSimulation.WorkerVariables.Select(v => $"{v}={target.Definition!.SimulatedWorkers}"));

    /// <summary>A target's runtime and what it ran with under the simulator, as the answer names it beside a count whose sides' differ.</summary>
    public static string RuntimeOf(TargetPlan target, DotNetUnderSimulation dotnet)
    {
        var host = target.Definition!.Host;
        var with = $"{target.Definition.Runtime} with {DotNetUnderSimulation.Assignments(dotnet.EnvironmentFor(host, target.Definition.SimulatedWorkers))}";
        return host == HostRuntime.DotNet ? $"{with} ({dotnet.Name}: {dotnet.Meaning})" : with;
    }

    private static string RuntimeName(HostRuntime host) => host == HostRuntime.NetFramework ? "Mono" : host.ToString();

    private static string Seconds(TimeSpan span) => span.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture) + " s";

    /// <summary>
    /// The JIT's share of a window above which the window is set aside and counted again: code compiled once is not what a request costs
    /// when it repeats. With tiering off a method compiles on the thread that first calls it, and a path first met late (a larger body's
    /// buffers, a collection's first finalizer) compiled inside a counted window: kestrel at echo-post 4 KB counted 438k and 415k
    /// instructions a request in two windows that compiled (52M of one in libclrjit) and 94k-106k in the two that did not
    /// (docs/method.md). A steady window's JIT share is below 0.1%.
    /// </summary>
    public const double MostCompiling = 0.01;

    /// <summary>Whether the JIT compiled more than <see cref="MostCompiling"/> of the window's count.</summary>
    public static bool Compiled(Measurement window) =>
        Metrics.SimulatedCompilerInstructions.Of(window) is double jit && Metrics.SimulatedInstructions.Of(window) is double rest && jit > MostCompiling * (jit + rest);

    /// <summary>A simulated window: the driver's requests and failures, the threads' instructions (the compiling ones apart) and per successful request.</summary>
    public static Measurement Window(DriverWindow counted, IReadOnlyList<CallgrindThread> threads)
    {
        var served = counted.Requests - counted.Failed;
        // The compiling threads apart, and the JIT's own instructions on every other thread (a method compiled at its first call).
        double instructions = threads.Where(t => !t.Compiling).Sum(t => t.Instructions - t.JitInstructions);
        double compiling = threads.Sum(t => t.Compiling ? t.Instructions : t.JitInstructions);
        return Measurement.Of((Metrics.Requests, counted.Requests), (Metrics.Failed, counted.Failed), (Metrics.ElapsedSeconds, counted.ElapsedSeconds),
            (Metrics.SimulatedInstructions, instructions), (Metrics.SimulatedCompilerInstructions, compiling),
            (Metrics.SimulatedInstructionsPerRequest, served > 0 ? instructions / served : null));
    }

    /// <summary>The run with the pass's windows on their cells, and its line, failures included (<see cref="SimulatedMerge"/>).</summary>
    public static RunResult Merge(RunResult run, SimulationResult simulated) =>
        SimulatedMerge.Merge(run, simulated.Windows, simulated.FullLine, simulated.Sequential, simulated.Runtimes);
}
