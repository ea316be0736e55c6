using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Scenarios;
using Comparator.Targets;
using Comparator.Verification;

namespace Comparator.Running;

/// <summary>
/// What every part of a run shares: the groups of what was asked that a launch reads, the plan, the record of what was measured,
/// where progress goes, and how targets are started and their endpoints checked (<see cref="TargetLauncher"/> and, when
/// <c>Check</c> is null, <see cref="EndpointVerifier"/>).
/// </summary>
/// <param name="OutputDirectory">the run directory, where command targets' output is kept; null where the run has none (tests)</param>
public sealed record RunContext(TargetSet Targets, CellGrid Cells, WindowSettings Window, JudgingPlan Judging, RunPlan Plan, RunRecord Record,
    ITargetLauncher Launcher, IRunProgress Progress, EndpointCheck? Check = null, string? OutputDirectory = null)
{
    /// <summary>
    /// Whether a .NET target's runtime is read through EventPipe (its counters and GC events). The simulated pass reads none: the runtime's
    /// own work for the session (a sample a second, an event per 100 KB allocated, the buffers flushed to the comparator's socket) ran on
    /// a thread of its own and was counted as the service's, some 1.1M instructions a second of wall clock, more a request the slower the
    /// simulated process served (kestrel at echo-put 500 B: 64k a request at 774 a window, 74.5k at 211).
    /// </summary>
    public bool ReadsRuntimes { get; init; } = true;

    /// <summary>Whether this run places the targets and the driver itself (--server-cores); --pin is placed once by the command.</summary>
    public bool Placing => Cells.ServerCores is not null;
}

/// <summary>A target that started (or was given by URL) and passed verification; a started .NET target has its counter session.</summary>
/// <param name="CpuCounters">the CPU's counters of its process: opened at its start by the launcher, or attached to a service given by URL; null where not counted</param>
/// <param name="OwnsCpuCounters">whether this launch attached <paramref name="CpuCounters"/> (and closes them), rather than the launcher</param>
public sealed record ActiveTarget(TargetPlan Plan, IStartedTarget? Running, Uri BaseUrl, RuntimeCounterSession? RuntimeCounters = null, CpuCounters? CpuCounters = null,
    bool OwnsCpuCounters = false);

/// <summary>
/// One launch under one allotment of cores: every target started afresh and verified (a failure is recorded
/// with its reason and the launch goes on without it), the scenario's operations verified once all are up,
/// the pending cells measured (<see cref="LaunchMeasurement"/>), and every target stopped on disposal.
/// </summary>
public sealed class LaunchSession : IAsyncDisposable
{
    private readonly RunContext _run;
    private readonly int _launch;
    private readonly bool _first;
    private readonly CoreAllotment _allotment;
    private readonly List<ActiveTarget> _active = new();

    /// <param name="first">the run's first start of its targets: it records them and their checks</param>
    /// <param name="refusesCommands">a command target that does not start is kept in <see cref="CommandStartFailures"/> for the run to refuse, not recorded</param>
    public LaunchSession(RunContext run, int launch, bool first, CoreAllotment allotment, bool refusesCommands = false)
    {
        (_run, _launch, _first, _allotment, _refusesCommands) = (run, launch, first, allotment, refusesCommands);
    }

    private readonly bool _refusesCommands;

    public IReadOnlyList<ActiveTarget> Active => _active;

    /// <summary>Why each command target that did not start did not, in a session that refuses them (the run's first: <see cref="RunOrchestrator"/>).</summary>
    public IReadOnlyList<string> CommandStartFailures => _commandStartFailures;
    private readonly List<string> _commandStartFailures = new();

    /// <summary>The answers of the scenario's verification in this launch, the references of its same-as rules under load; null without a scenario.</summary>
    public IReadOnlyList<ScenarioAnswer>? Answers { get; private set; }

    /// <summary>Starts and verifies every target in the given order; a target that failed its first start is not started again.</summary>
    public async Task StartAsync(IEnumerable<TargetPlan> order, CancellationToken cancellationToken)
    {
        foreach (var plan in order)
        {
            if (cancellationToken.IsCancellationRequested) break;
            if (!_first && _run.Record.NotMeasured(plan.Name)) continue;
            if (_run.Judging.Launches > 1) _run.Progress.Message($"launch {_launch + 1}{(_run.Judging.Rule.Design is null ? $" of {_run.Judging.Launches}" : "")}: {plan.Name}");
            if (await StartAndVerifyAsync(plan, cancellationToken) is ActiveTarget ready) _active.Add(ready);
        }
        // A scenario's rules compare targets (same-as), so its operations are verified once all are up.
        if (_run.Cells.Scenario is Scenario scenario && !cancellationToken.IsCancellationRequested)
            Answers = await VerifyScenarioAsync(scenario, cancellationToken);
    }

