using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Running;
using Comparator.Statistics;
using Comparator.Targets;

namespace Comparator.Capacity;

/// <summary>
/// The capacity run: launch after launch (every target started afresh and verified by the run's own
/// <see cref="LaunchSession"/>), every cell, every target in turn (the order reversed on every other
/// launch), one <see cref="CapacitySearch"/> each, its steps fixed-rate windows measured as `run`
/// measures them (<see cref="CellMeasurer"/>: the server's CPU from /proc over exactly the window).
/// </summary>
public sealed class CapacityRunner
{
    private readonly CapacityOptions _options;
    private readonly ILoadDriver _driver;
    private readonly TargetLauncher _launcher;
    private readonly IRunProgress _progress;

    public CapacityRunner(CapacityOptions options, ILoadDriver driver, TargetLauncher launcher, IRunProgress progress)
    {
        (_options, _driver, _launcher, _progress) = (options, driver, launcher, progress);
    }

    public async Task<CapacityResult> RunAsync(CancellationToken cancellationToken)
    {
        var (targets, judging) = (_options.Targets, _options.Judging);
        var drivers = new[] { _driver };
        var plan = new RunPlan(_options.Cells, drivers);
        var startedAt = DateTimeOffset.UtcNow;
        var record = RunRecord.Begin(RunSpecMapping.Start(targets, _options.Cells, _options.Window, judging, plan, drivers, startedAt, _options.Label), null);
        var context = new RunContext(targets, _options.Cells, _options.Window, judging, plan, record, _launcher, _progress);
        foreach (var missing in targets.Unavailable)
        {
            _progress.Message($"{missing.Name}: not measured: {missing.UnavailableReason}");
            record.Target(new TargetInfo(missing.Name, missing.Stack, missing.Runtime, missing.Server, null, false, false, missing.UnavailableReason));
        }
        var searches = new Dictionary<CellKey, List<CapacitySearchRecord>>();
        var ownCpus = context.Placing ? ProcessSampler.CpusAllowed(Environment.ProcessId) : null;
        try
        {
            for (var launch = 0; launch < judging.Launches && !cancellationToken.IsCancellationRequested; launch++)
            {
                var allotments = launch % 2 == 0 ? _options.Cells.Allotments : _options.Cells.Allotments.Reverse().ToList();
                for (var place = 0; place < allotments.Count && !cancellationToken.IsCancellationRequested; place++)
                {
                    var allotment = allotments[place];
                    if (context.Placing) allotment.PinDriver(Environment.ProcessorCount);
                    var order = launch % 2 == 0 ? targets.Plans : targets.Plans.Reverse().ToList();
                    await using var session = new LaunchSession(context, launch, first: launch == 0 && place == 0, allotment);
                    await session.StartAsync(order, cancellationToken);
                    var cold = session.Active.ToDictionary(t => t.Plan.Name, _ => true);
                    foreach (var cell in plan.Cells.Where(c => c.Plan.Key.Cores == allotment.Label))
                    foreach (var target in session.Active)
                    {
                        if (cancellationToken.IsCancellationRequested) break;
                        var request = session.RequestFor(cell, target);
                        if (_driver.CannotMeasure(request, _options.Window.KeepAlive) is string cannot)
                        {
                            if (launch == 0) _progress.Message($"{target.Plan.Name} {cell.Label}: n/a: {cannot}");
                            continue;
                        }
                        var search = await SearchAsync(cell, target, request, launch, cold[target.Plan.Name], cancellationToken);
                        cold[target.Plan.Name] = false;
                        if (search is null) continue;
                        var key = record.Key(target.Plan.Name, cell.Plan);
                        (searches.TryGetValue(key, out var list) ? list : searches[key] = new List<CapacitySearchRecord>()).Add(search);
                    }
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Stopped by the user: the searches that ended are kept and the run is marked partial.
        }
        finally
        {
            if (context.Placing && ownCpus is not null) CoreAllotment.MoveThisProcess(ownCpus);
        }
        return CapacityAssembly.Result(_options, record, searches, startedAt, cancellationToken.IsCancellationRequested);
    }

    /// <summary>One target's search in one cell and launch; null when a stop cut it short before it began.</summary>
    private async Task<CapacitySearchRecord?> SearchAsync(PlannedCell cell, ActiveTarget target, LoadRequest request, int launch, bool cold, CancellationToken cancellationToken)
    {
        var (window, launches) = (_options.Window, _options.Judging.Launches);
        var pid = target.Running?.ProcessId ?? target.Plan.ExternalPid;
        var participant = new[] { new CellParticipant(request, pid, target.CpuCounters) };
        var concurrency = cell.Plan.Key.Concurrency;
        var label = $"{target.Plan.Name} {cell.Label}" + (launches > 1 ? $" launch {launch + 1}/{launches}" : "");
        var oneWindow = new RepeatRule(1, 1, window.Rounds.Precision);
        var closedLoop = new CellMeasurer(_driver, window with { Duration = _options.Step, Rounds = oneWindow });
        var closed = (await closedLoop.MeasureInterleavedAsync(participant, concurrency, cancellationToken, cold))[0];
        if (closed.Count == 0) return null;
        var rps = closed[0].RequestsPerSecond;
        if (closed[0].Failed > 0 || rps <= 0)
        {
            _progress.CellFinished(label, $"no capacity: the closed loop answered {rps:0} req/s with {closed[0].Failed} failed");
            return new CapacitySearchRecord(launch, rps, Array.Empty<CapacityStepRecord>(), null, null, 0, 0);
        }
        _progress.Message(string.Create(CultureInfo.InvariantCulture, $"{label}: closed loop {rps:0} req/s; searching from {rps * CapacityOptions.StartShare:0} req/s"));

        var stepper = new CellMeasurer(_driver, window with { Warmup = _options.StepWarmup, Duration = _options.Step, Rounds = oneWindow });
        var steps = new List<CapacityStepRecord>();
        var (floor, ceiling) = (CapacityOptions.Floor(rps), rps * CapacityOptions.CeilingShare);
        var bracket = await CapacitySearch.FindAsync(rps * CapacityOptions.StartShare, _options.Precision, floor, ceiling, async (rate, token) =>
        {
            var windows = (await stepper.MeasureInterleavedAsync(participant, concurrency, token, rate: rate))[0];
            token.ThrowIfCancellationRequested();
            var window = windows[0] with { Launch = launch, Round = steps.Count };
            var latencies = _options.Objectives.Select(o => o.LatencyMs(window)).ToList();
            var failure = StepRule.Failure(window, rate, _options.Objectives, latencies);
            steps.Add(new CapacityStepRecord(rate, failure, latencies, window));
            _progress.CellFinished(label, string.Create(CultureInfo.InvariantCulture,
                $"@{rate:0}/s: {window.RequestsPerSecond:0} req/s, {string.Join(", ", _options.Objectives.Zip(latencies, (o, l) => $"p{o.Percentile:0.###} {l:0.##} ms"))}: {failure ?? "held"}"));
            return new CapacityStep(rate, failure);
        }, cancellationToken);
        var ended = bracket.Held is not double held ? string.Create(CultureInfo.InvariantCulture, $"no rate held, down to {floor:0.#} req/s")
            : bracket.Broke is double broke ? string.Create(CultureInfo.InvariantCulture, $"capacity {held:0} req/s (broke at {broke:0})")
            : string.Create(CultureInfo.InvariantCulture, $"capacity {held:0} req/s (held up to the ceiling, {ceiling:0})");
        _progress.Message($"{label}: {ended}");
        return new CapacitySearchRecord(launch, rps, steps, bracket.Held, bracket.Broke, floor, ceiling);
    }
}
