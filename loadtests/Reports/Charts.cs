using System;
using System.Collections.Generic;
using System.Linq;
using Comparator.Results;
using ScottPlot;

namespace Comparator.Reports;

/// <summary>One chart of a run: a file name, a title, and the plot (ScottPlot) that draws it.</summary>
public sealed record Chart(string Name, string Title, Plot Plot)
{
    public const int Width = 900;
    public const int Height = 480;

    public string Svg() => Plot.GetSvgXml(Width, Height);
}

/// <summary>
/// The charts of a run, drawn with ScottPlot: requests/s against payload size (log axis), p50 and
/// p99 latency, bytes per response beyond the body (heads and chunk framing), and server CPU per request.
/// With several drivers, the charts show the first one's cells and say so in their titles.
/// </summary>
public static class Charts
{
    public static IReadOnlyList<Chart> Build(RunResult run)
    {
        var driver = run.Spec.Drivers.FirstOrDefault()?.Name;
        var cells = run.Cells.Where(c => c.Summary is not null && c.Key.Driver == driver).ToList();
        var suffix = run.Spec.Drivers.Count > 1 ? $" (driver {driver})" : "";
        var charts = new List<Chart>();
        if (cells.Count == 0) return charts;

        charts.Add(new Chart("throughput", "Requests per second against payload size" + suffix, Throughput(cells)));
        charts.Add(new Chart("latency-p50", "Latency p50 (ms) per cell" + suffix, Grouped(cells, s => s.LatencyP50Ms, "ms")));
        charts.Add(new Chart("latency-p99", "Latency p99 (ms) per cell" + suffix, Grouped(cells, s => s.LatencyP99Ms, "ms")));
        charts.Add(new Chart("overhead", "Response heads and chunk framing per request, bytes beyond the body" + suffix, Overhead(cells)));
        charts.Add(new Chart("cpu", "Server CPU µs per request" + suffix, Grouped(cells, s => s.ServerCpuUsPerRequest, "µs")));
        return charts;
    }

    private static Color ColorOf(int i) => new ScottPlot.Palettes.Category10().GetColor(i);

    private static Plot Throughput(IReadOnlyList<CellResult> cells)
    {
        var plot = new Plot();
        var sized = cells.Where(c => c.Key.SizeBytes > 0).ToList();
        var sizes = sized.Select(c => c.Key.SizeBytes).Distinct().OrderBy(s => s).ToList();
        var i = 0;
        foreach (var line in sized.GroupBy(c => (c.Key.Target, c.Key.Endpoint)))
        {
            var points = line.OrderBy(c => c.Key.SizeBytes).ToList();
            var scatter = plot.Add.Scatter(points.Select(c => Math.Log10(c.Key.SizeBytes)).ToArray(), points.Select(c => c.Summary!.RequestsPerSecond).ToArray());
            scatter.LegendText = $"{line.Key.Target} {line.Key.Endpoint}";
            scatter.Color = ColorOf(i++);
            scatter.MarkerSize = 7;
        }
        if (sizes.Count > 0)
            plot.Axes.Bottom.SetTicks(sizes.Select(s => Math.Log10(s)).ToArray(), sized.GroupBy(c => c.Key.SizeBytes).OrderBy(g => g.Key).Select(g => g.First().SizeLabel).ToArray());
        plot.Axes.Bottom.Label.Text = "payload size (log scale)";
        plot.Axes.Left.Label.Text = "requests/s";
        plot.Axes.Margins(0.08, 0.1);
        plot.Axes.SetLimitsY(0, sized.Select(c => c.Summary!.RequestsPerSecond).DefaultIfEmpty(1).Max() * 1.1);
        plot.ShowLegend(Alignment.UpperRight);
        return plot;
    }

    /// <summary>One group of bars per endpoint x size x concurrency, one bar per target.</summary>
    private static Plot Grouped(IReadOnlyList<CellResult> cells, Func<Measurement, double?> value, string unit)
    {
        var plot = new Plot();
        var targets = cells.Select(c => c.Key.Target).Distinct().ToList();
        var groups = cells.GroupBy(Category).ToList();
        var bars = new List<Bar>();
        for (var g = 0; g < groups.Count; g++)
            foreach (var cell in groups[g])
                if (value(cell.Summary!) is double v)
                    bars.Add(new Bar { Position = g * (targets.Count + 1) + targets.IndexOf(cell.Key.Target), Value = v, FillColor = ColorOf(targets.IndexOf(cell.Key.Target)) });
        plot.Add.Bars(bars);
        Ticks(plot, groups.Select(g => g.Key).ToList(), targets.Count);
        Legend(plot, targets);
        plot.Axes.Left.Label.Text = unit;
        plot.Axes.Margins(bottom: 0);
        return plot;
    }

    /// <summary>
    /// What each request costs beyond its body: response heads and chunk framing (wire bytes minus
    /// body bytes). Drawn on its own, since next to a 64 KB body a 120-byte head would not show.
    /// </summary>
    private static Plot Overhead(IReadOnlyList<CellResult> cells) =>
        Grouped(cells.Where(c => c.Summary!.BodyBytesReceived is not null).ToList(),
            s => s.Requests > 0 ? (double)(s.BytesReceived - s.BodyBytesReceived!.Value) / s.Requests : null, "bytes per response beyond the body");

    private static string Category(CellResult c) => c.Key.Endpoint + (c.Key.SizeBytes > 0 ? " " + c.SizeLabel : "") + $" c{c.Key.Concurrency}";

    private static void Ticks(Plot plot, IReadOnlyList<string> categories, int perGroup)
    {
        plot.Axes.Bottom.SetTicks(categories.Select((_, g) => g * (perGroup + 1) + (perGroup - 1) / 2.0).ToArray(), categories.ToArray());
        plot.Axes.Bottom.TickLabelStyle.Rotation = 30;
        plot.Axes.Bottom.TickLabelStyle.Alignment = Alignment.MiddleLeft;
        plot.Axes.Bottom.MinimumSize = 120;
    }

    private static void Legend(Plot plot, IReadOnlyList<string> targets)
    {
        for (var t = 0; t < targets.Count; t++)
            plot.Legend.ManualItems.Add(new LegendItem { LabelText = targets[t], FillColor = ColorOf(t) });
        plot.ShowLegend(Alignment.UpperLeft);
    }
}
