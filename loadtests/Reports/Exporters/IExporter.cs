using System.IO;

namespace Comparator.Reports.Exporters;

/// <summary>
/// One output of a run, rendered from the one <see cref="RunReport"/> (as BenchmarkDotNet's
/// IExporter renders one Summary): a file of the run directory, the charts, or the terminal.
/// </summary>
public interface IExporter
{
    /// <summary>What `report --format` calls it: json, csv, md, charts, html, summary, console.</summary>
    string Name { get; }

    /// <summary>What it writes into a run directory ("report.md", the charts/ folder); null for the terminal, which writes no file.</summary>
    string? FileName { get; }

    /// <summary>The output as text: the file's content, the terminal's lines (the charts: a list of their files).</summary>
    string Render(RunReport report);

    /// <summary>Writes the output into a run directory, under a temporary name first (<see cref="OutputFiles"/>).</summary>
    void Export(RunReport report, string directory) => OutputFiles.WriteAtomically(Path.Combine(directory, FileName!), Render(report));
}

/// <summary>Every exporter, in the order a run directory is written: results.json first, so a run whose rendering fails keeps its figures.</summary>
public static class Exporters
{
    public static IReadOnlyList<IExporter> All { get; } = new IExporter[]
    {
        new JsonReport(), new CsvReport(), new MarkdownReport(), new ChartFiles(), new HtmlReport(), new SummaryReport(), new ProfileFiles(), new ConsoleReport(),
    };

    /// <summary>The exporters that write into a run directory.</summary>
    public static IEnumerable<IExporter> Files => All.Where(e => e.FileName is not null);

    public static IExporter? Named(string name) => All.FirstOrDefault(e => e.Name == name);
}
