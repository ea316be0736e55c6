using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Targets;
using Comparator.Verification;

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
        var cells = new List<CellResult>();
        var active = new List<ActiveTarget>();

        foreach (var missing in _options.Unavailable)
        {
            _progress.Message($"{missing.Name}: not measured: {missing.UnavailableReason}");
            targets.Add(new TargetInfo(missing.Name, missing.Stack, missing.Runtime, missing.Server, null, false, false, missing.UnavailableReason));
        }

        try
        {
            // Every target up and verified first, so each cell can measure them all in turn.
            foreach (var plan in _options.Targets)
            {
                if (cancellationToken.IsCancellationRequested) break;
                var ready = await StartAndVerifyAsync(plan, targets, checks, cancellationToken);
                if (ready is not null) active.Add(ready);
                else cells.AddRange(PlannedCells().Select(c => NotMeasured(plan, c, targets[^1].NotMeasuredReason!)));
            }

            var total = _options.CellCount;
            var done = cells.Count;
            var perCell = _options.Warmup.TotalSeconds + _options.Repeat * _options.Duration.TotalSeconds;
            var cold = true;
            foreach (var planned in PlannedCells())
            {
                if (cancellationToken.IsCancellationRequested || active.Count == 0) break;
                var (endpoint, payload, concurrency, driver) = planned;
                var label = $"{endpoint.Name}{(endpoint.SendsBody ? " " + payload.Spec.Label : "")} c={concurrency} {driver.Name}";
                var participants = new List<(ActiveTarget Target, LoadRequest Request)>();
                foreach (var target in active)
                {
                    var request = LoadRequest.For(endpoint, target.BaseUrl, payload.Bytes, _options.JsonItems);
                    if (driver.CannotMeasure(request, _options.KeepAlive) is string cannot)
                        cells.Add(NotMeasured(target.Plan, planned, $"{driver.Name}: {cannot}", CellFlags.NotApplicable));
                    else if (target.Running is { HasExited: true })
                        cells.Add(NotMeasured(target.Plan, planned, "the target process exited during the run"));
                    else
                        participants.Add((target, request));
                }
                done += active.Count;
                if (participants.Count == 0) continue;

                _progress.CellStarted(done, total, $"{label} ({string.Join(", ", participants.Select(p => p.Target.Plan.Name))})",
                    (total - done + participants.Count) * perCell);
                var names = participants.Select(p => p.Target.Plan.Name).ToList();
                var repeats = await new CellMeasurer(driver, _options).MeasureInterleavedAsync(
                    participants.Select(p => (p.Request, p.Target.Running?.ProcessId)).ToList(), concurrency, cancellationToken, cold,
                    rounds => _progress.RoundFinished(label, rounds[0].Count, string.Join(", ", rounds.Select((r, i) =>
                        string.Create(CultureInfo.InvariantCulture, $"{names[i]} cv {100 * Statistics.CoefficientOfVariation(r.Select(m => m.RequestsPerSecond).ToList()):0.0}%")))));
                cold = false;
                for (var i = 0; i < participants.Count; i++)
                {
                    var cell = Measured(participants[i].Target.Plan, planned, repeats[i]);
                    cells.Add(cell);
                    _progress.CellFinished($"{participants[i].Target.Plan.Name} {label}", Outcome(cell));
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Stopped by the user: what was measured so far is kept and the run is marked partial.
        }
        finally
        {
            foreach (var target in active)
                if (target.Running is not null) await target.Running.DisposeAsync();
        }

        return new RunResult(RunResult.CurrentSchemaVersion, Spec(), started, DateTimeOffset.UtcNow,
            Partial: cancellationToken.IsCancellationRequested, targets, checks, DriverAgreement.Flag(cells));
    }

    /// <summary>A target that started (or was given by URL) and passed verification.</summary>
    private sealed record ActiveTarget(TargetPlan Plan, RunningTarget? Running, Uri BaseUrl);

    /// <summary>Starts and verifies one target; on failure records why (the last TargetInfo) and returns null.</summary>
    private async Task<ActiveTarget?> StartAndVerifyAsync(TargetPlan plan, List<TargetInfo> targets, List<Check> checks, CancellationToken cancellationToken)
    {
        RunningTarget? running = null;
        try
        {
            Uri baseUrl;
            if (plan.ExternalUrl is Uri external) baseUrl = external;
            else
            {
                _progress.Message($"{plan.Name}: starting {plan.Definition!.Describe()}");
                running = await _launcher.StartAsync(plan.Definition, new ServiceSwitches(_options.ServerHeader), cancellationToken);
                baseUrl = running.BaseUrl;
            }

            var verification = await EndpointVerifier.VerifyAsync(plan.Name, baseUrl, cancellationToken);
            checks.AddRange(verification);
            var failedChecks = verification.Where(c => !c.Passed).Select(c => $"{c.Endpoint}: {c.Detail}").ToList();
            var reason = failedChecks.Count > 0 ? "verification failed: " + string.Join("; ", failedChecks) : null;
            targets.Add(Info(plan, baseUrl.ToString().TrimEnd('/'), reason));
            if (reason is null) return new ActiveTarget(plan, running, baseUrl);
            _progress.Message($"{plan.Name}: not measured: {reason}");
        }
        catch (LaunchException e)
        {
            _progress.Message($"{plan.Name}: not measured: {e.Message}");
            targets.Add(Info(plan, null, e.Message));
        }
        if (running is not null) await running.DisposeAsync();
        return null;
    }

    private IEnumerable<(EndpointSpec Endpoint, Payload Payload, int Concurrency, ILoadDriver Driver)> PlannedCells()
    {
        var none = new Payload(new PayloadSpec("-", 0, "none"), Array.Empty<byte>());
        foreach (var endpoint in _options.Endpoints)
        foreach (var payload in endpoint.SendsBody ? _options.Sizes : new[] { none })
        foreach (var concurrency in _options.Concurrency)
        foreach (var driver in _drivers)
            yield return (endpoint, payload, concurrency, driver);
    }

    private static CellKey Key(TargetPlan plan, (EndpointSpec Endpoint, Payload Payload, int Concurrency, ILoadDriver Driver) c) =>
        new(plan.Name, c.Endpoint.Name, c.Payload.Spec.Bytes, c.Concurrency, c.Driver.Name);

    private CellResult Measured(TargetPlan plan, (EndpointSpec Endpoint, Payload Payload, int Concurrency, ILoadDriver Driver) c, IReadOnlyList<Measurement> repeats)
    {
        if (repeats.Count == 0) return NotMeasured(plan, c, "stopped before a repeat completed");
        return new CellResult(Key(plan, c), RuntimeOf(plan), c.Payload.Spec.Label, _options.KeepAlive, repeats,
            CellMeasurer.MedianRepeat(repeats), repeats.Min(r => r.RequestsPerSecond), repeats.Max(r => r.RequestsPerSecond),
            repeats.Sum(r => r.Failed), repeats.Sum(r => r.Non2xx), CellFlags.For(repeats, Environment.ProcessorCount, _options.Repeats.Precision), null,
            Statistics.CoefficientOfVariation(repeats.Select(r => r.RequestsPerSecond).ToList()));
    }

    private CellResult NotMeasured(TargetPlan plan, (EndpointSpec Endpoint, Payload Payload, int Concurrency, ILoadDriver Driver) c, string reason,
        string flag = CellFlags.NotMeasured) =>
        new(Key(plan, c), RuntimeOf(plan), c.Payload.Spec.Label, _options.KeepAlive, Array.Empty<Measurement>(), null, null, null, 0, 0,
            new[] { flag }, reason);

    private static string RuntimeOf(TargetPlan plan) => plan.Definition?.Runtime ?? "external";

    private static TargetInfo Info(TargetPlan plan, string? baseUrl, string? notMeasured) => plan.Definition is TargetDefinition d
        ? new TargetInfo(plan.Name, d.Stack, d.Runtime, d.Server, baseUrl, false, notMeasured is null, notMeasured)
        : new TargetInfo(plan.Name, $"external service at {baseUrl}", "unknown", "unknown", baseUrl, true, notMeasured is null, notMeasured);

    private static string Outcome(CellResult cell)
    {
        if (cell.Summary is not { } s) return "not measured: " + cell.NotMeasuredReason;
        var text = string.Create(CultureInfo.InvariantCulture, $"{s.RequestsPerSecond:0} req/s (cv {100 * (cell.RpsCv ?? 0):0.0}% over {cell.Repeats.Count}), p99 {s.LatencyP99Ms:0.0} ms");
        return cell.Flags.Count > 0 ? text + " [" + string.Join(", ", cell.Flags) + "]" : text;
    }

    private RunSpec Spec() => new(
        _options.Targets.Select(t => t.Name).ToList(),
        _options.Endpoints.Select(e => e.Name).ToList(),
        _options.Sizes.Select(s => s.Spec).ToList(),
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
        _options.ColdWarmup.TotalSeconds);
}
