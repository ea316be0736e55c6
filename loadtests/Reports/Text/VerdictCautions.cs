using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Reports.Text;

/// <summary>What the numbers of a verdict cannot say: the flags that limit a figure, cells of one launch, services asked differently,
/// missed launches, targets not measured, and runtime or server differences with whether <see cref="Attribution"/> can split them off.</summary>
public static partial class Verdict
{
    private static IEnumerable<string> Cautions(RunResult run, IReadOnlyList<CellResult> cells, string baseline, IReadOnlyList<string> others)
    {
        var pairTargets = new[] { baseline }.Concat(others).ToList();
        foreach (var flag in Limits)
        {
            var meaning = CellFlags.Meaning(flag, run.Spec.PrecisionPercent)!.Meaning;
            var flagged = pairTargets.Select(t => (t, where: string.Join("; ", cells.Where(c => c.Key.Target == t && c.Flags.Contains(flag))
                    .GroupBy(c => c.Key.Endpoint).Select(g => g.Key + (cells.HasSizes(g.Key) ? " " + string.Join(", ", g.OrderBy(c => c.Key.SizeBytes).Select(c => c.SizeLabel).Distinct()) : "")))))
                .Where(x => x.where.Length > 0).ToList();
            if (flagged.Count > 0) yield return $"{flag} ({meaning}): " + string.Join(" | ", flagged.Select(f => $"{f.t}: {f.where}"));
        }
        var single = cells.Count(c => pairTargets.Contains(c.Key.Target) && c.Summary is not null && LeadRule.UnitKeys(c.Repeats).Select(k => k.Launch).Distinct().Count() < 2);
        if (single > 0)
            yield return $"one launch only in {single.ToString(CultureInfo.InvariantCulture)} cell(s): the process-to-process noise is unknown, so no lead is claimed there; measure with --launches 2 or more (not --quick).";
        if (run.Spec.Scenario is ScenarioSpec scenario)
        {
            // Asked differently (SOAP beside REST, another body): the gap is the two services', not one framework's.
            var differ = scenario.Operations.Where(o => o.Requests.Where(r => pairTargets.Contains(r.Target))
                .Select(r => (r.Method, r.PathAndQuery, r.BodyFile, string.Join("\n", r.Headers))).Distinct().Count() > 1).Select(o => o.Name).Distinct().ToList();
            if (differ.Count > 0)
                yield return $"{string.Join(", ", differ)}: asked differently of each target (method, path, headers or body; see Operations): the gap there is the two services' whole difference, protocol and payload included, not their frameworks' alone.";
        }
        foreach (var t in run.Targets.Where(t => pairTargets.Contains(t.Name) && t.External))
            yield return $"{t.Name} is a service given by URL: every launch measured the same process, so its interval covers windows of that one process, not process-to-process variance.";
        foreach (var t in run.Targets.Where(t => t.LaunchFailures is { Count: > 0 }))
            yield return $"{t.Name} missed launches: {string.Join("; ", t.LaunchFailures!)}";
        foreach (var t in run.Targets.Where(t => !t.Measured))
            yield return $"not measured: {t.Name} ({t.Runtime}, {t.Server}): {t.NotMeasuredReason ?? "no reason recorded"}";
        var failed = cells.Where(c => pairTargets.Contains(c.Key.Target) && c.Summary is not null && c.FailedTotal > 0).ToList();
        if (failed.Count > 0)
            yield return "failed requests, so no verdict there: " + string.Join("; ", failed.Select(c => $"{c.Key.Target} {c.Key.Endpoint}{(cells.HasSizes(c.Key.Endpoint) ? " " + c.SizeLabel : "")} ({c.FailedTotal.ToString(CultureInfo.InvariantCulture)})"));
        var a = run.Targets.FirstOrDefault(t => t.Name == baseline);
        if (a is null) yield break;
        foreach (var other in others)
        {
            var b = run.Targets.FirstOrDefault(t => t.Name == other);
            if (b is null) continue;
            // Of a service given by URL nothing is known of its runtime or host: say nothing of them.
            if (IsUnknown(a.Runtime) || IsUnknown(b.Runtime) || IsUnknown(a.Server) || IsUnknown(b.Server)) continue;
            var sameRuntime = a.Runtime == b.Runtime;
            var sameHost = Host(a.Server) == Host(b.Server);
            if (sameRuntime && sameHost)
            {
                yield return $"{other} and {baseline} both run on {a.Runtime} over {Host(a.Server)}: the gap is between the frameworks, not the runtime or host.";
                continue;
            }
            var differ = !sameRuntime && !sameHost ? "runtime and server" : !sameRuntime ? "runtime" : "server";
            yield return $"{other} runs on {b.Runtime} / {b.Server}, {baseline} on {a.Runtime} / {a.Server}: the gap mixes the framework with the {differ}. " + Split(run, cells, a, b);
        }
    }

