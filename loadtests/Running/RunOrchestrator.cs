using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Statistics;
using Comparator.Targets;

namespace Comparator.Running;

/// <summary>
/// The run: launch after launch, each allotment of cores in turn, a <see cref="LaunchSession"/> starts every
/// target (or uses the running one), verifies it, measures the cells not yet settled on every target in turn
/// and stops them all. A target that fails to start or verify is recorded with the reason and not measured;
/// a target that dies mid-run has its remaining cells recorded as not measured. Everything measured goes to
/// the run's record (and its journal), from which the result is assembled (<see cref="RunAssembly"/>).
/// </summary>
public sealed class RunOrchestrator
{
    private readonly RunOptions _options;
    private readonly IReadOnlyList<ILoadDriver> _drivers;
    private readonly ITargetLauncher _launcher;
    private readonly IRunProgress _progress;
    private readonly JudgeRun _judge;
    private readonly EndpointCheck? _check;

    /// <param name="launcher">starts the targets: <see cref="TargetLauncher"/>, or a test's that starts nothing</param>
    /// <param name="judge">the verdicts' rule: it decides which cells get another launch, and the verdicts the result keeps</param>
    /// <param name="check">checks a target's endpoints before load; null: <see cref="Verification.EndpointVerifier"/> over HTTP</param>
    public RunOrchestrator(RunOptions options, IReadOnlyList<ILoadDriver> drivers, ITargetLauncher launcher, IRunProgress progress, JudgeRun judge,
        EndpointCheck? check = null)
    {
        _judge = judge;
        _options = options;
        _drivers = drivers;
        _launcher = launcher;
        _progress = progress;
        _check = check;
    }

