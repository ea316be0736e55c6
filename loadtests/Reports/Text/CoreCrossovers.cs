using Comparator.Comparing;
using Comparator.Results;
using Comparator.Statistics;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Text;

/// <summary>
/// One cell of a pair across the run's allotments of cores: the rule's verdict on req/s under each
/// (the same three outcomes as across payload sizes), and whether the lead changes hands.
/// </summary>
public sealed record CoreCrossover(string Endpoint, string SizeLabel, long SizeBytes, int Concurrency, string Baseline, string Other,
    IReadOnlyList<(CoresSpec Cores, CellVerdict? Verdict)> ByCores)
{
    /// <summary>Each side leads under some allotment: the answer to "which is faster" depends on the cores.</summary>
    public bool Flips => ByCores.Any(c => c.Verdict?.Leader == Baseline) && ByCores.Any(c => c.Verdict?.Leader == Other);

    /// <summary>"webapi-selfhost leads on 1 core (1.79x, 99% interval 1.55x–2.08x); wcf-classic leads sharing 2 cores (...)".</summary>
    public string Sentence(RunSpec spec) => string.Join("; ", ByCores.Select(c => Said(c.Verdict, CoreParts.Short(spec, c.Cores))));

    /// <summary>One allotment's outcome, its ratio stated from the leader's side (above 1) and with its interval.</summary>
    public static string Said(CellVerdict? v, string on)
    {
        if (v is null) return $"not measured {on}";
        string R(double x) => Format.Ratio(x);
        if (v.Leader is string leader && v.Ratio is double r && v.RatioLow is double l && v.RatioHigh is double h)
        {
            var (ratio, low, high) = leader == v.Other ? (r, l, h) : (1 / r, 1 / h, 1 / l);
            return $"{leader} leads {on} ({R(ratio)}, {Format.Percent(v.Confidence)} interval {R(low)}–{R(high)}" + (v.WithinMargin ? ", by less than the margin)" : ")");
        }
        if (v.Outcome == CellVerdict.Equivalent && v.EquivalenceLow is double el && v.EquivalenceHigh is double eh)
            return $"equivalent {on} ({v.Other}/{v.Baseline} {R(el)}–{R(eh)})";
        if (v.RatioLow is double lo && v.RatioHigh is double hi)
            return $"not settled {on} ({v.Other}/{v.Baseline} between {R(lo)} and {R(hi)})";
        return $"no verdict {on} ({v.Reason ?? "not judged"})";
    }
}

/// <summary>Where the lead changes hands as the servers' cores change, read from the stored verdicts (never judged here).</summary>
public static class CoreCrossovers
{
    public const string Explanation =
        "Each allotment of cores is its own set of cells, judged by the same rule as every cell (req/s, closed loop). " +
        "A flip means each stack leads under some allotment: which is faster depends on the cores the server gets, so a production host's answer " +
        "is the allotment nearest to it, not this table's majority.";

    public static IReadOnlyList<CoreCrossover> Find(RunResult run)
    {
        if (!run.HasSeveralCores()) return new List<CoreCrossover>();
        var verdicts = run.Headline();
        var allotments = run.Spec.Cores!;
        return verdicts.GroupBy(v => (v.Endpoint, v.SizeBytes, v.Concurrency, v.Baseline, v.Other))
            .Select(g =>
            {
                var label = run.Cells.FirstOrDefault(c => c.Key.Endpoint == g.Key.Endpoint && c.Key.SizeBytes == g.Key.SizeBytes)?.SizeLabel ?? CellSizes.NoSize;
                return new CoreCrossover(g.Key.Endpoint, label, g.Key.SizeBytes, g.Key.Concurrency, g.Key.Baseline, g.Key.Other,
                    allotments.Select(a => (a, g.FirstOrDefault(v => v.Cores == a.Label))).ToList());
            }).ToList();
    }

    /// <summary>The verdict's opening lines of a run under several allotments: each cell's outcome under every one, the flips first, and the family of all judgments.</summary>
    public static IEnumerable<VerdictLine> Lines(RunResult run)
    {
        var found = Find(run);
        if (found.Count == 0) yield break;
        var spec = run.Spec;
        foreach (var pair in found.GroupBy(c => (c.Baseline, c.Other)))
        {
            var flips = pair.Count(c => c.Flips);
            yield return new(VerdictLineKind.Pair, $"{pair.Key.Other} against {pair.Key.Baseline} (baseline) across cores: " +
                string.Join(", ", spec.Cores!.Select(c => CoreParts.Short(spec, c))));
            yield return new(VerdictLineKind.Note, flips == 0
                ? "The lead does not change hands across these allotments in any cell the rule settled."
                : $"The lead changes hands with the cores in {flips} cell(s): which stack is faster depends on the cores the server gets.");
            if (Verdict.Family(run, run.InReportOrder().Where(v => v.Baseline == pair.Key.Baseline && v.Other == pair.Key.Other).ToList()) is string family)
                yield return new(VerdictLineKind.Note, "Over every allotment: " + family);
            foreach (var c in pair.OrderByDescending(c => c.Flips))
                yield return new(VerdictLineKind.Endpoint, $"{Where(c, run)}: {c.Sentence(spec)}" + (c.Flips ? " (the lead flips)" : ""));
        }
    }

    public static TextTable? Table(RunResult run)
    {
        var found = Find(run);
        if (found.Count == 0) return null;
        var spec = run.Spec;
        var header = new[] { "endpoint", "size", "conc", "pair" }.Concat(spec.Cores!.Select(c => CoreParts.Short(spec, c))).Append("across cores").ToList();
        var rows = found.Select(c => (IReadOnlyList<string>)new[]
            {
                c.Endpoint, c.SizeLabel, c.Concurrency.ToString(CultureInfo.InvariantCulture), $"{c.Other} vs {c.Baseline}",
            }.Concat(c.ByCores.Select(b => Said(b.Verdict)))
            .Append(c.Flips ? "flips" : c.ByCores.All(b => b.Verdict?.Settled == true) && c.ByCores.Select(b => b.Verdict!.Leader).Distinct().Count() == 1 ? "same" : "—")
            .ToList()).ToList();
        return new TextTable(header, rows);
    }

    private static string Said(CellVerdict? v) => v is null ? "not measured" : v.Leader is string l ? $"{l} leads" : v.Said();

    private static string Where(CoreCrossover c, RunResult run) =>
        c.Endpoint + (c.SizeBytes > 0 || run.Cells.HasSizes(c.Endpoint) ? " " + c.SizeLabel : "") +
        (run.Cells.Select(x => x.Key.Concurrency).Distinct().Count() > 1 ? $" c={c.Concurrency}" : "");
}