    /// <summary>Why a target is not measured in this launch: on the first, its record says so; on a later one, the launch is noted.</summary>
    private void Failed(TargetPlan plan, string reason, string? baseUrl = null, string? tcpNoDelay = null)
    {
        _run.Progress.Message($"{plan.Name}: {(_first ? "not measured" : $"launch {_launch + 1} not measured")}: {reason}");
        if (_first) _run.Record.Target(Info(plan, baseUrl, reason) with { TcpNoDelay = tcpNoDelay });
        else _run.Record.LaunchFailure(plan.Name, $"launch {_launch + 1}: {reason}");
    }

    /// <summary>
    /// Every launch of a started target is verified (a fresh process may not answer alike); the results keep the
    /// first launch's checks, and the first launch of a service given by URL. A scenario's own operations are
    /// verified once every target is up (<see cref="VerifyScenarioAsync"/>), not the contract's.
    /// </summary>
    private async Task<ActiveTarget?> StartAndVerifyAsync(TargetPlan plan, CancellationToken cancellationToken)
    {
        var targets = _run.Targets;
        var started = await TargetCheck.StartAndVerifyAsync(_run.Launcher, plan.Name, plan.Definition, plan.ExternalUrl,
            new ServiceSwitches(targets.ServerHeader, TcpNoDelay: targets.TcpNoDelay), verify: _run.Cells.Scenario is null && (_first || plan.ExternalUrl is null),
            _run.Placing ? _allotment.ServerCpus : null, _run.Progress.Message, cancellationToken, targets.Insecure, _run.Check);
        if (started.LaunchError is string error)
        {
            if (_refusesCommands && plan.Definition?.Command is not null) _commandStartFailures.Add(error); // the run's one line says it
            else Failed(plan, error);
            return null;
        }
        var (running, baseUrl) = (started.Running, started.BaseUrl!);
        if (!_first && running is null)
        {
            var attached = CpuCounting.AttachExternal(plan.ExternalPid, _run.Window.CpuCounting.Set).CpuCounters;
            return new ActiveTarget(plan, running, baseUrl, CpuCounters: attached, OwnsCpuCounters: attached is not null);
        }
        if (_first && started.Checks.Count > 0) _run.Record.AddChecks(started.Checks);
        if (started.Failure is string reason)
        {
            Failed(plan, reason, baseUrl.ToString().TrimEnd('/'), running?.TcpNoDelay);
            await started.DisposeAsync();
            return null;
        }
        // Off this flow's thread: the diagnostics client blocks on its own socket's answer, and this flow may be running inline on the
        // sockets' epoll thread (the comparator's inline completions), which that answer needs: seen as a run that hung for good.
        var (runtimeCounters, runtimeNote) = _run.ReadsRuntimes ? await Task.Run(() => TargetRuntimeCounters.For(plan, running), cancellationToken)
            : (null, TargetRuntimeCounters.NotUnderSimulation);
        var set = _run.Window.CpuCounting.Set;
        var (cpu, cpuNote) = running is not null
            ? (running.CpuCounters, set is null ? null : running.CpuCountersNote ?? "not counted: the launcher opened no counters on it")
            : CpuCounting.AttachExternal(plan.ExternalPid, set);
        if (set is null) cpuNote = null; // the run's one line says why nothing is counted
        if (_first) _run.Record.Target(Info(plan, baseUrl.ToString().TrimEnd('/'), null) with { TcpNoDelay = running?.TcpNoDelay, RuntimeCounters = runtimeNote, CpuCounters = cpuNote });
        return new ActiveTarget(plan, running, baseUrl, runtimeCounters, cpu, OwnsCpuCounters: running is null && cpu is not null);
    }