    /// <param name="journal">where every change is appended as it happens (the run directory's journal.jsonl), or null</param>
    public async Task<RunResult> RunAsync(CancellationToken cancellationToken, RunJournal? journal = null)
    {
        var plan = new RunPlan(_options.Cells, _drivers);
        var record = RunRecord.Begin(RunSpecMapping.Start(_options, plan, _drivers, DateTimeOffset.UtcNow), journal);
        var run = new RunContext(_options.Targets, _options.Cells, _options.Window, _options.Judging, plan, record, _launcher, _progress, _check,
            journal is null ? null : System.IO.Path.GetDirectoryName(journal.Path));
        _progress.Message(record.Start.Spec.CpuCounters!);
        if (record.Start.Spec.SystemCalls is string calls) _progress.Message(calls);
        foreach (var missing in _options.Targets.Unavailable)
        {
            _progress.Message($"{missing.Name}: not measured: {missing.UnavailableReason}");
            record.Target(new TargetInfo(missing.Name, missing.Stack, missing.Runtime, missing.Server, null, false, false, missing.UnavailableReason));
        }

        var targets = _options.Targets.Plans.ToList();
        var design = _options.Judging.Rule.Design;
        // The cells still measured: all of them until the design's first look, then those not yet settled.
        var pending = plan.Cells.Select(c => c.Plan).ToHashSet();
        var count = new CellCount
        {
            Total = _options.CellsPerLaunch * (design is null ? _options.Judging.Launches : Math.Min(design.FirstLook, _options.Judging.Launches)),
            SecondsPerCell = _options.Window.CellSeconds,
        };
        var ownCpus = run.Placing ? ProcessSampler.CpusAllowed(Environment.ProcessId) : null;
        var stopped = design is null ? $"a fixed {_options.Judging.Launches} launch(es)" : $"the horizon of {_options.Judging.Launches} launches";
        try
        {
            for (var launch = 0; launch < _options.Judging.Launches && !cancellationToken.IsCancellationRequested; launch++)
            {
                if (design is not null && launch > 0)
                {
                    if (launch >= design.FirstLook)
                    {
                        pending = Unsettled(record);
                        if (pending.Count == 0) { stopped = $"every cell settled after {launch} launches"; break; }
                    }
                    // The planned warm-ups and windows, and the holds until .NET targets' JIT stopped at the mean a target's cell took so far.
                    var next = _options.LaunchLoadSeconds(pending.Count * targets.Count) + record.UnplannedPerTargetCell * pending.Count * targets.Count;
                    if (record.LoadSeconds + next > _options.Judging.BudgetSeconds)
                    {
                        stopped = $"the budget of {_options.Judging.BudgetSeconds:0} s of load after {launch} launches ({pending.Count} cell(s) not settled)";
                        break;
                    }
                    if (launch >= design.FirstLook)
                    {
                        _progress.Message($"launch {launch + 1}: {pending.Count} cell(s) not settled yet, measured again");
                        count.Total = count.Done + pending.Count * targets.Count;
                    }
                    else count.Total = Math.Max(count.Total, count.Done + _options.CellsPerLaunch);
                }
                await LaunchAsync(run, launch, pending, count, cancellationToken);
                record.LaunchEnded(launch + 1, record.LoadSeconds + _options.LaunchLoadSeconds(pending.Count * targets.Count));
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Stopped by the user: what was measured so far is kept and the run is marked partial.
        }
        finally
        {
            // The comparator goes back to the CPUs it started with; the reports need no pinning.
            if (run.Placing && ownCpus is not null) CoreAllotment.MoveThisProcess(ownCpus);
        }
        if (cancellationToken.IsCancellationRequested) stopped = "stopped by the user";
        // The last launches' look, when the loop ended without one (horizon, budget, or a stop).
        if (design is not null && record.LaunchesRun >= design.FirstLook && record.Looks.LastOrDefault()?.Launches != record.LaunchesRun)
            Unsettled(record);
        record.End(cancellationToken.IsCancellationRequested, stopped);
        return RunAssembly.Result(record, cancellationToken.IsCancellationRequested, record.LastAt, _judge);
    }

    /// <summary>
    /// One launch: every allotment of cores in turn, each starting the targets afresh. Every other launch takes
    /// the allotments, and within each the targets, in the opposite order, so that neither side always goes
    /// first (see LeadRule: launches are the unit of evidence).
    /// </summary>
    private async Task LaunchAsync(RunContext run, int launch, HashSet<CellPlan> pending, CellCount count, CancellationToken cancellationToken)
    {
        var allotments = launch % 2 == 0 ? _options.Cells.Allotments : _options.Cells.Allotments.Reverse().ToList();
        for (var place = 0; place < allotments.Count && !cancellationToken.IsCancellationRequested; place++)
        {
            var allotment = allotments[place];
            var here = pending.Where(id => id.Key.Cores == allotment.Label).ToHashSet();
            if (here.Count == 0) continue;
            if (run.Placing)
            {
                allotment.PinDriver(Environment.ProcessorCount);
                _progress.Message($"cores: the targets {allotment.Phrase}");
            }
            var order = launch % 2 == 0 ? _options.Targets.Plans : Enumerable.Reverse(_options.Targets.Plans).ToList();
            await using var session = new LaunchSession(run, launch, first: launch == 0 && place == 0, allotment, refusesCommands: launch == 0 && place == 0);
            await session.StartAsync(order, cancellationToken);
            // A command that does not start at its first try is a mistake in it (its program, its ready check, its port): one line
            // and exit 2, as any bad input, nothing measured yet; at a later launch the service failed, and the run goes on without it.
            if (launch == 0 && place == 0 && session.CommandStartFailures.Count > 0) throw new CommandTargetException(session.CommandStartFailures[0]);
            await LaunchMeasurement.MeasureAsync(run, session, launch, here, count, cancellationToken);
        }
    }

    /// <summary>
    /// The design's look: every cell judged by the rule on what its launches measured so far (req/s in the
    /// closed loop, server CPU at a fixed rate, every pair with the baseline), and the cells some pair has
    /// not settled. A cell the rule cannot judge at all (failed, paced by a wait, overloaded) gets no more launches.
    /// </summary>
    private HashSet<CellPlan> Unsettled(RunRecord record)
    {
        var verdicts = _judge(RunAssembly.Interim(record));
        var open = new HashSet<CellPlan>();
        int cells = 0, settled = 0;
        foreach (var planned in record.Start.Cells)
        {
            // The figure that decides the cell (Metrics.Deciding: a count of work where both sides' verdict on it has an interval,
            // else the figure that decides at this kind of cell: req/s flat out, server CPU at a fixed rate). Verdicts are the first
            // driver's, and a further driver's cell follows them (measured in the same launches).
            var cell = planned.For(CellKey.AnyTarget, record.RateOf(planned));
            var here = verdicts.Where(v => v.Key with { Target = CellKey.AnyTarget, Driver = cell.Driver } == cell).ToList();
            bool Read(MetricDescriptor m) => here.Any(v => v.Metric == m.VerdictId) && here.Where(v => v.Metric == m.VerdictId).All(v => v.RatioLow is not null || v.Reason == LeadRule.OneUnit);
            var deciding = Metrics.Deciding(Metrics.VerdictFigures(fixedRate: planned.Rate is not null), planned.Rate is not null, Read);
            var judged = here.Where(v => v.Metric == deciding?.VerdictId).ToList();
            if (judged.Count == 0) continue;
            cells++;
            if (judged.All(v => v.Settled)) settled++;
            if (judged.Any(v => !v.Settled && (v.RatioLow is not null || v.Reason == LeadRule.OneUnit))) open.Add(planned);
        }
        record.Look(new LookSpec(record.LaunchesRun, Math.Round(record.LoadSeconds, 1), cells, settled));
        return open;
    }
}
