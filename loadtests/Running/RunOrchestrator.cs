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
/// The run: for each target, start it (or use the running one), verify every endpoint, measure
/// every cell, stop it. A target that fails to start or verify is recorded with the reason and
/// not measured; a target that dies mid-run has its remaining cells recorded as not measured.
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
        var total = _options.CellCount;
        var done = 0;

        foreach (var missing in _options.Unavailable)
        {
            _progress.Message($"{missing.Name}: not measured: {missing.UnavailableReason}");
            targets.Add(new TargetInfo(missing.Name, missing.Stack, missing.Runtime, missing.Server, null, false, false, missing.UnavailableReason));
        }

        foreach (var plan in _options.Targets)
        {
            if (cancellationToken.IsCancellationRequested) break;
            var def = plan.Definition;
            RunningTarget? running = null;
            try
            {
                Uri baseUrl;
                if (plan.ExternalUrl is Uri external) baseUrl = external;
                else
                {
                    _progress.Message($"{plan.Name}: starting {def!.Describe()}");
                    running = await _launcher.StartAsync(def, new ServiceSwitches(_options.ServerHeader), cancellationToken);
                    baseUrl = running.BaseUrl;
                }

                var verification = await EndpointVerifier.VerifyAsync(plan.Name, baseUrl, cancellationToken);
                checks.AddRange(verification);
                var failedChecks = verification.Where(c => !c.Passed).Select(c => $"{c.Endpoint}: {c.Detail}").ToList();
                var reason = failedChecks.Count > 0 ? "verification failed: " + string.Join("; ", failedChecks) : null;
                targets.Add(Info(plan, baseUrl.ToString().TrimEnd('/'), reason));
                if (reason is not null)
                {
                    _progress.Message($"{plan.Name}: not measured: {reason}");
                    cells.AddRange(PlannedCells(plan).Select(c => NotMeasured(plan, c, reason)));
                    done += PlannedCells(plan).Count();
                    continue;
                }

                foreach (var (endpoint, payload, concurrency, driver) in PlannedCells(plan))
                {
                    if (cancellationToken.IsCancellationRequested) break;
                    done++;
                    var planned = (endpoint, payload, concurrency, driver);
                    var label = $"{plan.Name} {endpoint.Name}{(endpoint.SendsBody ? " " + payload.Spec.Label : "")} c={concurrency} {driver.Name}";
                    var request = LoadRequest.For(endpoint, baseUrl, payload.Bytes, _options.JsonItems);
                    if (driver.CannotMeasure(request, _options.KeepAlive) is string cannot)
                    {
                        cells.Add(NotMeasured(plan, planned, $"{driver.Name}: {cannot}", CellFlags.NotApplicable));
                        continue;
                    }
                    if (running is { HasExited: true })
                    {
                        cells.Add(NotMeasured(plan, planned, "the target process exited during the run"));
                        continue;
                    }
                    var secondsLeft = (total - done + 1) * (_options.Warmup.TotalSeconds + _options.Repeat * _options.Duration.TotalSeconds);
                    _progress.CellStarted(done, total, label, secondsLeft);
                    var repeats = await new CellMeasurer(driver, _options).MeasureAsync(request, concurrency, running?.ProcessId, cancellationToken);
                    var cell = Measured(plan, planned, repeats);
                    cells.Add(cell);
                    _progress.CellFinished(label, Outcome(cell));
                }
            }
            catch (LaunchException e)
            {
                _progress.Message($"{plan.Name}: not measured: {e.Message}");
                targets.Add(Info(plan, null, e.Message));
                cells.AddRange(PlannedCells(plan).Select(c => NotMeasured(plan, c, e.Message)));
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // Stopped by the user: what was measured so far is kept and the run is marked partial.
            }
            finally
            {
                if (running is not null) await running.DisposeAsync();
            }
        }

        return new RunResult(RunResult.CurrentSchemaVersion, Spec(), started, DateTimeOffset.UtcNow,
            Partial: cancellationToken.IsCancellationRequested, targets, checks, DriverAgreement.Flag(cells));
    }

    private IEnumerable<(EndpointSpec Endpoint, Payload Payload, int Concurrency, ILoadDriver Driver)> PlannedCells(TargetPlan plan)
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
            repeats.Sum(r => r.Failed), repeats.Sum(r => r.Non2xx), CellFlags.For(repeats, Environment.ProcessorCount), null);
    }

    private CellResult NotMeasured(TargetPlan plan, (EndpointSpec Endpoint, Payload Payload, int Concurrency, ILoadDriver Driver) c, string reason,
        string flag = CellFlags.NotMeasured) =>
        new(Key(plan, c), RuntimeOf(plan), c.Payload.Spec.Label, _options.KeepAlive, Array.Empty<Measurement>(), null, null, null, 0, 0,
            new[] { flag }, reason);

    private static string RuntimeOf(TargetPlan plan) => plan.Definition?.Runtime ?? "external";

    private static TargetInfo Info(TargetPlan plan, string? baseUrl, string? notMeasured) => plan.Definition is TargetDefinition d
        ? new TargetInfo(plan.Name, d.Stack, d.Runtime, d.Server, baseUrl, false, notMeasured is null, notMeasured)
        : new TargetInfo(plan.Name, "external service", "unknown", "unknown", baseUrl, true, notMeasured is null, notMeasured);

    private static string Outcome(CellResult cell)
    {
        if (cell.Summary is not { } s) return "not measured: " + cell.NotMeasuredReason;
        var text = string.Create(CultureInfo.InvariantCulture, $"{s.RequestsPerSecond:0} req/s, p99 {s.LatencyP99Ms:0.0} ms");
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
        _options.ServerHeader);
}