    /// <summary>
    /// Every operation once per started target, checked by the file's rules (as `verify --scenario`);
    /// a target with a wrong answer is not measured in this launch, and the first launch's answers are
    /// the run's verification.
    /// </summary>
    private async Task<IReadOnlyList<ScenarioAnswer>> VerifyScenarioAsync(Scenario scenario, CancellationToken cancellationToken)
    {
        var answers = await ScenarioVerifier.VerifyAsync(scenario, _active.Select(t => (t.Plan.Name, t.BaseUrl)).ToList(), cancellationToken, _run.Targets.Insecure);
        if (_first) _run.Record.AddChecks(TargetCheck.ChecksOf(answers));
        foreach (var target in _active.ToList())
        {
            if (TargetCheck.ScenarioFailure(answers, target.Plan.Name) is not string reason) continue;
            if (_first)
            {
                _run.Progress.Message($"{target.Plan.Name}: not measured: {reason}");
                _run.Record.Target(_run.Record.Targets.First(t => t.Name == target.Plan.Name) with { Measured = false, NotMeasuredReason = reason });
            }
            else Failed(target.Plan, reason);
            _active.Remove(target);
            await StopAsync(target);
        }
        return answers;
    }

    /// <summary>
    /// The request a target is asked under load in a cell: the contract's endpoint at the cell's size, or a scenario's
    /// operation checked by its rule (same-as and same-fields compare each answer with the reference target's answer in this
    /// launch's verification).
    /// </summary>
    public LoadRequest RequestFor(PlannedCell cell, ActiveTarget target) => RequestOf(cell, target) with { Insecure = _run.Targets.Insecure };

    private LoadRequest RequestOf(PlannedCell cell, ActiveTarget target)
    {
        if (cell.Operation is not Operation operation)
            return LoadRequest.For(cell.Contract!, target.BaseUrl, cell.Payload.Bytes, _run.Cells.JsonItems);
        ScenarioAnswer? Answer(string name) => Answers!.FirstOrDefault(a => a.Operation == operation.Label && a.Target == name);
        var reference = Scenario.ExpectFor(operation, target.Plan.Name).Body?.Reference is string other ? Answer(other)?.Body : null;
        return LoadRequest.For(operation, target.Plan.Name, target.BaseUrl, reference, Answer(target.Plan.Name)?.Chunked == true);
    }

    private async Task StopAsync(ActiveTarget target)
    {
        if (target.OwnsCpuCounters) target.CpuCounters?.Dispose();
        if (target.RuntimeCounters is not null) await target.RuntimeCounters.DisposeAsync();
        if (target.Running is not null) await target.Running.DisposeAsync();
        KeepOutput(target);
    }

    /// <summary>A command target's output, the tail of each stream, in the run directory: output/NAME.launch-K.txt.</summary>
    private void KeepOutput(ActiveTarget target)
    {
        if (_run.OutputDirectory is not string directory || target.Running is not RunningTarget { } running || running.KeptOutput() is not string text) return;
        var place = _run.Placing ? "." + _allotment.Label.Replace(' ', '-') : "";
        try
        {
            Directory.CreateDirectory(Path.Combine(directory, OutputFolder));
            File.WriteAllText(Path.Combine(directory, OutputFolder, $"{target.Plan.Name}.launch-{_launch + 1}{place}.txt"), text);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            _run.Progress.Message($"{target.Plan.Name}: its output not kept: {e.Message}");
        }
    }

    /// <summary>The run directory's folder of command targets' output, a file per target and launch.</summary>
    public const string OutputFolder = "output";

    public async ValueTask DisposeAsync()
    {
        foreach (var target in _active) await StopAsync(target);
    }

    private TargetInfo Info(TargetPlan plan, string? baseUrl, string? notMeasured) => Described(plan, baseUrl, notMeasured) with { Revision = _run.Targets.RevisionOf(plan.Name) };

    private static TargetInfo Described(TargetPlan plan, string? baseUrl, string? notMeasured) => (plan.Definition is TargetDefinition d
        ? new TargetInfo(plan.Name, d.Stack, d.Runtime, d.Server, baseUrl, false, notMeasured is null, notMeasured)
        : new TargetInfo(plan.Name, $"external service at {baseUrl}" + (plan.ExternalPid is int pid ? $" (process {pid}: its CPU and memory are read)" : ""),
            "unknown", "unknown", baseUrl, true, notMeasured is null, notMeasured)) with { Tls = plan.Tls };
}
