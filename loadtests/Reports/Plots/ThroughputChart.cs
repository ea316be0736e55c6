using Comparator.Results;
using ScottPlot;
using Comparator.Reports.Text;

namespace Comparator.Reports.Plots;

/// <summary>The size chart (throughput): requests/s against payload size, log-log from <see cref="LogYFromSizes"/> sizes on.</summary>
internal static class ThroughputChart
{
    /// <summary>From this many payload sizes on, the size chart's requests/s axis is logarithmic too.</summary>
    public const int LogYFromSizes = 4;

    private static string Si(double v) => v switch
    {
        >= 1e6 => (v / 1e6).ToString("0.#", CultureInfo.InvariantCulture) + "M",
        >= 1e3 => (v / 1e3).ToString("0.#", CultureInfo.InvariantCulture) + "k",
        >= 1 => v.ToString("0.#", CultureInfo.InvariantCulture),
        _ => v.ToString("0.###", CultureInfo.InvariantCulture),
    };

    /// <summary>Requests/s against payload size: one colour per target, one line pattern and marker per endpoint, whiskers min–max of the repeats.</summary>
    public static (Plot Plot, string Note) Build(RunResult run, IReadOnlyList<CellResult> cells, Palette colors)
    {
        var plot = new Plot();
        var sized = cells.Where(c => c.Key.SizeBytes > 0).ToList();
        var sizes = sized.Select(c => c.Key.SizeBytes).Distinct().OrderBy(s => s).ToList();
        var logY = sizes.Count >= LogYFromSizes;
        var concurrencies = sized.Select(c => c.Key.Concurrency).Distinct().OrderBy(c => c).ToList();
        double Y(double rps) => logY ? Math.Log10(Math.Max(rps, 0.1)) : rps;
        var endpoints = ChartStyle.SizedEndpoints(run);
        var lines = sized.GroupBy(c => (c.Key.Target, c.Key.Endpoint, c.Key.Concurrency))
            .OrderBy(g => colors.IndexOf(g.Key.Target)).ThenBy(g => ChartStyle.Index(endpoints, g.Key.Endpoint)).ThenBy(g => g.Key.Concurrency)
            .Select(g => g.OrderBy(c => c.Key.SizeBytes).ToList()).ToList();
        var found = Crossovers.Find(run);
        var ys = sized.SelectMany(c => new[] { c.RpsMin ?? c.Summary!.RequestsPerSecond, c.RpsMax ?? c.Summary!.RequestsPerSecond }).ToList();

        // Limits first: the dashes are cut to a length in pixels, and the crossover labels need a band on top.
        var max = ys.DefaultIfEmpty(1).Max();
        var min = logY ? ys.Where(v => v > 0).DefaultIfEmpty(1).Min() : 0;
        var headroom = found.Any(c => c.Changes.Any()) ? 0.6 : 0.12;
        var (bottom, top) = logY
            ? (Math.Log10(min) - 0.08, Math.Log10(max) + (Math.Log10(max) - Math.Log10(min) + 0.3) * headroom)
            : (0, max * (1 + headroom));
        var (left, right) = sizes.Count > 0
            ? (Math.Log10(sizes[0]) - Math.Max(Math.Log10(sizes[^1]) - Math.Log10(sizes[0]), 0.5) * 0.05, Math.Log10(sizes[^1]) + Math.Max(Math.Log10(sizes[^1]) - Math.Log10(sizes[0]), 0.5) * 0.05)
            : (0, 1);
        var frame = new DashedLines.Frame(left, right, bottom, top);

        foreach (var points in lines)
        {
            var key = points[0].Key;
            var xs = points.Select(c => Math.Log10(c.Key.SizeBytes)).ToArray();
            var mid = points.Select(c => c.Summary!.RequestsPerSecond).ToArray();
            var lo = points.Select(c => c.RpsMin ?? c.Summary!.RequestsPerSecond).ToArray();
            var hi = points.Select(c => c.RpsMax ?? c.Summary!.RequestsPerSecond).ToArray();
            var color = colors.Of(key.Target);
            var e = ChartStyle.Index(endpoints, key.Endpoint);
            var marker = concurrencies.Count > 1 ? ChartStyle.Markers[concurrencies.IndexOf(key.Concurrency) % ChartStyle.Markers.Length] : ChartStyle.Markers[e % ChartStyle.Markers.Length];

            if (points.Any(c => c.Repeats.Count > 1))
            {
                var whisker = new ScottPlot.Plottables.ErrorBar(xs, mid.Select(Y).ToArray(), null, null,
                    mid.Select((m, i) => Y(hi[i]) - Y(m)).ToArray(), mid.Select((m, i) => Y(m) - Y(lo[i])).ToArray());
                plot.Add.Plottable(whisker);
                whisker.Color = color.WithAlpha(0.8);
                whisker.LineWidth = 1.5f;
                whisker.CapSize = 6;
            }
            DashedLines.Polyline(plot, frame, xs, mid.Select(Y).ToArray(), color, 2, e % DashedLines.DashPatterns.Length);
            var scatter = plot.Add.ScatterPoints(xs, mid.Select(Y).ToArray());
            scatter.LegendText = $"{key.Target} · {key.Endpoint}" + (concurrencies.Count > 1 ? $" c{key.Concurrency}" : "") + $" ({ChartStyle.PatternNames[e % ChartStyle.PatternNames.Length]})";
            scatter.Color = color;
            scatter.MarkerShape = marker;
            scatter.MarkerSize = 8;
        }

        if (sizes.Count > 0)
            plot.Axes.Bottom.SetTicks(sizes.Select(s => Math.Log10(s)).ToArray(), sizes.Select(s => sized.First(c => c.Key.SizeBytes == s).SizeLabel).ToArray());
        plot.Axes.Bottom.Label.Text = "payload size (log scale)";
        plot.Axes.Left.Label.Text = logY ? "requests/s (log scale)" : "requests/s (linear scale)";
        if (logY)
        {
            var ticks = LogTicks(min, max);
            plot.Axes.Left.SetTicks(ticks.Select(Math.Log10).ToArray(), ticks.Select(Si).ToArray());
        }
        plot.Axes.SetLimits(left, right, bottom, top);
        var note = CrossoverMarks.Draw(run, plot, frame, found, sizes);
        plot.Legend.FontSize = 11;
        plot.Legend.Orientation = Orientation.Horizontal;
        plot.ShowLegend(Edge.Bottom);
        return (plot, note);
    }

    /// <summary>Ticks 1, 2, 5 x 10^k spanning [min, max].</summary>
    private static IReadOnlyList<double> LogTicks(double min, double max)
    {
        var ticks = new List<double>();
        for (var decade = Math.Pow(10, Math.Floor(Math.Log10(min))); decade <= max * 10; decade *= 10)
            foreach (var m in new[] { 1.0, 2, 5 })
                if (decade * m >= min * 0.8 && decade * m <= max * 1.25) ticks.Add(decade * m);
        return ticks;
    }
}
