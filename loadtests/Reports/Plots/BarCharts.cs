using Comparator.Results;
using ScottPlot;

namespace Comparator.Reports.Plots;

/// <summary>The bar charts per cell: requests/s, p50 and p99 latency, server CPU per request, and the bytes beyond the body (overhead).</summary>
internal static class BarCharts
{
    /// <summary>
    /// One group of bars per endpoint x size x concurrency, one bar per target; whiskers over the windows where there are several: the
    /// measured repeats, or those <paramref name="windows"/> names (a simulated figure's own).
    /// </summary>
    public static Plot Grouped(IReadOnlyList<CellResult> cells, Palette colors, Func<Measurement, double?> value, string axisLabel, bool whiskers = true,
        Func<CellResult, IReadOnlyList<Measurement>>? windows = null)
    {
        var plot = new Plot();
        var targets = cells.Select(c => c.Key.Target).Distinct().OrderBy(colors.IndexOf).ToList();
        var groups = cells.GroupBy(Category).ToList();
        var bars = new List<Bar>();
        var whiskerXs = new List<double>();
        var whiskerYs = new List<double>();
        var whiskerUp = new List<double>();
        var whiskerDown = new List<double>();
        for (var g = 0; g < groups.Count; g++)
            foreach (var cell in groups[g])
                if (value(cell.Summary!) is double v)
                {
                    var position = g * (targets.Count + 1) + targets.IndexOf(cell.Key.Target);
                    bars.Add(new Bar { Position = position, Value = v, FillColor = colors.Of(cell.Key.Target), LineWidth = 0 });
                    var repeats = (windows?.Invoke(cell) ?? cell.Repeats).Select(value).OfType<double>().ToList();
                    if (whiskers && repeats.Count > 1)
                    {
                        whiskerXs.Add(position);
                        whiskerYs.Add(v);
                        whiskerUp.Add(Math.Max(0, repeats.Max() - v));
                        whiskerDown.Add(Math.Max(0, v - repeats.Min()));
                    }
                }
        BarsWithWhiskers(plot, bars, whiskerXs, whiskerYs, whiskerUp, whiskerDown);
        Ticks(plot, groups.Select(g => g.Key).ToList(), targets.Count);
        Legend(plot, targets, colors);
        plot.Axes.Left.Label.Text = axisLabel;
        plot.Axes.Margins(bottom: 0);
        return plot;
    }

    /// <summary>
    /// What each request costs beyond its body: response heads and chunk framing (wire bytes minus
    /// body bytes). Drawn on its own, since next to a 64 KB body a 120-byte head would not show.
    /// </summary>
    public static Plot Overhead(IReadOnlyList<CellResult> cells, Palette colors) =>
        Grouped(cells.Where(c => c.Summary!.BodyBytesReceived is not null).ToList(), colors,
            s => s.Requests > 0 ? (double)(s.BytesReceived - s.BodyBytesReceived!.Value) / s.Requests : null, "bytes per response beyond the body", whiskers: false);

    public static string Category(CellResult c) => c.Key.Endpoint + (c.Key.SizeBytes > 0 ? " " + c.SizeLabel : "") + $" c{c.Key.Concurrency}";

    /// <summary>The bars, and a whisker (min–max of the windows) on each bar that has one.</summary>
    public static void BarsWithWhiskers(Plot plot, List<Bar> bars, List<double> xs, List<double> ys, List<double> up, List<double> down)
    {
        plot.Add.Bars(bars);
        if (xs.Count == 0) return;
        var error = new ScottPlot.Plottables.ErrorBar(xs, ys, null, null, up, down);
        plot.Add.Plottable(error);
        error.Color = Colors.Black.WithAlpha(0.75);
        error.LineWidth = 1.2f;
        error.CapSize = 4;
    }

    public static void Ticks(Plot plot, IReadOnlyList<string> categories, int perGroup)
    {
        plot.Axes.Bottom.SetTicks(categories.Select((_, g) => g * (perGroup + 1) + (perGroup - 1) / 2.0).ToArray(), categories.ToArray());
        plot.Axes.Bottom.TickLabelStyle.Rotation = 30;
        plot.Axes.Bottom.TickLabelStyle.Alignment = Alignment.MiddleLeft;
        plot.Axes.Bottom.MinimumSize = 120;
        plot.Axes.Right.MinimumSize = 70; // the last rotated category label runs to the right of the data
    }

    private static void Legend(Plot plot, IReadOnlyList<string> targets, Palette colors)
    {
        foreach (var target in targets)
            plot.Legend.ManualItems.Add(new LegendItem { LabelText = target, FillColor = colors.Of(target) });
        plot.Legend.FontSize = 11;
        plot.Legend.Orientation = Orientation.Horizontal;
        plot.ShowLegend(Edge.Top); // outside the data: inside, it hid the tallest bars' whiskers
    }
}
