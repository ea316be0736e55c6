using System.IO;
using Comparator.Comparing;
using Comparator.Results;
using Comparator.Running;
using Comparator.Statistics;
using Comparator.Targets;

namespace Comparator.Crank;

/// <summary>
/// Puts what crank's agents measured of the service processes into a run the comparator measured
/// as the load job: each window's server CPU and peak working set from the agent's samples over
/// that window, and for a .NET job the runtime counters it collected, then the cells' flags, bottlenecks and verdicts decided again with them, so every
/// report and `diff` reads a multi-machine run like a local one. Nothing else is changed: the
/// requests, bytes and latencies are the comparator's own.
/// </summary>
public static class CrankImport
{
    /// <summary>Below this share of the server's CPU showing up in the driver machine's /proc/stat, the server ran on other cores.</summary>
    public const double SharedCoresShare = 0.5;

    /// <param name="jobOfTarget">the crank job that served each target; a target not named is looked up by its own name</param>
    public static RunResult Apply(RunResult run, CrankResultFile crank, IReadOnlyDictionary<string, string> jobOfTarget)
    {
        var timelines = new Dictionary<string, (CrankJob Job, AgentCpu Cpu, AgentRuntimeCounters? RuntimeCounters)>(StringComparer.Ordinal);
        foreach (var target in run.Targets.Where(t => t.Measured))
        {
            var jobName = jobOfTarget.TryGetValue(target.Name, out var named) ? named : target.Name;
            var job = crank.Job(jobName) ?? throw new InvalidDataException(
                $"{crank.Source} has no job '{jobName}' for target {target.Name}; its jobs: {string.Join(", ", crank.Jobs.Select(j => j.Name))} (map one with --job {target.Name}=JOB)");
            var cpu = AgentCpu.Of(job);
            if (!cpu.HasSamples)
                throw new InvalidDataException($"{crank.Source}: job '{job.Name}' has no {CrankResultFile.CpuRaw} samples; was it run with --json and without --exclude-measurements?");
            timelines[target.Name] = (job, cpu, AgentRuntimeCounters.Of(job));
        }
        if (timelines.Count == 0) throw new InvalidDataException($"{run.Spec.Targets.Count} target(s) in the run, none measured: nothing to import");

        int windows = 0, overlapping = 0, tooShort = 0;
        var cells = run.Cells.Select(c =>
        {
            if (!timelines.TryGetValue(c.Key.Target, out var t) || c.Repeats.Count == 0) return c;
            var repeats = c.Repeats.Select(r =>
            {
                if (r.WindowStartedAt is not DateTimeOffset start) return r;
                var sampled = t.Cpu.Overlaps(start, r.ElapsedSeconds);
                if (sampled) overlapping++;
                if (t.Cpu.Window(start, r.ElapsedSeconds) is not WindowCpu w)
                {
                    if (sampled) tooShort++;
                    return r;
                }
                windows++;
                return r.With(Metrics.ServerCpuSeconds, w.CpuSeconds).With(Metrics.ServerPeakRssMb, w.PeakWorkingSetMb) with
                {
                    RuntimeCounters = r.RuntimeCounters ?? t.RuntimeCounters?.Window(start, r.ElapsedSeconds),
                };
            }).ToList();
            return c with { Repeats = repeats, Summary = CellMeasurer.MedianRepeat(repeats), Runtime = TargetCatalog.Find(c.Key.Target)?.Runtime ?? c.Runtime };
        }).ToList();
        if (overlapping == 0)
            throw new InvalidDataException($"{crank.Source}'s samples do not overlap any of the run's windows ({run.StartedAt:u} to {run.FinishedAt:u}): is it the same run?");
        if (windows == 0)
            throw new InvalidDataException($"none of the run's {tooShort} windows holds enough of the agents' one-second CPU samples to be read: " +
                                           "measure windows of several seconds (comparator run --duration 5s, crank/comparator.yml's default)");

        var shared = SharedCores(cells, out var placement);
        var jobs = crank.Jobs.Select(j => new CrankJobSpec(j.Name, timelines.FirstOrDefault(p => p.Value.Job == j).Key,
            j.Cores, j.OperatingSystem, j.Hardware, j.AgentVersion, j.Series(CrankResultFile.CpuRaw).Count)).ToList();
        var unread = tooShort == 0 ? "" : string.Create(CultureInfo.InvariantCulture,
            $"; {tooShort} of {tooShort + windows} windows were too short for the agents' one-second samples and have no server CPU (measure with --duration 5s)");
        var spec = run.Spec with { Crank = new CrankSpec(crank.Source, jobs, shared, placement + unread) };
        var serverCores = spec.SeparateServerCores;
        var precision = spec.PrecisionPercent is double p ? p / 100 : CellFlags.NoisyCv;
        var judged = cells.Select(c => timelines.ContainsKey(c.Key.Target) && c.Repeats.Count > 0 ? Judge(c, spec, precision, serverCores) : c).ToList();
        var targets = run.Targets.Select(t => timelines.TryGetValue(t.Name, out var tl) ? Describe(t, tl.Job, tl.RuntimeCounters is not null) : t).ToList();
        var result = run with { Spec = spec, Cells = judged, Targets = targets };
        return result with { Verdicts = PairVerdicts.Build(result) };
    }

