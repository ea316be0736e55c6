using System.Linq;
using System.Text;

namespace Comparator.Reports;

/// <summary>results.csv: one row per cell (its median repeat), the columns of <see cref="CellColumns"/>.</summary>
public sealed class CsvReport : IExporter
{
    public string Name => "csv";
    public string? FileName => "results.csv";

    public string Render(RunReport report)
    {
        var csv = new StringBuilder();
        csv.AppendLine(string.Join(',', CellColumns.All.Select(c => c.Name)));
        foreach (var cell in report.Run.Cells)
            csv.AppendLine(string.Join(',', CellColumns.All.Select(c => Escape(CellColumns.FormatFor(cell, c)))));
        return csv.ToString();
    }

    private static string Escape(string field) =>
        field.IndexOfAny(new[] { ',', '"', '\n', '\r' }) >= 0 ? "\"" + field.Replace("\"", "\"\"") + "\"" : field;
}
