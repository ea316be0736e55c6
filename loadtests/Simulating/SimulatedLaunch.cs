using System.Diagnostics;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;

namespace Comparator.Simulating;

/// <summary>What one simulated launch counted, how long its starts and its cells took (the budget's estimate of the next), and how many starts it tried again.</summary>
public sealed record SimulatedLaunchResult(IReadOnlyList<(CellKey Key, Measurement Window)> Windows, double StartSeconds, double CellSeconds, int Starts,
    IReadOnlyList<string> Restarts)
{
    /// <summary>Windows set aside because the JIT compiled in them (<see cref="SimulationPass.Compiled"/>), each counted again.</summary>
    public int SetAside { get; init; }
}

/// <summary>What every launch of the pass shares.</summary>
public sealed record SimulationContext(CallgrindSimulator Simulator, TargetSet Targets, CellGrid Grid, WindowSettings Window, SimulationSettings Settings,
    RunPlan Plan, ILoadDriver Driver, BuildLayout Layout, string RunDirectory, IRunProgress Progress, List<string> Failures)
{
    /// <summary>The wait after each counted answer before the next request: <see cref="SimulationSettings.DotNetPause"/> in a pass with a .NET target, else zero.</summary>
    public TimeSpan Pause { get; init; }

    /// <summary>The dumps' folder: emptied after every launch, once its counts are read.</summary>
    public string Folder => Path.Combine(RunDirectory, "simulated");
}

