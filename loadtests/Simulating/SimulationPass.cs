using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;

namespace Comparator.Simulating;

/// <summary>The simulated pass's windows by the measured cell they belong to, and its one line (what was counted, or why nothing was).</summary>
public sealed record SimulationResult(IReadOnlyDictionary<CellKey, IReadOnlyList<Measurement>> Windows, string Line, IReadOnlyList<string> Failures);

/// <summary>
/// The simulated pass: after every measured window and apart from them (as the profile pass), each target started afresh under valgrind's
/// callgrind in launches of its own, verified, and per closed-loop cell warmed and then counted in windows bracketed by a zero and a dump.
/// A window's figure is the user-mode instructions of every thread but those that spent it compiling, per successful request. Launches
/// stay the unit of evidence: the verdict pairs the two sides' windows by launch and round as it pairs measured ones. Fixed-rate cells are
/// not simulated: a simulated server is 50-100 times slower, so no asked rate means there what it means on the real CPU.
/// </summary>
public static class SimulationPass
{
    public static async Task<SimulationResult> RunAsync(TargetSet targets, CellGrid grid, WindowSettings window, SimulationSettings settings,
        IReadOnlyList<ILoadDriver> drivers, BuildLayout layout, string directory, IRunProgress progress, CancellationToken cancellationToken)
    {
        var empty = new Dictionary<CellKey, IReadOnlyList<Measurement>>();
        var (simulator, line) = await CallgrindSimulator.FindAsync();
        if (simulator is null)
        {
            progress.Message(line);
            return new SimulationResult(empty, line, Array.Empty<string>());
        }
        var how = $"{settings.Launches} launch(es), each target afresh under callgrind; per closed-loop cell {settings.Warmup.TotalSeconds:0} s of warm-up, " +
                  $"{settings.Rounds} windows of {settings.Window.TotalSeconds:0} s on at most {settings.Connections} connection(s)";
        progress.Message("simulate: " + how);
        line += "; " + how;
        var plan = new RunPlan(grid, drivers);
        var allotment = grid.Allotments[0];
        var driver = drivers[0];
        var cells = plan.Cells.Where(c => c.Plan.Rate is null && c.Driver == driver && c.Cores == allotment).ToList();
        var folder = Path.Combine(directory, "simulated");
        var windows = new Dictionary<CellKey, List<Measurement>>();
        var failures = new List<string>();
        var simulatedWindow = window with { RequestTimeout = TimeSpan.FromSeconds(Math.Max(30, window.RequestTimeout.TotalSeconds)) };
        for (var launch = 0; launch < settings.Launches && !cancellationToken.IsCancellationRequested; launch++)
        {
            Directory.CreateDirectory(folder);
            var launcher = new TargetLauncher(layout, SimulationSettings.ReadyTimeout, grid.Pin?.ServerCpus, ports: targets.Ports,
                environment: CallgrindSimulator.Variables, wrap: (host, arguments) => simulator.Wrap(host, arguments, folder));
            // The pass's own records: its starts and checks are not the run's. Valgrind itself sometimes dies at a simulated service's first
            // request ("VALGRIND INTERNAL ERROR ... SIGSEGV"): a target that did not come up is started once more, in a session of its own.
            LaunchSession Session() => new(new RunContext(targets, grid, simulatedWindow, JudgingPlan.OneLaunch, plan,
                RunRecord.Begin(RunSpecMapping.Start(targets, grid, simulatedWindow, JudgingPlan.OneLaunch, plan, drivers, DateTimeOffset.UtcNow), journal: null),
                launcher, progress), launch, first: true, allotment);
            // The sessions end (their targets stopped, their last dumps written) at this block's end, before the folder goes.
            {
                await using var session = Session();
                await session.StartAsync(targets.Plans, cancellationToken);
                var again = targets.Plans.Where(t => session.Active.All(a => a.Plan.Name != t.Name)).ToList();
                await using var retry = Session();
                if (again.Count > 0)
                {
                    progress.Message($"simulate: {string.Join(", ", again.Select(t => t.Name))} did not come up under the simulator; starting once more");
                    await retry.StartAsync(again, cancellationToken);
                }
                foreach (var missing in again.Where(t => retry.Active.All(a => a.Plan.Name != t.Name)))
                    failures.Add($"{missing.Name}: not simulated in launch {launch + 1}: it did not come up under the simulator, twice");
                var active = session.Active.Select(a => (Session: session, Target: a)).Concat(retry.Active.Select(a => (Session: retry, Target: a)))
                    .OrderBy(a => targets.Plans.ToList().FindIndex(t => t.Name == a.Target.Plan.Name)).ToList();
                var dumps = new Dictionary<int, int>();
                foreach (var cell in cells)
                foreach (var (owner, target) in active)
                {
                    if (cancellationToken.IsCancellationRequested) break;
                    var key = cell.Plan.For(target.Plan.Name, null);
                    if (target.Running?.ProcessId is not int pid)
                    {
                        failures.Add($"{target.Plan.Name}: not simulated: a service given by URL runs outside the comparator, so it cannot be started under the simulator");
                        continue;
                    }
                    progress.Message($"simulate: launch {launch + 1} {target.Plan.Name} {cell.Label}");
                    // A session a window: a simulated service idles for seconds while its counts are dumped, long enough for it to close a
                    // kept-alive connection (Mono's listener after 15 s), and a window must not start on connections the server has closed.
                    IDriverSession Load() => driver.Open(owner.RequestFor(cell, target), Math.Min(key.Concurrency, settings.Connections), window.KeepAlive,
                        simulatedWindow.RequestTimeout);
                    using (var warm = Load()) await warm.RunAsync(settings.Warmup, cancellationToken);
                    for (var round = 0; round < settings.Rounds && !cancellationToken.IsCancellationRequested; round++)
                    {
                        using var load = Load();
                        if (await simulator.ZeroAsync(pid, target.BaseUrl) is string zeroFailed) { failures.Add($"{target.Plan.Name}: {zeroFailed}"); break; }
                        var counted = await load.RunAsync(settings.Window, cancellationToken);
                        if (await simulator.DumpAsync(pid, target.BaseUrl) is string dumpFailed) { failures.Add($"{target.Plan.Name}: {dumpFailed}"); break; }
                        dumps[pid] = dumps.GetValueOrDefault(pid) + 1;
                        var threads = CallgrindDump.Read(folder, $"{CallgrindSimulator.Stem}.{pid}", dumps[pid]);
                        if (!windows.TryGetValue(key, out var list)) windows[key] = list = new List<Measurement>();
                        list.Add(Window(counted, threads) with { Launch = launch, Round = round });
                    }
                }
            }
            // The dumps are read: only what they counted is kept, in results.json.
            Directory.Delete(folder, recursive: true);
        }
        return new SimulationResult(windows.ToDictionary(w => w.Key, w => (IReadOnlyList<Measurement>)w.Value), line, failures);
    }

