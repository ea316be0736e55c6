using Comparator.Reports.Sections;


namespace Comparator.Reports.Exporters;

/// <summary>results.csv: one row per cell (its median repeat), the columns of <see cref="CellColumns"/>.</summary>
public sealed class CsvReport : IExporter
{
    public string Name => "csv";
    public string? FileName => "results.csv";

    /// <summary>The header, then a row per cell, each line ended as the platform ends lines.</summary>
    public string Render(RunReport report) =>
        string.Concat(report.Run.Cells.Select(cell => CellColumns.All.Select(c => Escape(CellColumns.FormatFor(cell, c))))
            .Prepend(CellColumns.All.Select(c => c.Name))
            .Select(fields => string.Join(',', fields) + Environment.NewLine));

    private static string Escape(string field) =>
        field.IndexOfAny(new[] { ',', '"', '\n', '\r' }) >= 0 ? "\"" + field.Replace("\"", "\"\"") + "\"" : field;
}
