using Comparator.Results;
using Comparator.Statistics;
using Comparator.Targets;
using Comparator.Reports.Exporters;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Text;

/// <summary>
/// "Where the difference comes from": server CPU µs per request of the targets that differ by one
/// layer at a time, per cell, and the steps between them. CPU per request is used because costs
/// add up in it, so each step is the cost of the one layer that changed. Two lanes:
/// the .NET Framework lane (Mono here): wcf-classic and webapi-selfhost on the same runtime and
/// listener, each over the bare listener (httplistener-mono, its ceiling); the .NET 10 lane:
/// webapi-kestrel → aspnetcore changes only the framework on the same runtime and server,
/// wcf → webapi-kestrel compares the two framework generations on one host, aspnetcore → kestrel
/// is MVC over the bare platform (kestrel, its ceiling). Between the lanes, the same Web API 2 code
/// (webapi or webapi-selfhost → webapi-kestrel) and the same bare listener code
/// (httplistener-mono → httplistener) change only the runtime and server.
/// </summary>
public static class Attribution
{
    // The lineup, its steps and each target's ceiling are the catalogue's knowledge (Targets/TargetLayers).
    public static IReadOnlyList<string> Lineup => TargetLayers.Lineup;
    private static IReadOnlyList<TargetLayers.Step> Steps => TargetLayers.Steps;
    public static IEnumerable<(string From, string To)> RuntimeSteps => TargetLayers.RuntimeSteps;
    private static IReadOnlyDictionary<string, string> Ceilings => TargetLayers.Ceilings;

    public const string Explanation =
        "Server CPU µs per request of the targets that differ by one layer at a time, and the steps between them (costs add up in CPU per request). " +
        "wcf-classic − webapi-selfhost: the two frameworks on one runtime and listener (Mono here); each is also shown as a ratio of the bare listener under it (httplistener-mono). " +
        "webapi-selfhost or webapi → webapi-kestrel: the same Web API 2 code on another runtime and server; httplistener-mono → httplistener: the same bare listener code on Mono and on .NET 10. " +
        "webapi-kestrel → aspnetcore: other framework, same runtime and server. wcf − webapi-kestrel: the two framework generations on one host. " +
        "aspnetcore − kestrel: MVC over the bare platform; .NET 10 targets are also shown as a ratio of the kestrel ceiling. A target missing from the run is left out.";

    /// <summary>Null when fewer than two lineup targets were measured: nothing to attribute.</summary>
    public static TextTable? Build(RunResult run)
    {
        var measured = run.Cells.Where(c => c.Summary?.ServerCpuUsPerRequest is not null).Select(c => c.Key.Target).ToHashSet();
        var lineup = Lineup.Where(measured.Contains).ToList();
        if (lineup.Count < 2) return null;
        var steps = Steps.Where(s => measured.Contains(s.From) && measured.Contains(s.To)).ToList();

        var header = new List<string> { "endpoint", "size", "conc", "driver" };
        string? CeilingOf(string t) => Ceilings.TryGetValue(t, out var c) && measured.Contains(c) ? c : null;
        header.AddRange(lineup.Select(t => CeilingOf(t) is string c ? $"{t} µs/req (x {c})" : $"{t} µs/req"));
        header.AddRange(steps.Select(s => s.Label + " µs"));
        header.Add("caution");

        var rows = new List<IReadOnlyList<string>>();
        foreach (var group in run.Cells.GroupBy(c => (c.Key.Endpoint, c.Key.SizeBytes, c.Key.Concurrency, c.Key.Driver, c.Key.Rate)))
        {
            var cpu = group.Where(c => c.Summary?.ServerCpuUsPerRequest is not null)
                .ToDictionary(c => c.Key.Target, c => c.Summary!.ServerCpuUsPerRequest!.Value);
            var first = group.First();
            var row = new List<string> { first.Key.Endpoint, first.SizeLabel, first.Key.Concurrency.ToString(CultureInfo.InvariantCulture), first.Key.Load };
            foreach (var t in lineup)
            {
                if (!cpu.TryGetValue(t, out var us)) { row.Add("n/a"); continue; }
                var ceiling = CeilingOf(t) is string name && cpu.TryGetValue(name, out var k) && k > 0 ? k : (double?)null;
                row.Add(ceiling is double c ? $"{N(us, "0.0")} ({N(us / c, "0.00")}x)" : N(us, "0.0"));
            }
            foreach (var (from, to, _, _) in steps)
                row.Add(cpu.TryGetValue(from, out var a) && cpu.TryGetValue(to, out var b) ? N(a - b, "+0.0;-0.0;0.0") : "n/a");
            // A step is a difference of two medians: a noisy or failing cell on either side makes it unreliable.
            var doubtful = group.Where(c => lineup.Contains(c.Key.Target) && (c.Flags.Contains(CellFlags.Noisy) || c.Flags.Contains(CellFlags.Failed)))
                .Select(c => $"{string.Join('+', c.Flags.Where(f => f is CellFlags.Noisy or CellFlags.Failed))}: {c.Key.Target}");
            row.Add(string.Join("; ", doubtful));
            rows.Add(row);
        }
        return new TextTable(header, rows);
    }

    /// <summary>The targets of the run grouped by runtime, then server: what each comparison holds constant.</summary>
    public static TextTable Groups(RunResult run)
    {
        var rows = new List<IReadOnlyList<string>>();
        foreach (var group in run.Targets.GroupBy(t => (t.Runtime, t.Server)).OrderBy(g => g.Key.Runtime).ThenBy(g => g.Key.Server))
        {
            var first = true;
            foreach (var t in group)
            {
                rows.Add(new[] { first ? t.Runtime : "", first ? t.Server : "", t.Name, t.Stack, t.TcpNoDelay ?? "-", t.Measured ? "yes" : "no: " + t.NotMeasuredReason });
                first = false;
            }
        }
        return new TextTable(new[] { "runtime", "server", "target", "stack", "TCP_NODELAY", "measured" }, rows);
    }

    private static string N(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
