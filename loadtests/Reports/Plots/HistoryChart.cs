using Comparator.Comparing;
using Comparator.Results;
using ScottPlot;
using Comparator.Reports.Exporters;

namespace Comparator.Reports.Plots;

/// <summary>
/// The trend of one cell and figure across a history's runs: each target's line in its colour (a point per run, the run's interval
/// over its launches as a whisker, an open marker where the cell was contended), a dashed line between the two runs of each change
/// point with its size, and a grey line at each run marked as a baseline. Static SVG through ScottPlot, like every chart of a run.
/// </summary>
public static class HistoryChart
{
    public static IEnumerable<Chart> Build(HistoryGroup group)
    {
        var palette = new ScottPlot.Palettes.Category10();
        var targets = group.Series.Select(s => s.Target).Distinct().ToList();
        foreach (var cell in group.Series.GroupBy(s => (s.CellLabel, s.Metric)))
        {
            var metric = cell.First().Descriptor;
            var plot = new Plot();
            foreach (var series in cell)
            {
                var color = palette.GetColor(targets.IndexOf(series.Target));
                var xs = series.Points.Select(p => (double)p.Run).ToArray();
                var line = plot.Add.Scatter(xs, series.Points.Select(p => p.Value).ToArray());
                line.Color = color;
                line.MarkerSize = 7;
                line.LineWidth = 1.5f;
                line.LegendText = series.Target + (series.Gates ? " (gates)" : "");
                // Contended: something beside the run took the cores (a build, another tenant), the one flag that says a point may not be the build's.
                var flagged = series.Points.Where(p => p.Flags.Contains(Statistics.CellFlags.Contended)).ToList();
                if (flagged.Count > 0)
                {
                    var open = plot.Add.ScatterPoints(flagged.Select(p => (double)p.Run).ToArray(), flagged.Select(p => p.Value).ToArray());
                    open.MarkerShape = MarkerShape.OpenCircle;
                    open.MarkerSize = 13;
                    open.Color = color;
                    open.LegendText = $"{series.Target}: contended run";
                }
                foreach (var p in series.Points.Where(p => p.Low is not null && p.High is not null))
                {
                    var whisker = plot.Add.Line(p.Run, p.Low!.Value, p.Run, p.High!.Value);
                    whisker.Color = color.WithAlpha(0.6);
                    whisker.LineWidth = 1;
                }
                foreach (var change in series.Changes)
                {
                    var at = (change.Before + change.After) / 2.0;
                    var mark = plot.Add.VerticalLine(at);
                    mark.Color = change.Worse ? Colors.Red : Colors.Green;
                    mark.LinePattern = LinePattern.Dashed;
                    mark.LineWidth = 2;
                    mark.Text = $"{series.Target} {Statistics.Format.Signed(change.Change)}";
                    mark.LabelFontSize = 11;
                }
            }
            foreach (var run in group.Runs.Where(r => r.Baseline))
            {
                var baseline = plot.Add.VerticalLine(run.Number);
                baseline.Color = Colors.Gray;
                baseline.LineWidth = 3;
                baseline.Text = $"baseline {run.Number}";
                baseline.LabelFontSize = 11;
            }
            plot.Axes.SetLimitsX(0.5, group.Runs.Count + 0.5);
            plot.Axes.Bottom.TickGenerator = new ScottPlot.TickGenerators.NumericManual(
                group.Runs.Select(r => ((double)r.Number, r.Number.ToString(CultureInfo.InvariantCulture))).Where((_, i) => group.Runs.Count <= 30 || i % 5 == 0)
                    .Select(t => new Tick(t.Item1, t.Item2, true)).ToArray());
            plot.Axes.Bottom.Label.Text = "run (in time order; the table below names each)";
            plot.Axes.Left.Label.Text = metric.Label + metric.Better switch { Better.Higher => " (higher is better)", Better.Lower => " (lower is better)", _ => "" };
            plot.Legend.FontSize = 11;
            plot.ShowLegend(Edge.Bottom);
            var name = Name($"history-{cell.Key.CellLabel}-{metric.Id}");
            var subtitle = "point = a run's geometric mean over its launches, whisker = its interval over them; dashed = a change point (red worse, green better); ring = contended\n" +
                           $"{group.MachineText} · {group.Runs.Count} runs from {group.Runs[0].StartedAt:yyyy-MM-dd HH:mm} to {group.Runs[^1].StartedAt:yyyy-MM-dd HH:mm} UTC";
            yield return Charts.Decorated(name, $"{metric.Label}: {cell.Key.CellLabel}", subtitle, plot) with { Height = 420 };
        }
    }

    /// <summary>A chart's name fit for an HTML id and a file name.</summary>
    private static string Name(string text) => new(text.ToLowerInvariant().Select(c => char.IsAsciiLetterOrDigit(c) || c == '-' ? c : '-').ToArray());
}
