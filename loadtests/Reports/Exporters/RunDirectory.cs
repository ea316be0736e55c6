using Comparator.Results;

namespace Comparator.Reports.Exporters;

/// <summary>
/// Writes a run's files into a new directory under --out, one per exporter (<see cref="Exporters.Files"/>):
/// results.json, results.csv, report.md, charts/ (SVG and PNG), report.html, summary.md (the verdict,
/// to paste into a review). Written through <see cref="OutputFiles"/>: no torn files, no existing directory reused.
/// </summary>
public static class RunDirectory
{
    public static string Write(RunResult run, string outDirectory) => WriteInto(run, OutputFiles.CreateNewDirectory(outDirectory, "", run.StartedAt));

    /// <summary>The same files, into a run directory the run made at its start (it holds the run's journal.jsonl).</summary>
    public static string WriteInto(RunResult run, string directory) => WriteInto(new RunReport(run), directory);

    /// <summary>A report already built (its verdict and sections then serve the terminal too, built once).</summary>
    public static string WriteInto(RunReport report, string directory)
    {
        foreach (var exporter in Exporters.Files) exporter.Export(report, directory);
        return directory;
    }
}
