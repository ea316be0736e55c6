using System.IO;
using Comparator.Reports.Plots;

namespace Comparator.Reports.Exporters;

/// <summary>charts/: each chart of the run as SVG and PNG, named as the chart.</summary>
public sealed class ChartFiles : IExporter
{
    public string Name => "charts";
    public string? FileName => "charts";

    /// <summary>The files it writes, one line per chart with its title.</summary>
    public string Render(RunReport report) => string.Concat(report.Charts.Select(c => $"{FileName}/{c.Name}.svg, .png: {c.Title}\n"));

    public void Export(RunReport report, string directory) => WriteInto(report.Charts, Path.Combine(directory, FileName!));

    /// <summary>Every chart into <paramref name="folder"/> (made if missing), as SVG and PNG.</summary>
    public static void WriteInto(IReadOnlyList<Chart> charts, string folder)
    {
        Directory.CreateDirectory(folder);
        foreach (var chart in charts)
        {
            OutputFiles.WriteAtomically(Path.Combine(folder, chart.Name + ".svg"), chart.Svg());
            chart.Plot.SavePng(Path.Combine(folder, chart.Name + ".png"), Chart.Width, chart.Height);
        }
    }
}