    /// <summary>A simulated window: the driver's requests and failures, the threads' instructions (the compiling ones apart) and per successful request.</summary>
    public static Measurement Window(DriverWindow counted, IReadOnlyList<CallgrindThread> threads)
    {
        var served = counted.Requests - counted.Failed;
        double instructions = threads.Where(t => !t.Compiling).Sum(t => t.Instructions);
        double compiling = threads.Where(t => t.Compiling).Sum(t => t.Instructions);
        return Measurement.Of((Metrics.Requests, counted.Requests), (Metrics.Failed, counted.Failed), (Metrics.ElapsedSeconds, counted.ElapsedSeconds),
            (Metrics.SimulatedInstructions, instructions), (Metrics.SimulatedCompilerInstructions, compiling),
            (Metrics.SimulatedInstructionsPerRequest, served > 0 ? instructions / served : null));
    }

    /// <summary>
    /// The run with the pass's windows on their cells, each cell's summary carrying the median of its simulated windows per request (the
    /// figure the tables quote), and the line that says what was counted.
    /// </summary>
    public static RunResult Merge(RunResult run, SimulationResult simulated) => run with
    {
        Cells = run.Cells.Select(c => simulated.Windows.TryGetValue(c.Key, out var windows) && windows.Count > 0
            ? c with
            {
                Simulated = windows,
                Summary = c.Summary?.With(Metrics.SimulatedInstructionsPerRequest, Median(windows.Select(w => Metrics.SimulatedInstructionsPerRequest.Of(w)).OfType<double>().ToList())),
            }
            : c).ToList(),
        Spec = run.Spec with { SimulatedCounters = simulated.Line + (simulated.Failures.Count > 0 ? "; " + string.Join("; ", simulated.Failures) : "") },
    };

    private static double? Median(IReadOnlyList<double> values) =>
        values.Count == 0 ? null : values.Order().ElementAt(values.Count / 2) is var upper && values.Count % 2 == 1 ? upper
            : (values.Order().ElementAt(values.Count / 2 - 1) + upper) / 2;
}
