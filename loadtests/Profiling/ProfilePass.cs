using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;

namespace Comparator.Profiling;

/// <summary>
/// The profile pass: every target started afresh with its runtime's JIT map on (<see cref="ProfileEnvironment"/>) and verified,
/// then, cell by closed-loop cell, each target warmed as a measured window would be (a .NET target held until its JIT is steady)
/// and sampled while it carries the cell's load. It runs after every measured window and apart from them, in processes of its
/// own: a judged figure never comes from a sampled process. Once every target has stopped (Mono writes its JIT map whole only
/// at its exit), each recording is read, folded into layers and drawn; the recordings and maps are then removed.
/// </summary>
public static class ProfilePass
{
    /// <summary>How many of a profile's hottest frames it keeps.</summary>
    public const int TopFrames = 12;

    /// <param name="window">the measured run's windows: each target is warmed as they were</param>
    public static async Task<ProfileResult> RunAsync(TargetSet targets, CellGrid grid, WindowSettings window, ProfileSettings settings,
        IReadOnlyList<ILoadDriver> drivers, BuildLayout layout, string directory, IRunProgress progress, CancellationToken cancellationToken)
    {
        var (sampler, unavailable) = SamplingProfiler.Find(settings.Perf);
        if (sampler is null)
        {
            progress.Message(unavailable!);
            return new ProfileResult("", unavailable, settings.LayersFile, settings.Layers, Array.Empty<ProfiledCell>()) { Baseline = targets.BaselineTarget };
        }
        var (tracer, untraced) = SystemCallTracer.Find(sampler.Program);
        var description = sampler.Describe(settings.Duration.TotalSeconds) + "; " + ProfileEnvironment.Description + "; system calls by call: " + (tracer?.Describe ?? untraced);
        progress.Message($"profile: {sampler.Describe(settings.Duration.TotalSeconds)}, each target started afresh with its runtime's JIT map on");
        if (untraced is not null) progress.Message(untraced);

        var plan = new RunPlan(grid, drivers);
        var allotment = grid.Allotments[0];
        var driver = drivers[0];
        var cells = plan.Cells.Where(c => c.Plan.Rate is null && c.Driver == driver && c.Cores == allotment).ToList();
        var launcher = new TargetLauncher(layout, cpuList: grid.Pin?.ServerCpus, ports: targets.Ports, cpuCounters: window.CpuCounting.Set, environment: ProfileEnvironment.Variables());
        // The pass's own record: its targets' starts and checks are not the run's (the measured run's are in its journal).
        var judging = JudgingPlan.OneLaunch;
        var record = RunRecord.Begin(RunSpecMapping.Start(targets, grid, window, judging, plan, drivers, DateTimeOffset.UtcNow), journal: null);
        var context = new RunContext(targets, grid, window, judging, plan, record, launcher, progress);
        var folder = Path.Combine(directory, "profiles");
        Directory.CreateDirectory(folder);

        var sampled = new List<(ProfiledCell Cell, int Pid, string Data)>();
        var result = new List<ProfiledCell>();
        // Under --server-cores the first allotment's cells are profiled, the targets and the driver placed as they were measured there.
        var ownCpus = context.Placing ? ProcessSampler.CpusAllowed(Environment.ProcessId) : null;
        if (context.Placing) allotment.PinDriver(Environment.ProcessorCount);
        await using (var session = new LaunchSession(context, 0, first: true, allotment))
        {
            await session.StartAsync(targets.Plans, cancellationToken);
            foreach (var missing in targets.Plans.Where(t => session.Active.All(a => a.Plan.Name != t.Name)))
            {
                var why = record.Targets.FirstOrDefault(t => t.Name == missing.Name)?.NotMeasuredReason ?? "it did not start";
                result.AddRange(cells.Select(c => new ProfiledCell(c.Plan.For(missing.Name, null), $"not profiled: {why}")));
            }
            var measurer = new CellMeasurer(driver, window);
            for (var i = 0; i < cells.Count && !cancellationToken.IsCancellationRequested; i++)
                foreach (var target in session.Active)
                {
                    if (cancellationToken.IsCancellationRequested) break;
                    var key = cells[i].Plan.For(target.Plan.Name, null);
                    if (target.Running?.ProcessId is not int pid)
                    {
                        result.Add(new ProfiledCell(key, "not profiled: a service given by URL was not started by the comparator, so its runtime's JIT map could not be switched on"));
                        continue;
                    }
                    progress.Message($"profile: {target.Plan.Name} {cells[i].Label}");
                    var data = Path.Combine(folder, FileStem(key, cells[i].Plan.SizeLabel) + ".perf.data");
                    sampled.Add((await SampleAsync(sampler, tracer, measurer, driver.Open(session.RequestFor(cells[i], target), key.Concurrency, window.KeepAlive, window.RequestTimeout),
                        target, key, pid, data, cold: i == 0, settings.Duration, cancellationToken), pid, data));
                }
        }

        if (ownCpus is not null) CoreAllotment.MoveThisProcess(ownCpus);
        // Every target has exited: its JIT map is whole, and perf can name its frames.
        foreach (var (cell, pid, data) in sampled)
        {
            result.Add(cell.NotProfiled is null ? await ReadAsync(sampler, cell, data, folder, settings.Layers) : cell); // a stop keeps what was sampled
            File.Delete(data);
        }
        foreach (var pid in sampled.Select(s => s.Pid).Distinct()) ProfileEnvironment.RemoveMaps(pid);
        var order = cells.Select(c => c.Plan.Key).ToList();
        return new ProfileResult(description, null, settings.LayersFile, settings.Layers,
            result.OrderBy(c => order.IndexOf(c.Key with { Target = CellKey.AnyTarget })).ThenBy(c => targets.Plans.ToList().FindIndex(t => t.Name == c.Key.Target)).ToList())
        {
            Baseline = targets.BaselineTarget,
        };
    }

