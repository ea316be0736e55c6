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
/// callgrind in launches of its own, verified, and per closed-loop cell warmed and then counted in windows on one connection, each
/// bracketed by two dumps taken with no request in flight (a dump writes the counts since the one before and starts the next count at zero). A window's figure is the user-mode instructions of
/// every thread but those that spent it compiling, per successful request. The targets are simulated side by side, one cell at a time on
/// all of them at once: a count does not depend on how fast the simulated CPU runs, and the pass takes half the time (the A/A spread of
/// this arrangement is in docs/method.md). Launches stay the unit of evidence: the verdict pairs the two sides' windows by launch and
/// round as it pairs measured ones. Fixed-rate cells are not simulated: a simulated server is 50-100 times slower, so no asked rate means
/// there what it means on the real CPU.
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
        var how = $"{settings.Launches} launches, every target afresh under callgrind in each, side by side; per closed-loop cell " +
                  $"{Seconds(settings.CellWarmup)} of warm-up ({Seconds(settings.FirstWarmup)} for a launch's first), then {settings.Rounds} windows of " +
                  $"{Seconds(settings.Window)} on at most {settings.Connections} connection(s)";
        progress.Message("simulate: " + how);
        line += "; " + how;
        var failures = new List<string>();
        // A service given by URL runs outside the comparator: it cannot be started under the simulator. Said once, not per cell.
        foreach (var external in targets.Plans.Where(t => t.ExternalUrl is not null))
            failures.Add($"{external.Name}: not simulated: a service given by URL runs outside the comparator, so it cannot be started under the simulator");
        // A .NET target is not simulated yet: its tiered JIT does not finish within the pass's warm-up on a 50 times slower clock, and a
        // launch still tiering counted 8 to 30 times a steady one (docs/method.md). Its other figures are measured as ever.
        foreach (var dotnet in targets.Plans.Where(t => t.ExternalUrl is null && t.Definition?.Host == HostRuntime.DotNet))
            failures.Add($"{dotnet.Name}: not simulated: a .NET target's tiered JIT does not settle under the simulator within the pass's warm-up, " +
                         "so its count would be the compiler's as much as the requests'");
        // A command of no runtime it knows may be a wrapper (a shell) that execs or forks the service: the simulator counts only the
        // program it starts, so the count could be the wrapper's alone.
        foreach (var other in targets.Plans.Where(t => t.Definition?.Host == HostRuntime.Other))
            failures.Add($"{other.Name}: not simulated: its runtime was not found from its command (neither mono X.exe nor dotnet X.dll), and the simulator counts " +
                         "only the program it starts: a wrapper that starts the service would leave the service uncounted");
        var plans = targets.Plans.Where(t => t.ExternalUrl is null && t.Definition?.Host == HostRuntime.NetFramework).ToList();
        var plan = new RunPlan(grid, drivers);
        var allotment = grid.Allotments[0];
        var driver = drivers[0];
        var cells = plan.Cells.Where(c => c.Plan.Rate is null && c.Driver == driver && c.Cores == allotment).ToList();
        var folder = Path.Combine(directory, "simulated");
        var windows = new Dictionary<CellKey, List<Measurement>>();
        var simulatedWindow = window with { RequestTimeout = TimeSpan.FromSeconds(Math.Max(30, window.RequestTimeout.TotalSeconds)) };
        for (var launch = 0; launch < settings.Launches && plans.Count > 0 && !cancellationToken.IsCancellationRequested; launch++)
        {
            Directory.CreateDirectory(folder);
            var launcher = new TargetLauncher(layout, SimulationSettings.ReadyTimeout, grid.Pin?.ServerCpus, ports: targets.Ports,
                environment: CallgrindSimulator.Variables, wrap: (host, arguments) => simulator.Wrap(host, arguments, folder));
            // The pass's own records: its starts and checks are not the run's; a simulated service's first answers take seconds.
            LaunchSession Session() => new(new RunContext(targets, grid, simulatedWindow, JudgingPlan.OneLaunch, plan,
                RunRecord.Begin(RunSpecMapping.Start(targets, grid, simulatedWindow, JudgingPlan.OneLaunch, plan, drivers, DateTimeOffset.UtcNow), journal: null),
                launcher, progress, (n, u, c, i) => Verification.EndpointVerifier.VerifyAsync(n, u, c, i, SimulationSettings.CheckTimeout)), launch, first: true, allotment);
            var sessions = new List<LaunchSession>();
            try
            {
                // Every target starts at once. Valgrind itself sometimes dies at a simulated Mono service's first requests ("VALGRIND
                // INTERNAL ERROR ... SIGSEGV", one start in three to eight here): a target that did not come up is started again, in a
                // session of its own, up to SimulationSettings.Starts times.
                var started = await Task.WhenAll(plans.Select(async target =>
                {
                    for (var attempt = 1; attempt <= SimulationSettings.Starts && !cancellationToken.IsCancellationRequested; attempt++)
                    {
                        if (attempt > 1) progress.Message($"simulate: {target.Name} did not come up under the simulator; starting it again ({attempt} of {SimulationSettings.Starts})");
                        var session = Session();
                        lock (sessions) sessions.Add(session);
                        await session.StartAsync(new[] { target }, cancellationToken);
                        if (session.Active.Count > 0) return session.Active.Select(a => (Session: session, Target: a)).ToList();
                    }
                    lock (failures) failures.Add($"{target.Name}: not simulated in launch {launch + 1}: it did not come up under the simulator in {SimulationSettings.Starts} starts");
                    return new List<(LaunchSession Session, ActiveTarget Target)>();
                }));
                var active = started.SelectMany(a => a).ToList();
                var dumps = new System.Collections.Concurrent.ConcurrentDictionary<int, int>(); // dumps written per process so far
                var first = true;
                foreach (var cell in cells)
                {
                    if (cancellationToken.IsCancellationRequested) break;
                    progress.Message($"simulate: launch {launch + 1} {cell.Label}: {string.Join(", ", active.Select(a => a.Target.Plan.Name))}");
                    var warmup = first ? settings.FirstWarmup : settings.CellWarmup;
                    first = false;
                    var counted = await Task.WhenAll(active.Select(a => CellAsync(a.Session, a.Target, cell, warmup)));
                    foreach (var (key, measured) in counted.SelectMany(c => c))
                        (windows.TryGetValue(key, out var list) ? list : windows[key] = new List<Measurement>()).Add(measured);
                }

                // One target's warm-up and windows of one cell; its windows by the cell's key. A failed dump is named and ends the target's cell.
                // Every dump is asked between windows, with no request in flight: the driver's window ends when its last answer is in, so
                // the requests it counts are exactly those the dump's instructions served. vgdb reaches an idle simulated process in about
                // 0.2 s; the wake-up connections (CallgrindSimulator) are a fallback where it cannot. Dumps asked under load fell a variable
                // moment after the window's edge, and the requests served in that moment counted in one window and worked in the other.
                async Task<List<(CellKey, Measurement)>> CellAsync(LaunchSession owner, ActiveTarget target, PlannedCell cell, TimeSpan warmup)
                {
                    var list = new List<(CellKey, Measurement)>();
                    if (target.Running?.ProcessId is not int pid) return list;
                    var key = cell.Plan.For(target.Plan.Name, null);
                    using var load = driver.Open(owner.RequestFor(cell, target), Math.Min(key.Concurrency, settings.Connections), window.KeepAlive,
                        simulatedWindow.RequestTimeout);
                    await load.RunAsync(warmup, cancellationToken);
                    // The warm-up's counts are dumped, as the first window starts, and left unread.
                    if (!await DumpAsync()) return list;
                    for (var round = 0; round < settings.Rounds && !cancellationToken.IsCancellationRequested; round++)
                    {
                        var served = await load.RunAsync(settings.Window, cancellationToken);
                        if (!await DumpAsync()) break;
                        var threads = CallgrindDump.Read(folder, $"{CallgrindSimulator.Stem}.{pid}", dumps[pid]);
                        list.Add((key, Window(served, threads) with { Launch = launch, Round = round }));
                    }
                    return list;

                    async Task<bool> DumpAsync()
                    {
                        if (await simulator.DumpAsync(pid, target.BaseUrl) is string failed)
                        {
                            lock (failures) failures.Add($"{target.Plan.Name}: {failed}");
                            return false;
                        }
                        dumps.AddOrUpdate(pid, 1, (_, n) => n + 1);
                        return true;
                    }
                }
            }
            finally
            {
                // The targets stop (their last dumps written) before the folder goes.
                foreach (var session in sessions) await session.DisposeAsync();
            }
            // The dumps are read: only what they counted is kept, in results.json.
            Directory.Delete(folder, recursive: true);
        }
        // Said either way: a dump that needed wake-up connections counted their work in its window (CallgrindSimulator.DumpAsync).
        var (asked, woken) = simulator.DumpCounts;
        if (asked > 0) line += woken == 0 ? $"; all {asked} dumps read between windows with no request in flight"
            : $"; {woken} of {asked} dumps needed wake-up connections, whose work their windows count";
        return new SimulationResult(windows.ToDictionary(w => w.Key, w => (IReadOnlyList<Measurement>)w.Value), line, failures);
    }

    private static string Seconds(TimeSpan span) => span.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture) + " s";

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
