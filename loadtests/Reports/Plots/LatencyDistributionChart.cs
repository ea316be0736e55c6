using Comparator.Results;
using ScottPlot;
using Comparator.Reports.Exporters;

namespace Comparator.Reports.Plots;

/// <summary>The latency distribution of each fixed-rate cell (an HDR plot).</summary>
internal static class LatencyDistributionChart
{
    /// <summary>
    /// The HDR plot of every fixed-rate cell: latency against percentile on a log 1/(1−p) axis (50%,
    /// 90%, 99%, 99.9% ... evenly spaced), every target of the cell on it, from the median repeat's
    /// histogram. Latency counts from each request's intended send time, so the tail is what callers wait.
    /// </summary>
    public static IEnumerable<Chart> Build(RunResult run, string? driver, Palette colors)
    {
        var rated = run.Cells.Where(c => c.Key.Driver == driver && c.Key.Rate is not null && c.Summary?.LatencyDistribution is { Count: > 0 }).ToList();
        foreach (var cell in rated.GroupBy(c => c.Key with { Target = "" }))
        {
            var key = cell.Key;
            var plot = new Plot();
            double X(double p) => Math.Log10(1 / (1 - Math.Min(p, 99.999) / 100));
            var top = 0.0;
            foreach (var c in cell.OrderBy(c => colors.IndexOf(c.Key.Target)))
            {
                var points = c.Summary!.LatencyDistribution!.Where(p => p.Percentile < 100).ToList();
                var line = plot.Add.Scatter(points.Select(p => X(p.Percentile)).ToArray(), points.Select(p => p.Ms).ToArray());
                line.Color = colors.Of(c.Key.Target);
                line.LineWidth = 2;
                line.MarkerSize = 6;
                line.LegendText = $"{c.Key.Target} (max {c.Summary.LatencyMaxMs.ToString("0.##", CultureInfo.InvariantCulture)} ms)";
                top = Math.Max(top, points.Max(p => p.Ms));
            }
            var ticks = new[] { 0.0, 50, 90, 99, 99.9, 99.99, 99.999 };
            plot.Axes.Bottom.SetTicks(ticks.Select(X).ToArray(), ticks.Select(t => t.ToString("0.###", CultureInfo.InvariantCulture) + "%").ToArray());
            plot.Axes.Bottom.Label.Text = "percentile (log scale of 1/(1−p))";
            plot.Axes.Left.Label.Text = "latency from the intended send time (ms)";
            plot.Axes.SetLimits(0, X(99.999) * 1.02, 0, top * 1.1);
            plot.Legend.FontSize = 11;
            plot.ShowLegend(Edge.Bottom);
            var size = rated.HasSizes(key.Endpoint) ? " " + cell.First().SizeLabel : "";
            var rate = key.Rate!.Value.ToString("0", CultureInfo.InvariantCulture);
            var name = $"latency-{key.Endpoint}{(size.Length > 0 ? "-" + cell.First().SizeLabel : "")}-c{key.Concurrency}-{rate}rps";
            yield return Charts.Make(run, cell.ToList(), name, $"Latency distribution at {rate} req/s: {key.Endpoint}{size}",
                plot, "fixed rate (open model), the median repeat's HDR histogram; coordinated omission corrected");
        }
    }
}