    /// <summary>How much of the pair's server CPU gap Attribution's runtime+server step accounts for, or which targets would tell.</summary>
    private static string Split(RunResult run, IReadOnlyList<CellResult> cells, TargetInfo a, TargetInfo b)
    {
        double? Cpu(string target, CellResult like) => cells.FirstOrDefault(c => c.Key.Target == target && c.Key.Endpoint == like.Key.Endpoint &&
            c.Key.SizeBytes == like.Key.SizeBytes && c.Key.Concurrency == like.Key.Concurrency && c.FailedTotal == 0)?.Summary?.ServerCpuUsPerRequest;
        foreach (var (from, to) in Attribution.RuntimeSteps)
        {
            var fromInfo = run.Targets.FirstOrDefault(t => t.Name == from);
            var toInfo = run.Targets.FirstOrDefault(t => t.Name == to);
            if (fromInfo is null || toInfo is null) continue;
            // Orient the pair's gap as the step is: the target on the step's "from" runtime minus the one on its "to" runtime.
            var (high, low) = a.Runtime == fromInfo.Runtime && b.Runtime == toInfo.Runtime ? (a, b) : (b, a);
            var oriented = high.Runtime == fromInfo.Runtime && low.Runtime == toInfo.Runtime;
            var pairs = cells.Where(c => c.Key.Target == high.Name).Select(c => (step: Cpu(from, c) - Cpu(to, c), gap: Cpu(high.Name, c) - Cpu(low.Name, c)))
                .Where(p => p.step.HasValue && p.gap.HasValue).Select(p => (step: p.step!.Value, gap: p.gap!.Value)).ToList();
            if (pairs.Count == 0) continue;
            var step = Median(pairs.Select(p => p.step));
            var gap = Median(pairs.Select(p => p.gap));
            var share = oriented && gap > 0 && step > 0 ? $": about {N(100 * step / gap, "0")}% of the gap is runtime and host rather than framework" : "";
            return $"Attribution's runtime+server step {from} − {to} is {N(step, "+0.0;-0.0;0.0")} µs/req of server CPU against a gap {high.Name} − {low.Name} of " +
                   $"{N(gap, "+0.0;-0.0;0.0")} µs/req (medians over {pairs.Count.ToString(CultureInfo.InvariantCulture)} cells){share}.";
        }
        var suggest = new[] { a.Name, b.Name, "webapi-selfhost", "webapi-kestrel" }.Distinct();
        return $"This run cannot split them: it needs the same code on both runtimes, such as `--targets {string.Join(',', suggest)}` (Attribution's step webapi-selfhost − webapi-kestrel).";
    }

    private static double Median(IEnumerable<double> values)
    {
        var v = values.OrderBy(x => x).ToList();
        return v.Count % 2 == 1 ? v[v.Count / 2] : (v[v.Count / 2 - 1] + v[v.Count / 2]) / 2;
    }

    private static bool IsUnknown(string runtimeOrServer) => runtimeOrServer is "unknown" or "external" or "";

    /// <summary>The listener under a host, without how the target reaches it ("Mono HttpListener via ..." is Mono HttpListener).</summary>
    private static string Host(string server) => server.Split(" via ", 2)[0];
}