    /// <summary>One target's sample of one cell: warmed, then recorded while it carries the load; the window's own cost per request alongside.</summary>
    private static async Task<ProfiledCell> SampleAsync(SamplingProfiler sampler, SystemCallTracer? tracer, CellMeasurer measurer, IDriverSession load, ActiveTarget target, CellKey key,
        int pid, string data, bool cold, TimeSpan duration, CancellationToken cancellationToken)
    {
        using (load)
        {
            await measurer.WarmAsync(load, target.RuntimeCounters, cold, cancellationToken);
            using var recording = await sampler.StartAsync(pid, data, cancellationToken);
            var cpuBefore = ProcessSampler.CpuSeconds(pid);
            var countsBefore = target.CpuCounters?.Read();
            var window = await load.RunAsync(duration, cancellationToken);
            var countsAfter = target.CpuCounters?.Read();
            var cpuAfter = ProcessSampler.CpuSeconds(pid);
            var failure = await recording.StopAsync();
            var served = window.Requests - window.Failed;
            double? instructions = null;
            if (countsBefore is not null && countsAfter is not null && served > 0
                && CpuCounterWindow.Between(countsBefore, countsAfter).Counts is var counts
                && counts.TryGetValue(Metrics.InstructionsUser.Id, out var user) && counts.TryGetValue(Metrics.InstructionsKernel.Id, out var kernel))
                instructions = (user + kernel) / served;
            var cell = new ProfiledCell(key, failure is null ? null : "not profiled: " + failure)
            {
                Seconds = window.ElapsedSeconds, Requests = served,
                CpuUsPerRequest = cpuAfter - cpuBefore is double cpu && served > 0 ? cpu * 1e6 / served : null,
                InstructionsPerRequest = instructions,
            };
            return tracer is null || failure is not null ? cell : await TraceAsync(tracer, load, cell, pid, data + ".trace.txt", duration, cancellationToken);
        }
    }

