using Comparator.Results;
using ScottPlot;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Plots;

/// <summary>The charts of a run under several allotments of cores: requests/s and server CPU per request against the servers' cores.</summary>
public static partial class Charts
{
    /// <summary>The name of the chart of req/s against the servers' cores, the summary's chart of a cores run.</summary>
    public const string CoresChart = "cores";

    /// <summary>
    /// Requests/s and server CPU per request against the servers' cores: per cell, a bar per target and
    /// allotment (the target's colour, fainter for each later allotment), whiskers min–max of the windows.
    /// </summary>
    private static IEnumerable<Chart> AcrossCores(RunResult run)
    {
        var cells = run.ComparedCells().Where(c => c.Summary is not null).ToList();
        if (cells.Count == 0) yield break;
        var colors = new Palette(run);
        var allotments = run.Spec.Cores!;
        var series = cells.Select(c => c.Key.Target).Distinct().OrderBy(colors.IndexOf)
            .SelectMany(t => allotments.Select((a, i) => (Target: t, Cores: a, Index: i))).ToList();
        // A target's colour, fainter for each later allotment.
        Color Shade(string target, int allotment) => colors.Of(target).WithAlpha(1 - 0.55 * allotment / Math.Max(1, allotments.Count - 1));
        Plot Draw(Func<Measurement, double?> value, string axis)
        {
            var plot = new Plot();
            var groups = cells.GroupBy(BarCharts.Category).ToList();
            var bars = new List<Bar>();
            var (xs, ys, up, down) = (new List<double>(), new List<double>(), new List<double>(), new List<double>());
            for (var g = 0; g < groups.Count; g++)
                for (var k = 0; k < series.Count; k++)
                {
                    var cell = groups[g].FirstOrDefault(c => c.Key.Target == series[k].Target && c.Key.Cores == series[k].Cores.Label);
                    if (cell is null || value(cell.Summary!) is not double v) continue;
                    var position = g * (series.Count + 1) + k;
                    bars.Add(new Bar { Position = position, Value = v, FillColor = Shade(series[k].Target, series[k].Index), LineWidth = 0 });
                    var windows = cell.Repeats.Select(value).OfType<double>().ToList();
                    if (windows.Count < 2) continue;
                    xs.Add(position); ys.Add(v); up.Add(Math.Max(0, windows.Max() - v)); down.Add(Math.Max(0, v - windows.Min()));
                }
            BarCharts.BarsWithWhiskers(plot, bars, xs, ys, up, down);
            BarCharts.Ticks(plot, groups.Select(g => g.Key).ToList(), series.Count);
            plot.Legend.ManualItems.AddRange(series.Select(s => new LegendItem
            {
                LabelText = $"{s.Target}, {CoreParts.Short(run.Spec, s.Cores)}",
                FillColor = Shade(s.Target, s.Index),
            }));
            plot.Legend.FontSize = 11;
            plot.Legend.Orientation = Orientation.Horizontal;
            plot.ShowLegend(Edge.Top);
            plot.Axes.Left.Label.Text = axis;
            plot.Axes.Margins(bottom: 0);
            return plot;
        }
        var whiskers = cells.Any(c => c.Repeats.Count > 1) ? "bar = median window, whisker = min–max of every launch's windows" : "one window";
        var under = string.Join(" · ", allotments.Select(a => a.Description));
        yield return Make(run, cells, CoresChart, "Requests per second against the servers' cores", Draw(m => m.RequestsPerSecond, "requests/s"), $"{whiskers}\n{under}");
        yield return Make(run, cells, CoresChart + "-cpu", "Server CPU µs per request against the servers' cores",
            Draw(m => m.ServerCpuUsPerRequest, "server CPU µs per request"), $"{whiskers}\n{under}");
    }
}
