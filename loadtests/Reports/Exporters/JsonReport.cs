using Comparator.Results;

namespace Comparator.Reports.Exporters;

/// <summary>results.json: the whole result, as <see cref="ResultStore"/> saves it and reads it back.</summary>
public sealed class JsonReport : IExporter
{
    public string Name => "json";
    public string? FileName => "results.json";
    /// <summary>The run as the report read it: with its size models (<see cref="RunReport"/> fits them where the run was saved without).</summary>
    public string Render(RunReport report) => ResultStore.Serialize(report.Run);
}