    /// <summary>The cell's system calls by call: a second window of the same load, traced, after the sampled one.</summary>
    private static async Task<ProfiledCell> TraceAsync(SystemCallTracer tracer, IDriverSession load, ProfiledCell cell, int pid, string output, TimeSpan duration,
        CancellationToken cancellationToken)
    {
        using var trace = await tracer.StartAsync(pid, output);
        var window = await load.RunAsync(duration, cancellationToken);
        var (totals, failure) = await trace.StopAsync();
        var served = window.Requests - window.Failed;
        return totals is null
            ? cell with { SystemCallsNotTraced = "not traced: " + failure }
            : cell with { SystemCalls = SystemCallTracer.PerRequest(totals, served), SystemCallRequests = served };
    }

    /// <summary>A recording read: its samples folded into layers and frames, the folded stacks and the flame graph written beside it.</summary>
    private static async Task<ProfiledCell> ReadAsync(SamplingProfiler sampler, ProfiledCell cell, string data, string folder, IReadOnlyList<LayerRule> rules)
    {
        var cancellationToken = CancellationToken.None;
        var (samples, failure) = await sampler.ReadAsync(data, cancellationToken);
        if (failure is not null || samples.Count == 0)
            return cell with { NotProfiled = "not profiled: " + (failure ?? "perf recorded no sample of the server (it used no CPU in the window?)") };
        var stem = Path.GetFileNameWithoutExtension(Path.GetFileNameWithoutExtension(data));
        var folded = stem + ".folded";
        await File.WriteAllLinesAsync(Path.Combine(folder, folded), PerfScript.Fold(samples).Select(f => $"{f.Stack} {f.Count}"), cancellationToken);
        var svg = stem + ".svg";
        var tree = FlameTree.Build(samples, f => StackLayers.Of(f, rules));
        await File.WriteAllTextAsync(Path.Combine(folder, svg),
            FlameGraph.Svg(tree, ProfileReport.LayerColors(rules), $"{cell.Key.Target}: {ProfileReport.CellLabel(cell.Key)}"), cancellationToken);
        return cell with
        {
            Samples = samples.Count, NamedShare = StackLayers.NamedShare(samples),
            Layers = StackLayers.Shares(samples, rules), Behalf = StackLayers.Shares(samples, rules, StackLayers.Behalf), Frames = StackLayers.TopFrames(samples, rules, TopFrames),
            Folded = "profiles/" + folded, FlameGraph = "profiles/" + svg,
        };
    }

    /// <summary>
    /// The profile with each cell's cost a request as the run measured it: the cell's median window (its summary, the figures the verdict
    /// and the tables quote), which the report then shares out by the samples (a sampled process's own figures are not measured ones:
    /// the sampling and the JIT map cost it).
    /// </summary>
    public static ProfileResult WithMeasured(ProfileResult profile, RunResult run) => profile with
    {
        Cells = profile.Cells.Select(c => run.Cells.FirstOrDefault(r => r.Key == c.Key) is { Summary: { } median } measured
            ? c with
            {
                MeasuredCpuUsPerRequest = median.ServerCpuUsPerRequest,
                MeasuredInstructionsPerRequest = Metrics.InstructionsPerRequest.Of(median),
                MeasuredWindows = measured.Repeats.Count,
            }
            : c).ToList(),
    };

    /// <summary>"wcf-classic.echo-post-64KB-c100": a cell's files, named for a person and safe on every file system.</summary>
    public static string FileStem(CellKey key, string sizeLabel)
    {
        var name = $"{key.Target}.{key.Endpoint}{(key.SizeBytes > 0 ? "-" + sizeLabel : "")}-c{key.Concurrency}{(key.Driver == SocketDriver.DriverName ? "" : "-" + key.Driver)}";
        return string.Concat(name.Select(c => char.IsLetterOrDigit(c) || c is '.' or '-' or '_' ? c : '_'));
    }
}
