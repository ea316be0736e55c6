using System;
using System.Globalization;
using System.IO;
using Comparator.Results;

namespace Comparator.Reports;

/// <summary>
/// Writes a run's files into a new directory under --out: results.json, results.csv, report.md,
/// report.html and charts/ (SVG and PNG).
/// Each file is written to a temporary name and renamed, so a reader never sees a torn file, and an
/// existing run directory is never reused.
/// </summary>
public static class RunDirectory
{
    public static string Write(RunResult run, string outDirectory)
    {
        Directory.CreateDirectory(outDirectory);
        var stamp = run.StartedAt.UtcDateTime.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        string directory;
        for (var n = 0; ; n++)
        {
            directory = Path.Combine(outDirectory, n == 0 ? stamp : $"{stamp}-{n}");
            if (Directory.Exists(directory)) continue;
            try
            {
                Directory.CreateDirectory(directory);
                break;
            }
            catch (IOException) when (n < 100) { }
        }
        WriteAtomically(Path.Combine(directory, "results.json"), ResultStore.Serialize(run));
        WriteAtomically(Path.Combine(directory, "results.csv"), CsvReport.Render(run));
        WriteAtomically(Path.Combine(directory, "report.md"), MarkdownReport.Render(run));
        var charts = Charts.Build(run);
        var chartDirectory = Directory.CreateDirectory(Path.Combine(directory, "charts")).FullName;
        foreach (var chart in charts)
        {
            WriteAtomically(Path.Combine(chartDirectory, chart.Name + ".svg"), chart.Svg());
            chart.Plot.SavePng(Path.Combine(chartDirectory, chart.Name + ".png"), Chart.Width, Chart.Height);
        }
        WriteAtomically(Path.Combine(directory, "report.html"), HtmlReport.Render(run, charts));
        return directory;
    }

    private static void WriteAtomically(string path, string content)
    {
        var temporary = path + ".tmp";
        File.WriteAllText(temporary, content);
        File.Move(temporary, path, overwrite: false);
    }
}
