using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Statistics;
using Comparator.Targets;
using Comparator.Verification;
using Comparator.Comparing;
using Comparator.Scenarios;

namespace Comparator.Running;

/// <summary>
/// The run: start every target (or use the running one) and verify every endpoint; then measure
/// cell by cell, each cell on every target in turn (<see cref="CellMeasurer.MeasureInterleavedAsync"/>);
/// stop them all. A target that fails to start or verify is recorded with the reason and not
/// measured; a target that dies mid-run has its remaining cells recorded as not measured.
/// </summary>
public sealed class RunOrchestrator
{
    private readonly RunOptions _options;
    private readonly IReadOnlyList<ILoadDriver> _drivers;
    private readonly TargetLauncher _launcher;
    private readonly IRunProgress _progress;

    public RunOrchestrator(RunOptions options, IReadOnlyList<ILoadDriver> drivers, TargetLauncher launcher, IRunProgress progress)
    {
        _options = options;
        _drivers = drivers;
        _launcher = launcher;
        _progress = progress;
    }

    public async Task<RunResult> RunAsync(CancellationToken cancellationToken)
    {
        var started = DateTimeOffset.UtcNow;
        var targets = new List<TargetInfo>();
        var checks = new List<Check>();
        // Every launch's windows of a cell, and the last reason a launch could not measure it.
        var windows = new Dictionary<CellKey, List<Measurement>>();
        var missed = new Dictionary<CellKey, (string Reason, string Flag)>();
        var launchFailures = new Dictionary<string, List<string>>();

        foreach (var missing in _options.Unavailable)
        {
            _progress.Message($"{missing.Name}: not measured: {missing.UnavailableReason}");
            targets.Add(new TargetInfo(missing.Name, missing.Stack, missing.Runtime, missing.Server, null, false, false, missing.UnavailableReason));
        }

        var plans = _options.Targets.ToList();
        var design = _options.Lead.Design;
        // The cells still measured: all of them until the design's first look, then those not yet settled.
        var pending = PlannedCells().Select(c => c.Id).ToHashSet();
        var total = _options.CellCount * (design is null ? _options.Launches : Math.Min(design.FirstLook, _options.Launches));
        var done = 0;
        var perCell = _options.Warmup.TotalSeconds + _options.Repeat * _options.Duration.TotalSeconds;
        var ownCpus = Placing ? ProcessSampler.CpusAllowed(Environment.ProcessId) : null;
        _stopped = design is null ? $"a fixed {_options.Launches} launch(es)" : $"the horizon of {_options.Launches} launches";
        try
        {
            for (var launch = 0; launch < _options.Launches && !cancellationToken.IsCancellationRequested; launch++)
            {
                if (design is not null && launch > 0)
                {
                    if (launch >= design.FirstLook)
                    {
                        pending = Unsettled(targets, checks, windows, missed, launchFailures, started);
                        if (pending.Count == 0) { _stopped = $"every cell settled after {launch} launches"; break; }
                    }
                    var next = _options.LaunchLoadSeconds(pending.Count * plans.Count);
                    if (_loadSeconds + next > _options.BudgetSeconds)
                    {
                        _stopped = $"the budget of {_options.BudgetSeconds:0} s of load after {launch} launches ({pending.Count} cell(s) not settled)";
                        break;
                    }
                    if (launch >= design.FirstLook)
                    {
                        _progress.Message($"launch {launch + 1}: {pending.Count} cell(s) not settled yet, measured again");
                        total = done + pending.Count * plans.Count;
                    }
                    else total = Math.Max(total, done + _options.CellCount);
                }
                // Every other launch takes the allotments of cores, and within each the targets, in the opposite
                // order, so that neither side always goes first (see LeadRule: launches are the unit of evidence).
                var allotments = launch % 2 == 0 ? _options.Allotments : _options.Allotments.Reverse().ToList();
                for (var place = 0; place < allotments.Count && !cancellationToken.IsCancellationRequested; place++)
                {
                    var allotment = allotments[place];
                    var here = pending.Where(id => id.Cores == allotment.Label).ToHashSet();
                    if (here.Count == 0) continue;
                    var first = launch == 0 && place == 0;
                    if (Placing)
                    {
                        allotment.PinDriver(Environment.ProcessorCount);
                        _progress.Message($"cores: the targets {allotment.Phrase}");
                    }
                    var order = launch % 2 == 0 ? plans : Enumerable.Reverse(plans).ToList();
                    var active = new List<ActiveTarget>();
                    try
                    {
                        foreach (var plan in order)
                        {
                            if (cancellationToken.IsCancellationRequested) break;
                            if (!first && targets.Any(t => t.Name == plan.Name && !t.Measured)) continue; // failed its first start: not retried
                            if (_options.Launches > 1) _progress.Message($"launch {launch + 1}{LaunchOf}: {plan.Name}");
                            var ready = await StartAndVerifyAsync(plan, launch, first, allotment, targets, checks, launchFailures, cancellationToken);
                            if (ready is not null) active.Add(ready);
                        }
                        // A scenario's rules compare targets (same-as), so its operations are verified once all are up.
                        var answers = _options.Scenario is Scenario scenario && !cancellationToken.IsCancellationRequested
                            ? await VerifyScenarioAsync(scenario, launch, first, active, targets, checks, launchFailures, cancellationToken)
                            : null;
                        done = await MeasureLaunchAsync(launch, active, answers, here, windows, missed, launchFailures, done, total, perCell, cancellationToken);
                    }
                    finally
                    {
                        foreach (var target in active)
                        {
                            if (target.Counters is not null) await target.Counters.DisposeAsync();
                            if (target.Running is not null) await target.Running.DisposeAsync();
                        }
                    }
                }
                _loadSeconds += _options.LaunchLoadSeconds(pending.Count * plans.Count);
                _launchesRun = launch + 1;
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Stopped by the user: what was measured so far is kept and the run is marked partial.
        }
        finally
        {
            // The comparator goes back to the CPUs it started with; the reports need no pinning.
            if (Placing && ownCpus is not null) CoreAllotment.MoveThisProcess(ownCpus);
        }
        if (cancellationToken.IsCancellationRequested) _stopped = "stopped by the user";
        // The last launches' look, when the loop ended without one (horizon, budget, or a stop).
        if (design is not null && _launchesRun >= design.FirstLook && _looks.LastOrDefault()?.Launches != _launchesRun)
            Unsettled(targets, checks, windows, missed, launchFailures, started);

        var cells = CellsFrom(targets, windows, missed);
        var withFailures = targets.Select(t => launchFailures.TryGetValue(t.Name, out var f) ? t with { LaunchFailures = f } : t).ToList();
        var result = new RunResult(RunResult.CurrentSchemaVersion, Spec(), started, DateTimeOffset.UtcNow,
            Partial: cancellationToken.IsCancellationRequested, withFailures, checks, DriverAgreement.Flag(cells));
        return result with { Verdicts = PairVerdicts.Build(result) };
    }

    /// <summary>Load spent so far (warm-ups and measured windows), launches run, and why the run stopped adding launches.</summary>
    private double _loadSeconds;
    private int _launchesRun;
    private string _stopped = "";
    private readonly List<LookSpec> _looks = new();

    /// <summary>Whether this run places the targets and the driver itself (--server-cores); --pin is placed once by the command.</summary>
    private bool Placing => _options.ServerCores is not null;

    private string LaunchOf => _options.Lead.Design is null ? $" of {_options.Launches}" : "";

    /// <summary>One record per cell and target, in the order asked: every launch's windows, or why none.</summary>
    private List<CellResult> CellsFrom(List<TargetInfo> targets, Dictionary<CellKey, List<Measurement>> windows, Dictionary<CellKey, (string Reason, string Flag)> missed)
    {
        var cells = new List<CellResult>();
        foreach (var planned in PlannedCells())
        {
            foreach (var plan in _options.Targets)
            {
                var info = targets.FirstOrDefault(t => t.Name == plan.Name);
                var key = Key(plan, planned);
                if (info is { Measured: false })
                    cells.Add(NotMeasured(plan, planned, info.NotMeasuredReason!));
                else if (windows.TryGetValue(key, out var measured) && measured.Count > 0)
                    cells.Add(Measured(plan, planned, measured));
                else if (missed.TryGetValue(key, out var why))
                    cells.Add(NotMeasured(plan, planned, why.Reason, why.Flag));
                else
                    cells.Add(NotMeasured(plan, planned, "stopped before a repeat completed"));
            }
        }
        return cells;
    }

    /// <summary>
    /// The design's look: every cell judged by the rule on what its launches measured so far (req/s in the
    /// closed loop, server CPU at a fixed rate, every pair with the baseline), and the cells some pair has
    /// not settled. A cell the rule cannot judge at all (failed, paced by a wait, overloaded) gets no more launches.
    /// </summary>
    private HashSet<CellId> Unsettled(List<TargetInfo> targets, List<Check> checks, Dictionary<CellKey, List<Measurement>> windows,
        Dictionary<CellKey, (string Reason, string Flag)> missed, Dictionary<string, List<string>> launchFailures, DateTimeOffset started)
    {
        var interim = new RunResult(RunResult.CurrentSchemaVersion, Spec(), started, DateTimeOffset.UtcNow, false, targets, checks, CellsFrom(targets, windows, missed));
        var verdicts = PairVerdicts.Build(interim);
        var open = new HashSet<CellId>();
        int cells = 0, settled = 0;
        foreach (var planned in PlannedCells())
        {
            var rate = RateOf(planned);
            var metric = planned.Rate is null ? CellVerdict.RequestsPerSecond : CellVerdict.ServerCpu;
            var judged = verdicts.Where(v => v.Metric == metric && v.Endpoint == planned.Endpoint && v.SizeBytes == planned.Payload.Spec.Bytes &&
                                             v.Concurrency == planned.Concurrency && v.Rate == rate && v.Cores == planned.Cores.Label).ToList();
            if (judged.Count == 0) continue;
            cells++;
            if (judged.All(v => v.Settled)) settled++;
            if (judged.Any(v => !v.Settled && (v.RatioLow is not null || v.Reason == LeadRule.OneUnit))) open.Add(planned.Id);
        }
        _looks.Add(new LookSpec(_launchesRun, Math.Round(_loadSeconds, 1), cells, settled));
        return open;
    }

    /// <summary>One launch: every pending cell on every active target in turn, the windows added to the cell's list.</summary>
    private async Task<int> MeasureLaunchAsync(int launch, IReadOnlyList<ActiveTarget> active, IReadOnlyList<ScenarioAnswer>? answers, HashSet<CellId> pending,
        Dictionary<CellKey, List<Measurement>> windows,
        Dictionary<CellKey, (string Reason, string Flag)> missed, Dictionary<string, List<string>> launchFailures,
        int done, int total, double perCell, CancellationToken cancellationToken)
    {
        var cold = true;
        foreach (var planned in PlannedCells().Where(c => pending.Contains(c.Id)))
        {
            if (cancellationToken.IsCancellationRequested || active.Count == 0) break;
            var (concurrency, driver) = (planned.Concurrency, planned.Driver);
            var rate = RateOf(planned);
            var label = $"{planned.Endpoint}{(planned.HasSize ? " " + planned.Payload.Spec.Label : "")} c={concurrency} {driver.Name}" +
                        (rate is double asked ? string.Create(CultureInfo.InvariantCulture, $" @{asked:0}/s") : "");
            if (planned.Rate is not null && rate is null)
            {
                foreach (var target in active)
                    missed[Key(target.Plan, planned)] = ($"{planned.Rate.Describe()}: the closed-loop cell measured no capacity on every target in the first launch", CellFlags.NotMeasured);
                done += active.Count;
                continue;
            }
            var participants = new List<(ActiveTarget Target, LoadRequest Request)>();
            foreach (var target in active)
            {
                var request = planned.Operation is Operation operation
                    ? OperationRequest(operation, target, answers!)
                    : LoadRequest.For(planned.Contract!, target.BaseUrl, planned.Payload.Bytes, _options.JsonItems);
                if (driver.CannotMeasure(request, _options.KeepAlive) is string cannot)
                    missed[Key(target.Plan, planned)] = ($"{driver.Name}: {cannot}", CellFlags.NotApplicable);
                else if (target.Running is { HasExited: true })
                {
                    missed[Key(target.Plan, planned)] = ("the target process exited during the run", CellFlags.NotMeasured);
                    // Its cells keep the other launches' windows; the verdict names the launch it missed.
                    var note = $"launch {launch + 1}: the process exited during the launch";
                    var notes = launchFailures.TryGetValue(target.Plan.Name, out var list) ? list : launchFailures[target.Plan.Name] = new List<string>();
                    if (!notes.Contains(note)) notes.Add(note);
                }
                else
                    participants.Add((target, request));
            }
            done += active.Count;
            if (participants.Count == 0) continue;

            var launchText = _options.Launches > 1 ? $" launch {launch + 1}" + (_options.Lead.Design is null ? $"/{_options.Launches}" : "") : "";
            _progress.CellStarted(done, total, $"{label}{launchText} ({string.Join(", ", participants.Select(p => p.Target.Plan.Name))})",
                (total - done + participants.Count) * perCell);
            var names = participants.Select(p => p.Target.Plan.Name).ToList();
            var repeats = await new CellMeasurer(driver, _options).MeasureInterleavedAsync(
                participants.Select(p => (p.Request, p.Target.Running?.ProcessId ?? p.Target.Plan.ExternalPid)).ToList(), concurrency, cancellationToken, cold,
                // A round's CV within the launch only means something when the launch has several rounds.
                _options.Repeats.MaxRepeat < 2 ? null : rounds => _progress.RoundFinished(label, rounds[0].Count, string.Join(", ", rounds.Select((r, i) =>
                    string.Create(CultureInfo.InvariantCulture, $"{names[i]} cv {100 * Spread.CoefficientOfVariation(r.Select(m => m.RequestsPerSecond).ToList()):0.0}%")))), rate);
            cold = false;
            for (var i = 0; i < participants.Count; i++)
            {
                var key = Key(participants[i].Target.Plan, planned);
                var counted = await WithCountersAsync(participants[i].Target.Counters, repeats[i], cancellationToken);
                var tagged = counted.Select((m, round) => m with { Launch = launch, Round = round }).ToList();
                if (!windows.TryGetValue(key, out var list)) windows[key] = list = new List<Measurement>();
                list.AddRange(tagged);
                _progress.CellFinished($"{participants[i].Target.Plan.Name} {label}{launchText}",
                    tagged.Count == 0 ? "not measured: stopped before a repeat completed" : Outcome(tagged, concurrency, rate));
            }
            // The first launch's closed-loop capacity sets every launch's share-of-capacity rates, so the cell's rate stays one.
            if (planned.Rate is null && launch == 0 && participants.Count == active.Count && repeats.All(r => r.Count > 0 && r.All(m => m.Failed == 0)))
                _capacity[planned.ClosedLoop] = repeats.Min(r => CellMeasurer.MedianRepeat(r).RequestsPerSecond);
        }
        return done;
    }

    /// <summary>
    /// An operation as a target asks it under load, checked by its rule: a same-as rule compares each
    /// answer with the reference target's answer in this launch's verification.
    /// </summary>
    private static LoadRequest OperationRequest(Operation operation, ActiveTarget target, IReadOnlyList<ScenarioAnswer> answers)
    {
        ScenarioAnswer? Answer(string name) => answers.FirstOrDefault(a => a.Operation == operation.Label && a.Target == name);
        var reference = Scenario.ExpectFor(operation, target.Plan.Name).Body is BodyRule.SameAs same ? Answer(same.Target)?.Body : null;
        return LoadRequest.For(operation, target.Plan.Name, target.BaseUrl, reference, Answer(target.Plan.Name)?.Chunked == true);
    }

    /// <summary>
    /// Every operation once per started target, checked by the file's rules (as `verify --scenario`);
    /// a target with a wrong answer is not measured in this launch, and the first launch's answers are
    /// the run's verification. Returns the answers, the references of the same-as rules under load.
    /// </summary>
    private async Task<IReadOnlyList<ScenarioAnswer>> VerifyScenarioAsync(Scenario scenario, int launch, bool first, List<ActiveTarget> active, List<TargetInfo> targets,
        List<Check> checks, Dictionary<string, List<string>> launchFailures, CancellationToken cancellationToken)
    {
        var answers = await TargetCheck.VerifyScenarioAsync(scenario, active.Select(t => (t.Plan.Name, t.BaseUrl)).ToList(), cancellationToken);
        if (first) checks.AddRange(TargetCheck.ChecksOf(answers));
        foreach (var target in active.ToList())
        {
            if (TargetCheck.ScenarioFailure(answers, target.Plan.Name) is not string reason) continue;
            _progress.Message($"{target.Plan.Name}: {(first ? "not measured" : $"launch {launch + 1} not measured")}: {reason}");
            if (first)
            {
                var index = targets.FindIndex(t => t.Name == target.Plan.Name);
                targets[index] = targets[index] with { Measured = false, NotMeasuredReason = reason };
            }
            else (launchFailures.TryGetValue(target.Plan.Name, out var list) ? list : launchFailures[target.Plan.Name] = new List<string>()).Add($"launch {launch + 1}: {reason}");
            active.Remove(target);
            if (target.Counters is not null) await target.Counters.DisposeAsync();
            if (target.Running is not null) await target.Running.DisposeAsync();
        }
        return answers;
    }

    /// <summary>Each window's runtime counters, once the samples covering the last window have arrived.</summary>
    private static async Task<IReadOnlyList<Measurement>> WithCountersAsync(RuntimeCounterSession? counters, IReadOnlyList<Measurement> windows,
        CancellationToken cancellationToken)
    {
        if (counters is null || windows.Count == 0) return windows;
        static DateTimeOffset? End(Measurement m) => m.WindowStartedAt?.AddSeconds(m.ElapsedSeconds);
        if (windows.Select(End).Max() is DateTimeOffset last) await counters.WaitForSamplesAsync(last, cancellationToken);
        return windows.Select(m => m.WindowStartedAt is DateTimeOffset start ? m with { Counters = counters.Window(start, End(m)!.Value) } : m).ToList();
    }

    /// <summary>A target that started (or was given by URL) and passed verification; a started .NET target has its counter session.</summary>
    private sealed record ActiveTarget(TargetPlan Plan, RunningTarget? Running, Uri BaseUrl, RuntimeCounterSession? Counters = null);

    /// <summary>What this run reads of a target's runtime: EventPipe counters on .NET, nothing of the kind on Mono.</summary>
    private static (RuntimeCounterSession? Session, string Note) CountersFor(TargetPlan plan, RunningTarget? running)
    {
        if (running is null) return (null, "not read: an external service's process is not the comparator's to attach to");
        if (plan.Definition!.Host != HostRuntime.DotNet)
            return (null, OperatingSystem.IsWindows() ? "not read: the .NET Framework publishes its counters through ETW and performance counters, which this comparator does not attach" : NotOnMono);
        var session = RuntimeCounterSession.TryStart(running.ProcessId, out var whyNot);
        return (session, session is not null ? CountersOn : "not read: " + whyNot);
    }

    public const string CountersOn = "System.Runtime event counters through EventPipe, one sample a second: thread-pool threads and queue, completed items, GCs per generation, time in GC, allocation rate, lock contentions";
    public const string NotOnMono = "not available: Mono 6.8 has no EventPipe and no event counters; server CPU and peak RSS come from /proc as for every target";

    /// <summary>Starts and verifies one target; on failure records why (the last TargetInfo) and returns null.</summary>
    /// <remarks>
    /// The first launch records the target and its checks; a later launch that fails is recorded in
    /// <paramref name="launchFailures"/> and that launch goes on without the target.
    /// </remarks>
    private async Task<ActiveTarget?> StartAndVerifyAsync(TargetPlan plan, int launch, bool first, CoreAllotment allotment, List<TargetInfo> targets, List<Check> checks,
        Dictionary<string, List<string>> launchFailures, CancellationToken cancellationToken)
    {
        void Failed(string reason)
        {
            _progress.Message($"{plan.Name}: {(first ? "not measured" : $"launch {launch + 1} not measured")}: {reason}");
            if (first) targets.Add(Info(plan, null, reason));
            else (launchFailures.TryGetValue(plan.Name, out var list) ? list : launchFailures[plan.Name] = new List<string>()).Add($"launch {launch + 1}: {reason}");
        }

        // Every launch of a started target is verified (a fresh process may not answer alike); the
        // results keep the first launch's checks, and the first launch of a service given by URL.
        // A scenario's own operations are verified once every target is up (VerifyScenarioAsync), not the contract's.
        var started = await TargetCheck.StartAndVerifyAsync(_launcher, plan.Name, plan.Definition, plan.ExternalUrl,
            new ServiceSwitches(_options.ServerHeader, TcpNoDelay: _options.TcpNoDelay), verify: _options.Scenario is null && (first || plan.ExternalUrl is null),
            Placing ? allotment.ServerCpus : null, _progress.Message, cancellationToken);
        var running = started.Running;
        if (started.LaunchError is string error)
        {
            Failed(error);
            return null;
        }
        var baseUrl = started.BaseUrl!;
        if (!first && running is null) return new ActiveTarget(plan, running, baseUrl);
        if (first) checks.AddRange(started.Checks);
        if (started.Failure is not string reason)
        {
            var (counters, countersNote) = CountersFor(plan, running);
            if (first) targets.Add(Info(plan, baseUrl.ToString().TrimEnd('/'), null) with { TcpNoDelay = running?.TcpNoDelay, RuntimeCounters = countersNote });
            return new ActiveTarget(plan, running, baseUrl, counters);
        }
        if (first) targets.Add(Info(plan, baseUrl.ToString().TrimEnd('/'), reason) with { TcpNoDelay = running?.TcpNoDelay });
        else Failed(reason);
        if (first) _progress.Message($"{plan.Name}: not measured: {reason}");
        await started.DisposeAsync();
        return null;
    }

    /// <summary>A cell to measure on every target: a contract endpoint at a size, or a scenario's operation.</summary>
    private sealed record PlannedCell(string Endpoint, EndpointSpec? Contract, Operation? Operation, Payload Payload, int Concurrency, ILoadDriver Driver,
        CoreAllotment Cores, RateSpec? Rate = null)
    {
        /// <summary>The closed-loop cell whose capacity a share-of-capacity rate is taken from.</summary>
        public (string, long, int, string, string) ClosedLoop => (Endpoint, Payload.Spec.Bytes, Concurrency, Driver.Name, Cores.Label);

        public bool HasSize => Contract?.SendsBody ?? Operation?.Size is not null;

        /// <summary>The cell's identity across launches (a planned cell is built anew on every pass over the plan).</summary>
        public CellId Id => new(Endpoint, Payload.Spec.Bytes, Payload.Spec.Label, Concurrency, Driver.Name, Rate, Cores.Label);
    }

    private sealed record CellId(string Endpoint, long Bytes, string Label, int Concurrency, string Driver, RateSpec? Rate, string Cores);

    /// <summary>Every cell of the run, allotment of cores by allotment (the outermost axis: each starts the targets afresh).</summary>
    private IEnumerable<PlannedCell> PlannedCells() => _options.Allotments.SelectMany(PlannedCells);

    private IEnumerable<PlannedCell> PlannedCells(CoreAllotment cores)
    {
        var none = new Payload(new PayloadSpec("-", 0, "none"), Array.Empty<byte>());
        if (_options.Scenario is Scenario scenario)
        {
            foreach (var operation in scenario.Operations)
            {
                var size = operation.Size is OperationSize s ? new Payload(new PayloadSpec(s.Label, s.Bytes, BodySource(operation)), Array.Empty<byte>()) : none;
                foreach (var concurrency in _options.Concurrency)
                foreach (var driver in _drivers)
                foreach (var cell in WithRates(new PlannedCell(operation.Name, null, operation, size, concurrency, driver, cores)))
                    yield return cell;
            }
            yield break;
        }
        foreach (var endpoint in _options.Endpoints)
        foreach (var payload in endpoint.SendsBody ? _options.Sizes : new[] { none })
        foreach (var concurrency in _options.Concurrency)
        foreach (var driver in _drivers)
        foreach (var cell in WithRates(new PlannedCell(endpoint.Name, endpoint, null, payload, concurrency, driver, cores)))
            yield return cell;
    }

    /// <summary>A closed-loop cell, then its fixed-rate passes where the driver holds a rate.</summary>
    private IEnumerable<PlannedCell> WithRates(PlannedCell closed)
    {
        yield return closed;
        if (!closed.Driver.HoldsRate) yield break;
        foreach (var rate in _options.RatePasses) yield return closed with { Rate = rate };
    }

    /// <summary>Each closed-loop cell's capacity in the first launch: the lowest median req/s of the targets compared in it.</summary>
    private readonly Dictionary<(string, long, int, string, string), double> _capacity = new();

    /// <summary>The requests/s a fixed-rate cell asks, whole; null for the closed loop or while its capacity is unknown.</summary>
    private double? RateOf(PlannedCell c) => c.Rate switch
    {
        null => null,
        { PerSecond: double r } => r,
        { ShareOfCapacity: double share } => _capacity.TryGetValue(c.ClosedLoop, out var capacity) ? Math.Max(1, Math.Round(capacity * share)) : null,
        _ => null,
    };

    /// <summary>The body files an operation's requests send at this size, for the payload's source.</summary>
    private static string BodySource(Operation operation) =>
        string.Join(", ", operation.PerTarget.Values.Append(operation.Default).Select(r => r?.BodyFile).OfType<string>().Distinct());

    private CellKey Key(TargetPlan plan, PlannedCell c) =>
        new(plan.Name, c.Endpoint, c.Payload.Spec.Bytes, c.Concurrency, c.Driver.Name, c.Rate is null ? null : RateOf(c) ?? 0, c.Cores.Label);

    private CellResult Measured(TargetPlan plan, PlannedCell c, IReadOnlyList<Measurement> repeats)
    {
        if (repeats.Count == 0) return NotMeasured(plan, c, "stopped before a repeat completed");
        var rate = RateOf(c);
        var flags = CellFlags.For(repeats, c.Concurrency, Environment.ProcessorCount, _options.Repeats.Precision, rate);
        return new CellResult(Key(plan, c), RuntimeOf(plan), c.Payload.Spec.Label, _options.KeepAlive, repeats,
            CellMeasurer.MedianRepeat(repeats), repeats.Min(r => r.RequestsPerSecond), repeats.Max(r => r.RequestsPerSecond),
            repeats.Sum(r => r.Failed), repeats.Sum(r => r.Non2xx), flags, null,
            Spread.CoefficientOfVariation(repeats.Select(r => r.RequestsPerSecond).ToList()))
        {
            Bottleneck = BottleneckRule.Of(repeats, c.Concurrency, Environment.ProcessorCount, flags, rate),
        };
    }

    private CellResult NotMeasured(TargetPlan plan, PlannedCell c, string reason,
        string flag = CellFlags.NotMeasured) =>
        new(Key(plan, c), RuntimeOf(plan), c.Payload.Spec.Label, _options.KeepAlive, Array.Empty<Measurement>(), null, null, null, 0, 0,
            new[] { flag }, reason);

    private static string RuntimeOf(TargetPlan plan) => plan.Definition?.Runtime ?? "external";

    private static TargetInfo Info(TargetPlan plan, string? baseUrl, string? notMeasured) => plan.Definition is TargetDefinition d
        ? new TargetInfo(plan.Name, d.Stack, d.Runtime, d.Server, baseUrl, false, notMeasured is null, notMeasured)
        : new TargetInfo(plan.Name, $"external service at {baseUrl}" + (plan.ExternalPid is int pid ? $" (process {pid}: its CPU and memory are read)" : ""),
            "unknown", "unknown", baseUrl, true, notMeasured is null, notMeasured);

    private string Outcome(IReadOnlyList<Measurement> repeats, int concurrency, double? rate = null)
    {
        var s = CellMeasurer.MedianRepeat(repeats);
        var cv = Spread.CoefficientOfVariation(repeats.Select(r => r.RequestsPerSecond).ToList());
        var spread = repeats.Count > 1 ? string.Create(CultureInfo.InvariantCulture, $" (cv {100 * cv:0.0}% over {repeats.Count})") : "";
        var text = rate is double asked
            ? string.Create(CultureInfo.InvariantCulture, $"{s.RequestsPerSecond:0} of {asked:0} req/s asked, p50 {s.LatencyP50Ms:0.00} p99 {s.LatencyP99Ms:0.00} ms from the intended send, {s.LateRequests} late, {s.DroppedRequests} dropped")
            : string.Create(CultureInfo.InvariantCulture, $"{s.RequestsPerSecond:0} req/s{spread}, p99 {s.LatencyP99Ms:0.0} ms");
        var flags = CellFlags.For(repeats, concurrency, Environment.ProcessorCount, _options.Repeats.Precision, rate);
        return flags.Count > 0 ? text + " [" + string.Join(", ", flags) + "]" : text;
    }

    private RunSpec Spec() => new(
        _options.Targets.Select(t => t.Name).ToList(),
        _options.Scenario is Scenario scenario ? scenario.Operations.Select(o => o.Name).Distinct().ToList() : _options.Endpoints.Select(e => e.Name).ToList(),
        _options.Scenario is Scenario sized
            ? PlannedCells().Where(c => c.HasSize).Select(c => c.Payload.Spec).DistinctBy(p => (p.Label, p.Bytes)).ToList()
            : _options.Sizes.Select(s => s.Spec).ToList(),
        _options.Concurrency,
        _options.KeepAlive,
        _options.Warmup.TotalSeconds,
        _options.Duration.TotalSeconds,
        _options.Repeat,
        _options.JsonItems,
        _options.BaselineTarget,
        _drivers.Select(d => new DriverInfo(d.Name, d.Description)).ToList(),
        _options.Pin?.ToString(),
        MachineDescription.Current(),
        _options.ServerHeader,
        RunSpec.Interleaved,
        _options.Repeats.Precision * 100,
        _options.Repeats.MaxRepeat,
        _options.ColdWarmup.TotalSeconds,
        _options.Lead.Design is null ? _options.Launches : _launchesRun,
        _options.Lead.Confidence,
        _options.Lead.MinEffect * 100,
        _options.TcpNoDelay,
        _options.Scenario is Scenario file ? ScenarioSpecOf(file) : null,
        _drivers.Any(d => d.HoldsRate) ? _options.RatePasses.Select(r => r.Describe()).ToList() : null)
    {
        EquivalencePercent = _options.Lead.Equivalence * 100,
        Cores = _options.Allotments.Select(a => a.ToSpec()).ToList(),
        Sequential = _options.Lead.Design is SequentialDesign d
            ? new SequentialSpec(d.FirstLook, d.MaxLaunches, _options.BudgetSeconds, Math.Round(_loadSeconds, 1), _launchesRun, _stopped, _looks.ToList())
            : null,
    };

    private ScenarioSpec ScenarioSpecOf(Scenario scenario) => new(scenario.File, scenario.Operations.Select(o => new OperationSpec(o.Name, o.Size?.Label,
        _options.Targets.Select(t => (t.Name, Request: Scenario.RequestFor(o, t.Name)!)).Select(t => new OperationRequestSpec(t.Name, t.Request.Method, t.Request.PathAndQuery,
            t.Request.Headers.Select(h => $"{h.Key}: {h.Value}").ToList(), t.Request.BodyFile, t.Request.Body?.LongLength, Scenario.ExpectFor(o, t.Name).Describe())).ToList())).ToList());
}
