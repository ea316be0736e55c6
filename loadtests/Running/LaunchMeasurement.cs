using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Running;

/// <summary>How far the run has got in cells measured on a target, of how many, and the load seconds each takes: for progress.</summary>
public sealed class CellCount
{
    public int Done { get; set; }
    public int Total { get; set; }
    public double SecondsPerCell { get; init; }
}

/// <summary>
/// One launch's measurements: every pending cell on every active target in turn
/// (<see cref="CellMeasurer.MeasureInterleavedAsync"/>), each window recorded as soon as its cell is measured,
/// and why a target could not be measured in a cell (its process exited, the driver cannot send its request).
/// </summary>
public static class LaunchMeasurement
{
    public static async Task MeasureAsync(RunContext run, LaunchSession session, int launch, IReadOnlySet<CellPlan> pending, CellCount count,
        CancellationToken cancellationToken)
    {
        var record = run.Record;
        var cold = true;
        var exited = new HashSet<string>();
        // Its cells keep the other launches' windows; the verdict names the launch it missed, once, with how its process ended.
        void Exited(ActiveTarget target)
        {
            if (!exited.Add(target.Plan.Name)) return;
            var how = target.Running?.ExitNote is string note ? $" ({note})" : "";
            record.LaunchFailure(target.Plan.Name, $"launch {launch + 1}: the process exited during the launch{how}");
            run.Progress.Message($"{target.Plan.Name}: launch {launch + 1}: the process exited during the launch{how}");
        }
        foreach (var planned in run.Plan.Cells.Where(c => pending.Contains(c.Plan)))
        {
            var active = session.Active;
            if (cancellationToken.IsCancellationRequested || active.Count == 0) break;
            var (concurrency, driver) = (planned.Plan.Key.Concurrency, planned.Driver);
            var rate = record.RateOf(planned.Plan);
            var label = planned.Label + (rate is double asked ? string.Create(CultureInfo.InvariantCulture, $" @{asked:0}/s") : "");
            if (planned.Plan.Rate is not null && rate is null)
            {
                foreach (var target in active)
                    record.Missed(record.Key(target.Plan.Name, planned.Plan),
                        $"{planned.Plan.Rate.Describe()}: the closed-loop cell measured no capacity on every target in the first launch", CellFlags.NotMeasured);
                count.Done += active.Count;
                continue;
            }
            var participants = new List<(ActiveTarget Target, LoadRequest Request)>();
            foreach (var target in active)
            {
                var request = session.RequestFor(planned, target);
                var key = record.Key(target.Plan.Name, planned.Plan);
                if (driver.CannotMeasure(request, run.Window.KeepAlive) is string cannot)
                    record.Missed(key, $"{driver.Name}: {cannot}", CellFlags.NotApplicable);
                else if (target.Running is { HasExited: true })
                {
                    record.Missed(key, "the target process exited during the run" + (target.Running.ExitNote is string note ? $" ({note})" : ""), CellFlags.NotMeasured);
                    Exited(target);
                }
                else
                    participants.Add((target, request));
            }
            count.Done += active.Count;
            if (participants.Count == 0) continue;

            var launchText = run.Judging.Launches > 1 ? $" launch {launch + 1}" + (run.Judging.Rule.Design is null ? $"/{run.Judging.Launches}" : "") : "";
            run.Progress.CellStarted(count.Done, count.Total, $"{label}{launchText} ({string.Join(", ", participants.Select(p => p.Target.Plan.Name))})",
                (count.Total - count.Done + participants.Count) * count.SecondsPerCell);
            var names = participants.Select(p => p.Target.Plan.Name).ToList();
            var measurer = new CellMeasurer(driver, run.Window);
            var repeats = await measurer.MeasureInterleavedAsync(
                participants.Select(p => new CellParticipant(p.Request, p.Target.Running?.ProcessId ?? p.Target.Plan.ExternalPid, p.Target.CpuCounters, p.Target.RuntimeCounters)).ToList(), concurrency, cancellationToken, cold,
                // A round's CV within the launch only means something when the launch has several rounds.
                run.Window.Rounds.MaxRepeat < 2 ? null : rounds => run.Progress.RoundFinished(label, rounds[0].Count, string.Join(", ", rounds.Select((r, i) =>
                    string.Create(CultureInfo.InvariantCulture, $"{names[i]} cv {100 * Spread.CoefficientOfVariation(r.Select(m => m.RequestsPerSecond).ToList()):0.0}%")))), rate);
            cold = false;
            record.UnplannedLoad(measurer.SteadyLoadSeconds, participants.Count);
            for (var i = 0; i < participants.Count; i++)
            {
                var key = record.Key(participants[i].Target.Plan.Name, planned.Plan);
                var counted = await TargetRuntimeCounters.WithRuntimeCountersAsync(participants[i].Target.RuntimeCounters, repeats[i], cancellationToken);
                var tagged = counted.Select((m, round) => m with { Launch = launch, Round = round, ProcessId = participants[i].Target.Running?.ProcessId }).ToList();
                foreach (var window in tagged) record.Window(key, window);
                run.Progress.CellFinished($"{participants[i].Target.Plan.Name} {label}{launchText}",
                    tagged.Count == 0 ? "not measured: " + RunAssembly.NoRepeat : Outcome(tagged, concurrency, run.Window.Rounds.Precision, rate));
            }
            foreach (var (target, _) in participants.Where(p => p.Target.Running is { HasExited: true })) Exited(target);
            // The first launch's closed-loop capacity sets every launch's share-of-capacity rates, so the cell's rate stays one.
            if (planned.Plan.Rate is null && launch == 0 && participants.Count == active.Count && repeats.All(r => r.Count > 0 && r.All(m => m.Failed == 0)))
                record.Capacity(planned.Plan.Key, repeats.Min(r => CellMeasurer.MedianRepeat(r).RequestsPerSecond));
        }
    }

    private static string Outcome(IReadOnlyList<Measurement> repeats, int concurrency, double precision, double? rate = null)
    {
        var s = CellMeasurer.MedianRepeat(repeats);
        var cv = Spread.CoefficientOfVariation(repeats.Select(r => r.RequestsPerSecond).ToList());
        var spread = repeats.Count > 1 ? string.Create(CultureInfo.InvariantCulture, $" (cv {100 * cv:0.0}% over {repeats.Count})") : "";
        var text = rate is double asked
            ? string.Create(CultureInfo.InvariantCulture, $"{s.RequestsPerSecond:0} of {asked:0} req/s asked, p50 {s.LatencyP50Ms:0.00} p99 {s.LatencyP99Ms:0.00} ms from the intended send, {s.LateRequests} late, {s.DroppedRequests} dropped")
            : string.Create(CultureInfo.InvariantCulture, $"{s.RequestsPerSecond:0} req/s{spread}, p99 {s.LatencyP99Ms:0.0} ms");
        var flags = CellFlags.For(repeats, concurrency, Environment.ProcessorCount, precision, rate);
        return flags.Count > 0 ? text + " [" + string.Join(", ", flags) + "]" : text;
    }
}
