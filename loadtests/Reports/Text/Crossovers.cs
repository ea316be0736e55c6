using Comparator.Comparing;
using Comparator.Results;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Text;

/// <summary>
/// One payload size of a pair: who leads by the rule, or null (equivalent, not settled, or not
/// measured on both); <paramref name="PacedBy"/> names the flag (wait-bound, starved) that kept the
/// verdict from naming a leader where the pace was not the frameworks' to set.
/// </summary>
public sealed record SizeVerdict(long SizeBytes, string SizeLabel, string? Leader, bool Measured, string? PacedBy = null, bool Equivalent = false)
{
    /// <summary>What the sentence says of this size: "X leads", "no lead (wait-bound)", "equivalent" or "not settled".</summary>
    public string Said => Leader is not null ? Leader + " leads" : PacedBy is not null ? $"no lead ({PacedBy})" : Equivalent ? "equivalent" : "not settled";

    /// <summary>The short form on a chart: the leader, the flag, "same" or "unsettled".</summary>
    public string Who => Leader ?? PacedBy ?? (Equivalent ? "same" : "unsettled");
}

/// <summary>
/// Two targets on one endpoint across payload sizes: the verdict per size and the sentence that
/// sums it up ("webapi-selfhost leads up to 4KB, equivalent at 16KB, wcf-classic leads from 64KB").
/// </summary>
public sealed record Crossover(string Endpoint, int Concurrency, string Baseline, string Other, IReadOnlyList<SizeVerdict> Sizes)
{
    /// <summary>The sizes where the verdict changes from the previous size: the crossovers (between a lead, the other lead, equivalent, not settled and no lead).</summary>
    public IEnumerable<SizeVerdict> Changes => Sizes.Where(v => v.Measured).Zip(Sizes.Where(v => v.Measured).Skip(1), (a, b) => (a, b))
        .Where(p => p.a.Said != p.b.Said).Select(p => p.b);

    /// <summary>True when each target leads at some size: the lead changes hands as the payload grows.</summary>
    public bool LeadChangesHands => Sizes.Any(v => v.Leader == Baseline) && Sizes.Any(v => v.Leader == Other);

    public string Sentence()
    {
        var measured = Sizes.Where(v => v.Measured).ToList();
        if (measured.Count == 0) return $"{Endpoint}: {Other} against {Baseline}: no size measured on both";
        var segments = new List<(string Said, SizeVerdict From, SizeVerdict To)>();
        foreach (var v in measured)
        {
            if (segments.Count > 0 && segments[^1].Said == v.Said) segments[^1] = (v.Said, segments[^1].From, v);
            else segments.Add((v.Said, v, v));
        }
        if (measured.Count == 1)
            return $"{Endpoint}: {segments[0].Said} at {measured[0].SizeLabel}, the only size measured on both";
        if (segments.Count == 1)
            return $"{Endpoint}: {segments[0].Said} at every size ({measured[0].SizeLabel} to {measured[^1].SizeLabel})";
        var parts = segments.Select((s, i) =>
        {
            var range = s.From == s.To ? $"at {s.From.SizeLabel}"
                : i == 0 ? $"up to {s.To.SizeLabel}"
                : i == segments.Count - 1 ? $"from {s.From.SizeLabel}"
                : $"from {s.From.SizeLabel} to {s.To.SizeLabel}";
            return s.Said + " " + range;
        });
        return $"{Endpoint}: " + string.Join(", ", parts);
    }
}

/// <summary>
/// Where one target leads another as the payload grows. A size counts as a lead only where the
/// run's lead rule named a leader (<see cref="RunResult.Verdicts"/>: the interval of the ratio wholly
/// beyond the minimum effect); otherwise they are equivalent or not settled there. Pairs: the baseline against
/// every other target, per endpoint with a body (echo-post, echo-put) and concurrency, for the first
/// driver (as the charts and the verdicts).
/// </summary>
public static class Crossovers
{
    public static IReadOnlyList<Crossover> Find(RunResult run)
    {
        var verdicts = run.Headline();
        var labels = run.ComparedCells().GroupBy(c => c.Key.SizeBytes).ToDictionary(g => g.Key, g => g.First().SizeLabel);
        var result = new List<Crossover>();
        foreach (var group in verdicts.Where(v => run.Cells.HasSizes(v.Endpoint)).GroupBy(v => (v.Endpoint, v.Concurrency, v.Baseline, v.Other)))
        {
            var sizes = group.OrderBy(v => v.SizeBytes).ToList();
            if (sizes.Count < 2) continue; // one size is a comparison, not a curve
            var perSize = sizes.Select(v => new SizeVerdict(v.SizeBytes, labels.TryGetValue(v.SizeBytes, out var l) ? l : v.SizeBytes + "B",
                v.Leader, Measured(v), v.PacedBy,
                v.Outcome == CellVerdict.Equivalent)).ToList();
            if (perSize.Any(v => v.Measured))
                result.Add(new Crossover(group.Key.Endpoint, group.Key.Concurrency, group.Key.Baseline, group.Key.Other, perSize));
        }
        return result;
    }

    /// <summary>A size counts on the curve when both sides were measured without failures (an interval, or the reason it has none, is about noise).</summary>
    private static bool Measured(CellVerdict v) => v.Ratio is not null;

    /// <summary>The crossovers as a table: one row per endpoint and pair, with the sentence.</summary>
    public static TextTable? Table(RunResult run)
    {
        var found = Find(run);
        if (found.Count == 0) return null;
        return new TextTable(new[] { "endpoint", "conc", "pair", "lead changes hands", "by payload size" },
            found.Select(c => (IReadOnlyList<string>)new[]
            {
                c.Endpoint, c.Concurrency.ToString(CultureInfo.InvariantCulture), $"{c.Other} vs {c.Baseline}",
                c.LeadChangesHands ? "yes" : "no", c.Sentence()[(c.Endpoint.Length + 2)..],
            }).ToList());
    }

    public const string Explanation =
        "A target leads at a size only where the rule named it (the interval of the ratio of requests/s wholly beyond the minimum effect, see the verdict); elsewhere the two are equivalent (within the margin) or not settled, and no lead is claimed where a cell was wait-bound or starved. Sizes next to each other with the same verdict are joined.";
}
