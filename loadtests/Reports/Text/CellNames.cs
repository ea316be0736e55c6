using Comparator.Results;

namespace Comparator.Reports.Text;

/// <summary>A judged cell's name in a reader's words: "time", "echo-post 4KB", "json c=64" where the run had several concurrencies, "json @4456/s" at a fixed rate.</summary>
public static class CellNames
{
    public static string Of(RunResult run, CellVerdict v)
    {
        var several = run.Cells.Select(c => c.Key.Concurrency).Distinct().Count() > 1;
        var size = run.Cells.FirstOrDefault(c => c.Key == v.Key)?.SizeLabel is string label && label != CellSizes.NoSize ? " " + label : "";
        return v.Endpoint + size + (several ? $" c={v.Concurrency}" : "") + (v.Rate is double r ? $" @{r.ToString("0", CultureInfo.InvariantCulture)}/s" : "");
    }
}
