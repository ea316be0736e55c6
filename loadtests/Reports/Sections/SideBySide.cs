using Comparator.Results;

namespace Comparator.Reports.Sections;

/// <summary>
/// The comparison view: one row per endpoint x size x concurrency x driver, the targets side by
/// side (requests/s median with its min-max and CV over the repeats, p99 latency, server CPU per request), and each
/// target's requests/s as a ratio of the baseline's (BenchmarkDotNet's baseline-ratio column).
/// </summary>
public static class SideBySide
{
    public static TextTable Build(RunResult run)
    {
        var targets = run.Cells.Select(c => c.Key.Target).Distinct().ToList();
        var baseline = run.Spec.BaselineTarget;
        var header = new List<string> { "endpoint", "size", "conc", "driver" };
        foreach (var t in targets) header.AddRange(new[] { $"{t} req/s", $"{t} min-max", $"{t} cv", $"{t} p99 ms", $"{t} cpu µs/req" });
        var others = targets.Where(t => t != baseline).ToList();
        header.AddRange(others.Select(t => $"{t}/{baseline} req/s"));
        header.Add("flags");

        var rows = new List<IReadOnlyList<string>>();
        foreach (var group in run.Cells.GroupBy(c => (c.Key.Endpoint, c.Key.SizeBytes, c.Key.Concurrency, c.Key.Driver, c.Key.Rate)))
        {
            var byTarget = group.ToDictionary(c => c.Key.Target);
            var first = group.First();
            var row = new List<string> { first.Key.Endpoint, first.SizeLabel, first.Key.Concurrency.ToString(CultureInfo.InvariantCulture), first.Key.Load };
            foreach (var t in targets)
            {
                var s = byTarget.GetValueOrDefault(t)?.Summary;
                var cell = byTarget.GetValueOrDefault(t);
                row.Add(s is null ? "n/a" : N(s.RequestsPerSecond, "0"));
                row.Add(cell?.RpsMin is double lo && cell.RpsMax is double hi ? $"{N(lo, "0")}-{N(hi, "0")}" : "n/a");
                row.Add(Cv(cell));
                row.Add(s is null ? "n/a" : N(s.LatencyP99Ms, "0.00"));
                row.Add(s?.ServerCpuUsPerRequest is double cpu ? N(cpu, "0.0") : "n/a");
            }
            var baseRps = byTarget.GetValueOrDefault(baseline)?.Summary?.RequestsPerSecond;
            foreach (var t in others)
            {
                var rps = byTarget.GetValueOrDefault(t)?.Summary?.RequestsPerSecond;
                row.Add(rps is double r && baseRps is double b && b > 0 ? N(r / b, "0.00") + "x" : "n/a");
            }
            row.Add(string.Join("; ", group.Where(c => c.Flags.Count > 0).Select(c => $"{c.Key.Target}: {string.Join(' ', c.Flags)}")));
            rows.Add(row);
        }
        return new TextTable(header, rows);
    }

    /// <summary>
    /// The same figures one row per cell and target, for a terminal: with more than two targets the
    /// wide table no longer fits a screen.
    /// </summary>
    public static TextTable BuildLong(RunResult run)
    {
        var baseline = run.Spec.BaselineTarget;
        var header = new[] { "endpoint", "size", "conc", "driver", "target", "req/s", "min-max", "cv", "p99 ms", "cpu µs/req", $"req/s vs {baseline}", "flags" };
        var rows = new List<IReadOnlyList<string>>();
        foreach (var group in run.Cells.GroupBy(c => (c.Key.Endpoint, c.Key.SizeBytes, c.Key.Concurrency, c.Key.Driver, c.Key.Rate)))
        {
            var baseRps = group.FirstOrDefault(c => c.Key.Target == baseline)?.Summary?.RequestsPerSecond;
            foreach (var cell in group)
            {
                var s = cell.Summary;
                rows.Add(new[]
                {
                    cell.Key.Endpoint, cell.SizeLabel, cell.Key.Concurrency.ToString(CultureInfo.InvariantCulture), cell.Key.Load, cell.Key.Target,
                    s is null ? "n/a" : N(s.RequestsPerSecond, "0"),
                    cell.RpsMin is double lo && cell.RpsMax is double hi ? $"{N(lo, "0")}-{N(hi, "0")}" : "n/a",
                    Cv(cell),
                    s is null ? "n/a" : N(s.LatencyP99Ms, "0.00"),
                    s?.ServerCpuUsPerRequest is double cpu ? N(cpu, "0.0") : "n/a",
                    cell.Key.Target == baseline ? "baseline" : s is not null && baseRps is double b && b > 0 ? N(s.RequestsPerSecond / b, "0.00") + "x" : "n/a",
                    string.Join(' ', cell.Flags),
                });
            }
        }
        return new TextTable(header, rows);
    }

    /// <summary>The CV of requests/s over the cell's repeats, in percent; n/a where not measured or not recorded.</summary>
    private static string Cv(CellResult? cell) => cell?.Summary is not null && cell.RpsCv is double cv ? N(100 * cv, "0.0") + "%" : "n/a";

    private static string N(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