    /// <summary>The cell's flags and bottleneck decided again with the server's CPU; the flags no CPU figure decides (n/a, drivers-disagree) are kept.</summary>
    private static CellResult Judge(CellResult c, RunSpec spec, double precision, int? serverCores)
    {
        var cores = spec.Machine.LogicalCores;
        var flags = CellFlags.For(c.Repeats, c.Key.Concurrency, cores, precision, c.Key.Rate, serverCores).ToList();
        flags.AddRange(c.Flags.Where(f => f is CellFlags.DriversDisagree or CellFlags.NotApplicable && !flags.Contains(f)));
        return c with
        {
            Flags = flags,
            Bottleneck = BottleneckRule.Of(c.Repeats, c.Key.Concurrency, cores, flags, c.Key.Rate, serverCores),
        };
    }

    /// <summary>
    /// Whether the server ran on the driver's cores, told from the figures rather than from names:
    /// the driver's machine's /proc/stat counts every process on its cores, so where the server's CPU
    /// (from its agent) shows up there beyond the driver's own, they shared them (one machine, or
    /// network namespaces on one host); where it does not, the server ran elsewhere. Closed-loop windows
    /// only: in fixed-rate windows /proc/stat counted less than the server's CPU alone, on a local run
    /// as through crank (the open model's timer-paced bursts between idle spells; the per-process
    /// figures of the agent and of /proc/PID/stat agree there), so they cannot tell.
    /// </summary>
    private static bool SharedCores(IReadOnlyList<CellResult> cells, out string placement)
    {
        var windows = cells.Where(c => c.Key.Rate is null).SelectMany(c => c.Repeats)
            .Where(r => r.ServerCpuSeconds is not null && r.MachineCpuSeconds is not null).ToList();
        var server = windows.Sum(r => r.ServerCpuSeconds!.Value);
        if (windows.Count == 0 || server <= 0)
        {
            placement = "separate machines (assumed: the driver's machine's CPU was not read, so the server's cores could not be told apart from the driver's)";
            return false;
        }
        var others = windows.Sum(r => Math.Max(0, r.MachineCpuSeconds!.Value - r.ClientCpuSeconds));
        var share = others / server;
        var figures = string.Create(CultureInfo.InvariantCulture,
            $"over {windows.Count} closed-loop windows the driver's machine counted {others:0.0} CPU s beyond the driver's own, against the server's {server:0.0} s from its agent ({100 * share:0}%)");
        if (share >= SharedCoresShare)
        {
            placement = "one machine's cores (the agents shared one host, e.g. network namespaces): " + figures +
                        "; flags and bottlenecks treat driver and server as sharing these cores";
            return true;
        }
        placement = "separate machines: " + figures + "; the server's share is read against its own agent's cores";
        return false;
    }

    /// <summary>A target crank ran: the catalogue's description where the job is one of its targets, and the job and agent that ran it.</summary>
    private static TargetInfo Describe(TargetInfo t, CrankJob job, bool counters)
    {
        t = t with
        {
            RuntimeCounters = counters
                ? "System.Runtime event counters from crank's agent (runtime-counter/*, one sample a second)"
                : "none from crank's agent (collectCounters is off for the job, or its runtime is not .NET: the agent cannot attach to Mono)",
        };
        var where = $"crank job '{job.Name}'" + (job.Cores is int n ? $" on an agent with {n} logical cores" : "") +
                    (job.OperatingSystem is string os ? $" ({os})" : "") + $", at {t.BaseUrl}";
        return TargetCatalog.Find(t.Name) is TargetDefinition d
            ? t with { Stack = d.Stack + "; " + where, Runtime = d.Runtime, Server = d.Server }
            : t with { Stack = where };
    }
}
