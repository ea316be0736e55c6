using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using Comparator.Results;

namespace Comparator.Reports;

/// <summary>One payload size of a pair: who leads beyond the noise of both, or null (within noise, or not measured on both).</summary>
public sealed record SizeVerdict(long SizeBytes, string SizeLabel, string? Leader, bool Measured);

/// <summary>
/// Two targets on one endpoint across payload sizes: the verdict per size and the sentence that
/// sums it up ("webapi-selfhost leads up to 4KB, within noise at 16KB, wcf-classic leads from 64KB").
/// </summary>
public sealed record Crossover(string Endpoint, int Concurrency, string Baseline, string Other, IReadOnlyList<SizeVerdict> Sizes)
{
    /// <summary>The sizes where the verdict changes from the previous size: the crossovers (lead to noise, noise to lead, or lead to lead).</summary>
    public IEnumerable<SizeVerdict> Changes => Sizes.Where(v => v.Measured).Zip(Sizes.Where(v => v.Measured).Skip(1), (a, b) => (a, b))
        .Where(p => p.a.Leader != p.b.Leader).Select(p => p.b);

    /// <summary>True when each target leads at some size: the lead changes hands as the payload grows.</summary>
    public bool LeadChangesHands => Sizes.Any(v => v.Leader == Baseline) && Sizes.Any(v => v.Leader == Other);

    public string Sentence()
    {
        var measured = Sizes.Where(v => v.Measured).ToList();
        if (measured.Count == 0) return $"{Endpoint}: {Other} against {Baseline}: no size measured on both";
        var segments = new List<(string? Leader, SizeVerdict From, SizeVerdict To)>();
        foreach (var v in measured)
        {
            if (segments.Count > 0 && segments[^1].Leader == v.Leader) segments[^1] = (v.Leader, segments[^1].From, v);
            else segments.Add((v.Leader, v, v));
        }
        static string Who(string? leader) => leader is null ? "within noise" : leader + " leads";
        if (measured.Count == 1)
            return $"{Endpoint}: {Who(segments[0].Leader)} at {measured[0].SizeLabel}, the only size measured on both";
        if (segments.Count == 1)
            return $"{Endpoint}: {Who(segments[0].Leader)} at every size ({measured[0].SizeLabel} to {measured[^1].SizeLabel})";
        var parts = segments.Select((s, i) =>
        {
            var range = s.From == s.To ? $"at {s.From.SizeLabel}"
                : i == 0 ? $"up to {s.To.SizeLabel}"
                : i == segments.Count - 1 ? $"from {s.From.SizeLabel}"
                : $"from {s.From.SizeLabel} to {s.To.SizeLabel}";
            return Who(s.Leader) + " " + range;
        });
        return $"{Endpoint}: " + string.Join(", ", parts);
    }
}

/// <summary>
/// Where one target leads another as the payload grows. A size counts as a lead only beyond the
/// noise of both: every repeat of one above every repeat of the other in requests/s; otherwise
/// the two are within noise there. Pairs: the baseline against every other target, per endpoint
/// with a body (echo-post, echo-put) and concurrency, for the first driver (as the charts).
/// </summary>
public static class Crossovers
{
    public static IReadOnlyList<Crossover> Find(RunResult run)
    {
        var driver = run.Spec.Drivers.FirstOrDefault()?.Name;
        var cells = run.Cells.Where(c => c.Key.Driver == driver && c.Key.SizeBytes >= 0).ToList();
        var baseline = run.Spec.BaselineTarget;
        var others = cells.Select(c => c.Key.Target).Distinct().Where(t => t != baseline).ToList();
        var result = new List<Crossover>();
        foreach (var group in cells.Where(c => EndpointHasBody(c.Key.Endpoint)).GroupBy(c => (c.Key.Endpoint, c.Key.Concurrency)))
        {
            var sizes = group.Select(c => (c.Key.SizeBytes, c.SizeLabel)).Distinct().OrderBy(s => s.SizeBytes).ToList();
            if (sizes.Count < 2) continue; // one size is a comparison, not a curve
            foreach (var other in others)
            {
                var verdicts = sizes.Select(size =>
                {
                    var a = Rates(group.FirstOrDefault(c => c.Key.Target == baseline && c.Key.SizeBytes == size.SizeBytes));
                    var b = Rates(group.FirstOrDefault(c => c.Key.Target == other && c.Key.SizeBytes == size.SizeBytes));
                    var measured = a.Count > 0 && b.Count > 0;
                    return new SizeVerdict(size.SizeBytes, size.SizeLabel, measured ? Leader(baseline, a, other, b) : null, measured);
                }).ToList();
                if (verdicts.Any(v => v.Measured)) result.Add(new Crossover(group.Key.Endpoint, group.Key.Concurrency, baseline, other, verdicts));
            }
        }
        return result;
    }

    /// <summary>The one whose every repeat beats every repeat of the other, or null.</summary>
    public static string? Leader(string a, IReadOnlyList<double> ratesA, string b, IReadOnlyList<double> ratesB)
    {
        if (ratesA.Min() > ratesB.Max()) return a;
        if (ratesB.Min() > ratesA.Max()) return b;
        return null;
    }

    /// <summary>Requests/s of every repeat of a cell that was measured without failures.</summary>
    private static IReadOnlyList<double> Rates(CellResult? cell) =>
        cell is null || cell.Summary is null || cell.FailedTotal > 0 ? Array.Empty<double>() : cell.Repeats.Select(r => r.RequestsPerSecond).ToList();

    private static bool EndpointHasBody(string endpoint) => Contracts.Endpoints.Find(endpoint)?.SendsBody == true;

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
        "A target leads at a size only when every one of its repeats beat every repeat of the other in requests/s; otherwise the two are within noise there. Sizes next to each other with the same verdict are joined.";
}
