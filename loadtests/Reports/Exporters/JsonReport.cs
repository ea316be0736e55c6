using Comparator.Results;

namespace Comparator.Reports.Exporters;

/// <summary>results.json: the whole result, as <see cref="ResultStore"/> saves it and reads it back.</summary>
public sealed class JsonReport : IExporter
{
    public string Name => "json";
    public string? FileName => "results.json";
    /// <summary>The run with its size models, fitted where the run was not saved with them.</summary>
    public string Render(RunReport report) => ResultStore.Serialize(report.Run with { SizeModels = Comparing.SizeModelFit.Of(report.Run) });
}
