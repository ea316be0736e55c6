using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Reports.Sections;

/// <summary>
/// The drivers side by side for each cell: requests/s and wire bytes received per request, so a
/// reader sees at once whether a figure belongs to the server or to the tool that measured it; where
/// the CPU's counters were read, each driver's instructions per request beside the server's.
/// </summary>
public static class DriversView
{
    public static TextTable Build(RunResult run)
    {
        var drivers = run.Spec.Drivers.Select(d => d.Name).ToList();
        var counted = run.Cells.Any(c => c.Summary is Measurement m && Metrics.DriverInstructionsPerRequest.Of(m) is not null);
        var header = new List<string> { "target", "endpoint", "size", "conc" };
        foreach (var d in drivers)
            header.AddRange(new[] { $"{d} req/s", $"{d} B/req", $"{d} client cpu %" }.Concat(counted ? new[] { $"{d} instr/req", $"server instr/req ({d})" } : Array.Empty<string>()));
        header.Add("verdict");

        var rows = new List<IReadOnlyList<string>>();
        foreach (var group in run.Cells.GroupBy(c => (c.Key.Target, c.Key.Endpoint, c.Key.SizeBytes, c.Key.Concurrency, c.Key.Rate, c.Key.Cores)))
        {
            var byDriver = group.ToDictionary(c => c.Key.Driver);
            var first = group.First();
            var row = new List<string> { first.Key.Target, first.Key.Endpoint, first.SizeLabel, first.Key.Concurrency.ToString(CultureInfo.InvariantCulture) };
            foreach (var d in drivers)
            {
                var s = byDriver.GetValueOrDefault(d)?.Summary;
                row.Add(s is null ? "n/a" : s.RequestsPerSecond.ToString("0", CultureInfo.InvariantCulture));
                row.Add(s is { Requests: > 0 } ? ((double)s.BytesReceived / s.Requests).ToString("0.0", CultureInfo.InvariantCulture) : "n/a");
                row.Add(s is { ElapsedSeconds: > 0 } ? (100 * s.ClientCpuSeconds / s.ElapsedSeconds).ToString("0", CultureInfo.InvariantCulture) : "n/a");
                if (!counted) continue;
                row.Add(Metrics.DriverInstructionsPerRequest.Show(s is null ? null : Metrics.DriverInstructionsPerRequest.Of(s)));
                row.Add(Metrics.InstructionsPerRequest.Show(s is null ? null : Metrics.InstructionsPerRequest.Of(s)));
            }
            row.Add(group.Any(c => c.Flags.Contains(CellFlags.DriversDisagree)) ? "DISAGREE" :
                group.Count(c => c.Summary is not null) > 1 ? "agree" : "-");
            rows.Add(row);
        }
        return new TextTable(header, rows);
    }
}
