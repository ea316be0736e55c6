using System.IO;
using System.Text.Json;
using Comparator.Comparing;
using Comparator.Results;

namespace Comparator.Crank;

/// <summary>
/// What `run --crank` prints at the end for crank's agent, which reads a job's standard output for
/// blocks between #StartJobStatistics and #EndJobStatistics ({ Metadata, Measurements }) and keeps
/// them in the controller's --json result. The whole run goes in as one measurement
/// (<see cref="ResultsMeasurement"/>, the results.json text on one line, as crank's bombardier job
/// keeps its raw output), so the controller's file alone carries both sides of the run; a few
/// headline figures per target go in beside it, registered, for crank's own console table.
/// </summary>
public static class CrankStatistics
{
    public const string Start = "#StartJobStatistics";
    public const string End = "#EndJobStatistics";
    public const string ResultsMeasurement = "comparator/results";

    public static void Write(RunResult run, TextWriter output)
    {
        var now = DateTime.UtcNow;
        var metadata = new List<object>();
        var measurements = new List<object>
        {
            new { Timestamp = now, Name = ResultsMeasurement, Value = ResultStore.Serialize(run, indented: false) },
        };
        // Headline: the median req/s of each target's closed-loop cells, summed over cells, is meaningless; the first cell is shown instead.
        var first = run.Cells.Where(c => c.Key.Rate is null && c.Summary is not null).GroupBy(c => c.Key.Target).Select(g => g.First());
        foreach (var c in first)
        {
            var name = $"comparator/{c.Key.Target}/rps";
            metadata.Add(new
            {
                Source = "comparator",
                Name = name,
                Aggregate = "First",
                Reduce = "First",
                ShortDescription = $"{c.Key.Target} req/s ({c.Key.Endpoint}{(c.SizeLabel == CellSizes.NoSize ? "" : " " + c.SizeLabel)}, c={c.Key.Concurrency}, median window)",
                LongDescription = "Requests per second of the median window of the target's first closed-loop cell, as the comparator measured it",
                Format = "n0",
            });
            measurements.Add(new { Timestamp = now, Name = name, Value = c.Summary!.RequestsPerSecond });
        }
        output.WriteLine(Start);
        output.WriteLine(JsonSerializer.Serialize(new { Metadata = metadata, Measurements = measurements }));
        output.WriteLine(End);
        output.Flush();
    }

    /// <summary>The run a crank load job printed, from the controller's result file; null when no job printed one.</summary>
    public static RunResult? ReadRun(CrankResultFile crank, out string? job)
    {
        foreach (var j in crank.Jobs)
        {
            if (j.Texts.TryGetValue(ResultsMeasurement, out var text))
            {
                job = j.Name;
                return SavedRun.Read(text, $"{crank.Source} (job {j.Name}, {ResultsMeasurement})");
            }
        }
        job = null;
        return null;
    }
}
