using System;
using System.IO;
using System.Linq;
using Comparator.Results;

namespace Comparator.Reports;

/// <summary>
/// Writes a run's files into a new directory under --out: results.json, results.csv, report.md,
/// report.html, summary.md (the verdict, to paste into a review) and charts/ (SVG and PNG).
/// Written through <see cref="OutputFiles"/>: no torn files, no existing directory reused.
/// </summary>
public static class RunDirectory
{
    public static string Write(RunResult run, string outDirectory) => WriteInto(run, OutputFiles.CreateNewDirectory(outDirectory, "", run.StartedAt));

    /// <summary>The same files, into a run directory the run made at its start (it holds the run's journal.jsonl).</summary>
    public static string WriteInto(RunResult run, string directory)
    {
        OutputFiles.WriteAtomically(Path.Combine(directory, "results.json"), ResultStore.Serialize(run));
        OutputFiles.WriteAtomically(Path.Combine(directory, "results.csv"), CsvReport.Render(run));
        OutputFiles.WriteAtomically(Path.Combine(directory, "report.md"), MarkdownReport.Render(run));
        var charts = Charts.Build(run);
        var chartDirectory = Directory.CreateDirectory(Path.Combine(directory, "charts")).FullName;
        foreach (var chart in charts)
        {
            OutputFiles.WriteAtomically(Path.Combine(chartDirectory, chart.Name + ".svg"), chart.Svg());
            chart.Plot.SavePng(Path.Combine(chartDirectory, chart.Name + ".png"), Chart.Width, chart.Height);
        }
        OutputFiles.WriteAtomically(Path.Combine(directory, "report.html"), HtmlReport.Render(run, charts));
        var summaryChart = charts.Any(c => c.Name == Charts.CoresChart) ? "charts/" + Charts.CoresChart + ".png"
            : charts.Any(c => c.Name == ForestChart.Name) ? "charts/" + ForestChart.Name + ".png" : charts.Any(c => c.Name == "throughput") ? "charts/throughput.png" : charts.Any(c => c.Name == "requests") ? "charts/requests.png" : null;
        OutputFiles.WriteAtomically(Path.Combine(directory, "summary.md"), SummaryReport.Render(run, summaryChart));
        return directory;
    }
}
