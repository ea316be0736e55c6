using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using Comparator.Results;

namespace Comparator.Reports;

/// <summary>
/// "Where the difference comes from": server CPU µs per request of the targets that differ by one
/// layer at a time, per cell, and the steps between them. CPU per request is used because costs
/// add up in it, so each step is the cost of the one layer that changed:
/// webapi → webapi-kestrel changes only the runtime and server under the same Web API 2 code;
/// webapi-kestrel → aspnetcore changes only the framework on the same runtime and server;
/// wcf → webapi-kestrel compares the two framework generations on the same host;
/// aspnetcore → kestrel is what MVC costs over the bare platform, whose ceiling every target is
/// also shown against (x kestrel).
/// </summary>
public static class Attribution
{
    /// <summary>The lineup, one layer apart from its neighbours; a target not in the run is left out.</summary>
    public static readonly string[] Lineup = { "webapi", "webapi-kestrel", "wcf", "aspnetcore", "minimal", "kestrel" };

    private static readonly (string From, string To, string Label)[] Steps =
    {
        ("webapi", "webapi-kestrel", "runtime+server: webapi − webapi-kestrel"),
        ("wcf", "webapi-kestrel", "WCF vs Web API 2 on one host: wcf − webapi-kestrel"),
        ("webapi-kestrel", "aspnetcore", "framework: webapi-kestrel − aspnetcore"),
        ("aspnetcore", "kestrel", "MVC over the bare platform: aspnetcore − kestrel"),
    };

    public const string Ceiling = "kestrel";

    public const string Explanation =
        "Server CPU µs per request of the targets that differ by one layer at a time, and the steps between them (costs add up in CPU per request). webapi → webapi-kestrel: same Web API 2 code, other runtime and server. webapi-kestrel → aspnetcore: other framework, same runtime and server. wcf − webapi-kestrel: the two framework generations on one host. aspnetcore − kestrel: MVC over the bare platform; every target is also shown as a ratio of the kestrel ceiling. A target missing from the run is left out.";

    /// <summary>Null when fewer than two lineup targets were measured: nothing to attribute.</summary>
    public static TextTable? Build(RunResult run)
    {
        var measured = run.Cells.Where(c => c.Summary?.ServerCpuUsPerRequest is not null).Select(c => c.Key.Target).ToHashSet();
        var lineup = Lineup.Where(measured.Contains).ToList();
        if (lineup.Count < 2) return null;
        var steps = Steps.Where(s => measured.Contains(s.From) && measured.Contains(s.To)).ToList();

        var header = new List<string> { "endpoint", "size", "conc", "driver" };
        header.AddRange(lineup.Select(t => measured.Contains(Ceiling) && t != Ceiling ? $"{t} µs/req (x {Ceiling})" : $"{t} µs/req"));
        header.AddRange(steps.Select(s => s.Label + " µs"));
        header.Add("caution");

        var rows = new List<IReadOnlyList<string>>();
        foreach (var group in run.Cells.GroupBy(c => (c.Key.Endpoint, c.Key.SizeBytes, c.Key.Concurrency, c.Key.Driver)))
        {
            var cpu = group.Where(c => c.Summary?.ServerCpuUsPerRequest is not null)
                .ToDictionary(c => c.Key.Target, c => c.Summary!.ServerCpuUsPerRequest!.Value);
            var first = group.First();
            var row = new List<string> { first.Key.Endpoint, first.SizeLabel, first.Key.Concurrency.ToString(CultureInfo.InvariantCulture), first.Key.Driver };
            var ceiling = cpu.TryGetValue(Ceiling, out var k) && k > 0 ? k : (double?)null;
            foreach (var t in lineup)
            {
                if (!cpu.TryGetValue(t, out var us)) { row.Add("n/a"); continue; }
                row.Add(ceiling is double c && t != Ceiling ? $"{N(us, "0.0")} ({N(us / c, "0.00")}x)" : N(us, "0.0"));
            }
            foreach (var (from, to, _) in steps)
                row.Add(cpu.TryGetValue(from, out var a) && cpu.TryGetValue(to, out var b) ? N(a - b, "+0.0;-0.0;0.0") : "n/a");
            // A step is a difference of two medians: a noisy or failing cell on either side makes it unreliable.
            var doubtful = group.Where(c => lineup.Contains(c.Key.Target) && (c.Flags.Contains(Running.CellFlags.Noisy) || c.Flags.Contains(Running.CellFlags.Failed)))
                .Select(c => $"{string.Join('+', c.Flags.Where(f => f is Running.CellFlags.Noisy or Running.CellFlags.Failed))}: {c.Key.Target}");
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
                rows.Add(new[] { first ? t.Runtime : "", first ? t.Server : "", t.Name, t.Stack, t.Measured ? "yes" : "no: " + t.NotMeasuredReason });
                first = false;
            }
        }
        return new TextTable(new[] { "runtime", "server", "target", "stack", "measured" }, rows);
    }

    private static string N(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