/// <summary>
/// One simulated launch: every target started afresh under callgrind with counting off (a start that valgrind itself ends is started again,
/// up to <see cref="SimulationSettings.Starts"/> times, and valgrind's own log of it kept: <see cref="SimulatorLog"/>), verified, every pending
/// cell warmed on valgrind's bare translation, counting turned on, then per cell a counted window left unread and the rounds, each bracketed
/// by two dumps taken with no request in flight (a dump writes the counts since the one before and starts the next count at zero). The
/// targets run side by side, one cell at a time on all of them at once: a count does not depend on how fast the simulated CPU runs.
/// </summary>
public static class SimulatedLaunch
{
    public static async Task<SimulatedLaunchResult> RunAsync(SimulationContext pass, int launch, IReadOnlyList<PlannedCell> cells, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();
        var settings = pass.Settings;
        Directory.CreateDirectory(pass.Folder);
        var sessions = new List<LaunchSession>();
        var restarts = new List<string>();
        var starts = 0;
        var compiledWindows = 0;
        var windows = new List<(CellKey, Measurement)>();
        double startSeconds = 0;
        try
        {
            var plans = pass.Targets.Plans.Where(Simulable).ToList();
            var started = await Task.WhenAll(plans.Select(target => StartAsync(target)));
            var active = started.OfType<(LaunchSession Session, ActiveTarget Target, string Log)>().ToList();
            startSeconds = clock.Elapsed.TotalSeconds;

            // Every pending cell warmed with counting off: the JIT compiles each cell's path at valgrind's base slowdown, not callgrind's.
            var first = true;
            foreach (var cell in cells)
            {
                if (cancellationToken.IsCancellationRequested) break;
                pass.Progress.Message($"simulate: launch {launch + 1} {cell.Label}: warm-up, counting off");
                var warmup = first ? settings.FirstWarmup : settings.Warmup;
                first = false;
                await Task.WhenAll(active.Select(a => LoadAsync(a.Session, a.Target, cell, warmup)));
            }
            // Counting on, for every target; one that cannot be turned on is named and counts nothing in this launch.
            var counting = new List<(LaunchSession Session, ActiveTarget Target, string Log)>();
            foreach (var a in active)
            {
                if (a.Target.Running?.ProcessId is not int pid) continue;
                if (await pass.Simulator.InstrumentAsync(pid, a.Target.BaseUrl) is string failed) Fail(a.Target, failed, a.Log);
                else counting.Add(a);
            }
            var dumps = new System.Collections.Concurrent.ConcurrentDictionary<int, int>(); // dumps written per process so far
            foreach (var cell in cells)
            {
                if (cancellationToken.IsCancellationRequested) break;
                pass.Progress.Message($"simulate: launch {launch + 1} {cell.Label}: {string.Join(", ", counting.Select(a => a.Target.Plan.Name))}");
                var counted = await Task.WhenAll(counting.Select(a => CellAsync(a.Session, a.Target, a.Log, cell, dumps)));
                lock (windows) windows.AddRange(counted.SelectMany(c => c));
            }
        }
        finally
        {
            // The targets are killed before the folder goes: every window's count is read, and a Mono service's orderly stop under the
            // simulator (its last dump, its shutdown on a slowed clock) took 6-8 s of every launch.
            foreach (var session in sessions)
            {
                foreach (var active in session.Active) (active.Running as RunningTarget)?.Kill();
                await session.DisposeAsync();
            }
            try { Directory.Delete(pass.Folder, recursive: true); } catch (IOException) { }
        }
        var cellSeconds = cells.Count == 0 ? 0 : (clock.Elapsed.TotalSeconds - startSeconds) / cells.Count;
        return new SimulatedLaunchResult(windows, startSeconds, cellSeconds, starts, restarts) { SetAside = compiledWindows };

        // A target started and verified under the simulator; its session, and the pattern of valgrind's log of it. Null when it did not come up.
        async Task<(LaunchSession, ActiveTarget, string)?> StartAsync(TargetPlan target)
        {
            for (var attempt = 1; attempt <= SimulationSettings.Starts && !cancellationToken.IsCancellationRequested; attempt++)
            {
                Interlocked.Increment(ref starts);
                var log = Path.Combine(pass.Folder, $"valgrind.{target.Name}.{attempt}.%p.log");
                var session = Session(log, pass.Settings.DotNet.EnvironmentFor(target.Definition!.Host, target.Definition.SimulatedWorkers));
                lock (sessions) sessions.Add(session);
                await session.StartAsync(new[] { target }, cancellationToken);
                if (session.Active.Count > 0) return (session, session.Active[0], log);
                // Not up: valgrind's own words, kept in the run directory, say whether the simulator or the service failed.
                var written = SimulatorLog.Newest(pass.Folder, Path.GetFileName(log).Replace("%p", "*"));
                var reason = SimulatorLog.Reason(written) ?? "valgrind wrote no log";
                var kept = SimulatorLog.Keep(written, pass.RunDirectory, $"{target.Name}-launch{launch + 1}-start{attempt}.log");
                var said = $"{target.Name}: start {attempt} of {SimulationSettings.Starts} in launch {launch + 1} did not come up under the simulator: " +
                           (SimulatorLog.SimulatorDied(reason) ? "valgrind itself failed: " : "valgrind's last word: ") + reason + (kept is null ? "" : $" ({kept})");
                lock (restarts) restarts.Add(said);
                pass.Progress.Message("simulate: " + said);
            }
            lock (pass.Failures)
                pass.Failures.Add($"{target.Name}: not simulated in launch {launch + 1}: it did not come up under the simulator in {SimulationSettings.Starts} starts");
            return null;
        }

        // The pass's own records: its starts and checks are not the run's; a simulated service's first answers take seconds.
        LaunchSession Session(string log, IReadOnlyDictionary<string, string> environment)
        {
            var window = pass.Window;
            var launcher = new TargetLauncher(pass.Layout, SimulationSettings.ReadyTimeout, pass.Grid.Pin?.ServerCpus, ports: pass.Targets.Ports,
                environment: environment, wrap: (host, arguments) => pass.Simulator.Wrap(host, arguments, pass.Folder, log));
            var drivers = new[] { pass.Driver };
            return new LaunchSession(new RunContext(pass.Targets, pass.Grid, window, JudgingPlan.OneLaunch, pass.Plan,
                RunRecord.Begin(RunSpecMapping.Start(pass.Targets, pass.Grid, window, JudgingPlan.OneLaunch, pass.Plan, drivers, DateTimeOffset.UtcNow), journal: null),
                launcher, pass.Progress, (n, u, c, i) => Verification.EndpointVerifier.VerifyAsync(n, u, c, i, SimulationSettings.CheckTimeout)) { ReadsRuntimes = false },
                launch, first: true,
                pass.Grid.Allotments[0]);
        }

        async Task LoadAsync(LaunchSession owner, ActiveTarget target, PlannedCell cell, TimeSpan duration)
        {
            if (duration <= TimeSpan.Zero) return;
            using var load = pass.Driver.Open(owner.RequestFor(cell, target), Connections(cell), pass.Window.KeepAlive, pass.Window.RequestTimeout);
            await load.RunAsync(duration, cancellationToken);
        }

        // One target's windows of one cell by the cell's key, each of a count of requests (SimulatedWindow): a counted window left unread (the first after counting went on, or after the
        // cell before), then the rounds. A failed dump is named (with valgrind's own word, if it died) and ends the target's cell.
        // Every dump is asked between windows, with no request in flight: the driver's window ends when its last answer is in, so the
        // requests it counts are exactly those the dump's instructions served. vgdb reaches an idle simulated process in about 0.2 s; the
        // wake-up connections (CallgrindSimulator) are a fallback where it cannot.
        async Task<List<(CellKey, Measurement)>> CellAsync(LaunchSession owner, ActiveTarget target, string log, PlannedCell cell,
            System.Collections.Concurrent.ConcurrentDictionary<int, int> dumps)
        {
            var list = new List<(CellKey, Measurement)>();
            if (target.Running?.ProcessId is not int pid) return list;
            var key = cell.Plan.For(target.Plan.Name, null);
            using var load = pass.Driver.Open(owner.RequestFor(cell, target), Connections(cell), pass.Window.KeepAlive, pass.Window.RequestTimeout);
            if (settings.DiscardRequests > 0)
                await SimulatedWindow.RunAsync(load, settings.DiscardRequests, TimeSpan.Zero, cancellationToken, wholeConnections: false, pause: pass.Pause);
            if (!await DumpAsync()) return list;
            // A window in which the JIT compiled is set aside and another counted in its place, up to as many as the rounds (tiering's
            // background compiler never stops: its windows are then kept, and the line says how many were set aside).
            var setAside = 0;
            for (var round = 0; round < settings.Rounds && !cancellationToken.IsCancellationRequested;)
            {
                var served = await SimulatedWindow.RunAsync(load, settings.WindowRequests, settings.WindowTime, cancellationToken, pause: pass.Pause);
                if (!await DumpAsync()) break;
                var threads = CallgrindDump.Read(pass.Folder, $"{CallgrindSimulator.Stem}.{pid}", dumps[pid]);
                var counted = SimulationPass.Window(served, threads) with { Launch = launch, Round = round };
                if (SimulationPass.Compiled(counted) && setAside < settings.Rounds)
                {
                    setAside++;
                    Interlocked.Increment(ref compiledWindows);
                    continue;
                }
                list.Add((key, counted));
                round++;
            }
            return list;

            async Task<bool> DumpAsync()
            {
                if (await pass.Simulator.DumpAsync(pid, target.BaseUrl) is string failed)
                {
                    Fail(target, failed, log);
                    return false;
                }
                dumps.AddOrUpdate(pid, 1, (_, n) => n + 1);
                return true;
            }
        }

        // What failed, and valgrind's own word where it died; log is the start's pattern, its %p the target's process id.
        void Fail(ActiveTarget target, string failed, string log)
        {
            var path = log.Replace("%p", target.Running?.ProcessId is int pid ? pid.ToString(CultureInfo.InvariantCulture) : "*");
            var reason = SimulatorLog.Reason(path);
            var kept = SimulatorLog.SimulatorDied(reason) ? SimulatorLog.Keep(path, pass.RunDirectory, $"{target.Plan.Name}-launch{launch + 1}.log") : null;
            lock (pass.Failures)
                pass.Failures.Add($"{target.Plan.Name}: {failed}" + (SimulatorLog.SimulatorDied(reason) ? $": valgrind itself failed: {reason}{(kept is null ? "" : $" ({kept})")}" : ""));
        }

        int Connections(PlannedCell cell) => Math.Min(cell.Plan.Key.Concurrency, settings.Connections);
    }

    /// <summary>Whether the pass can start a target under the simulator: one the comparator starts, on Mono or .NET.</summary>
    public static bool Simulable(TargetPlan target) =>
        target.ExternalUrl is null && target.Definition?.Host is HostRuntime.NetFramework or HostRuntime.DotNet;

    /// <summary>The wait after each counted answer: <see cref="SimulationSettings.DotNetPause"/> where a .NET target is simulated (every target alike), else back to back.</summary>
    public static TimeSpan PauseFor(TargetSet targets) =>
        targets.Plans.Any(t => Simulable(t) && t.Definition!.Host == HostRuntime.DotNet) ? SimulationSettings.DotNetPause : TimeSpan.Zero;
}
