using Comparator.Results;
using ScottPlot;

namespace Comparator.Reports.Plots;

/// <summary>
/// Cost a request against the body's size, one chart per endpoint for the first figure the run has size models of: each target's measured
/// points (the mean over launches, whiskers the least and most of a launch) and its fitted line, drawn from 0 KB to the largest size
/// measured and no further, on linear axes so a straight line is straight.
/// </summary>
internal static class SizeModelChart
{
    public static IEnumerable<(string Endpoint, MetricDescriptor Figure, Plot Plot)> Build(SizeModelSet set, Palette colors)
    {
        var figure = Comparing.SizeModelFit.Figures.FirstOrDefault(f => set.Models.Any(m => m.Figure == f.Id));
        if (figure is null) yield break;
        foreach (var endpoint in set.Models.Where(m => m.Figure == figure.Id).GroupBy(m => m.Endpoint))
        {
            var plot = new Plot();
            var largest = endpoint.Max(m => m.LargestKb);
            foreach (var model in endpoint.OrderBy(m => colors.IndexOf(m.Target)))
            {
                var color = colors.Of(model.Target);
                if (model.Pieces is { } pieces)
                {
                    // A model the line does not hold: each piece over its own sizes, a fitted line solid (from 0 KB where it starts at the
                    // smallest size), a segment between two measured means dashed.
                    foreach (var (piece, i) in pieces.Select((p, i) => (p, i)))
                    {
                        var (fromKb, toKb) = (piece.FromBytes / 1024.0, piece.ToBytes / 1024.0);
                        var drawn = piece.Fixed is { } f && pieces.Count == 2
                            ? plot.Add.Line(i == 0 ? 0 : fromKb, f.Value + piece.PerKb.Value * (i == 0 ? 0 : fromKb), toKb, f.Value + piece.PerKb.Value * toKb)
                            : plot.Add.Line(fromKb, model.Points.First(p => p.SizeBytes == piece.FromBytes).Mean, toKb, model.Points.First(p => p.SizeBytes == piece.ToBytes).Mean);
                        drawn.Color = color;
                        drawn.LineWidth = 2;
                        if (piece.Fixed is null || pieces.Count > 2) drawn.LinePattern = LinePattern.Dashed;
                        if (i == 0)
                            drawn.LegendText = $"{model.Target}, in pieces (the line bends): " +
                                               string.Join(", ", pieces.Select(p => $"{figure.Show(p.PerKb.Value)}/KB {p.FromLabel}–{p.ToLabel}"));
                    }
                }
                else
                {
                    var line = plot.Add.Line(0, model.Fixed.Value, model.LargestKb, model.Fixed.Value + model.PerKb.Value * model.LargestKb);
                    line.Color = color;
                    line.LineWidth = 2;
                    line.LegendText = $"{model.Target}: {figure.Show(model.Fixed.Value)} + {figure.Show(model.PerKb.Value)}/KB";
                }
                var xs = model.Points.Select(p => p.SizeBytes / 1024.0).ToArray();
                var ys = model.Points.Select(p => p.Mean).ToArray();
                if (model.Launches.Count > 1)
                {
                    var whisker = new ScottPlot.Plottables.ErrorBar(xs, ys, null, null,
                        model.Points.Select(p => p.Most - p.Mean).ToArray(), model.Points.Select(p => p.Mean - p.Least).ToArray());
                    plot.Add.Plottable(whisker);
                    whisker.Color = color.WithAlpha(0.8);
                    whisker.CapSize = 6;
                }
                var points = plot.Add.ScatterPoints(xs, ys);
                points.Color = color;
                points.MarkerSize = 9;
            }
            plot.Axes.Bottom.Label.Text = "body size (KB, linear scale)";
            plot.Axes.Left.Label.Text = $"{figure.Label} (linear scale, from 0)";
            var top = endpoint.SelectMany(m => m.Points.Select(p => p.Most).Append(m.Fixed.Value + m.PerKb.Value * m.LargestKb)).Max();
            plot.Axes.SetLimits(-largest * 0.03, largest * 1.05, 0, top * 1.1);
            plot.Legend.FontSize = 11;
            plot.ShowLegend(Edge.Bottom);
            yield return (endpoint.Key, figure, plot);
        }
    }
}
