using Comparator.Measuring;
using Comparator.Results;
using ScottPlot;
using Comparator.Reports.Exporters;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Plots;

/// <summary>
/// The hockey stick of each cell of a capacity run: latency at the first objective's percentile
/// against the offered rate, every step of every launch, each target in its colour (a filled marker
/// where the step held, an open one where it broke), the objective as a black line, and each
/// target's capacity as a vertical line. Latency counts from the intended send: the knee is not hidden.
/// </summary>
public static class CapacityChart
{
    /// <summary>Steps whose latency is above this many times the bound are drawn at that height, so the knee stays readable.</summary>
    public const double Clip = 4;

    public static IEnumerable<Chart> Build(CapacityResult result)
    {
        if (result.Capacity.Objectives.Count == 0) yield break;
        var objective = LatencyObjective.Parse(result.Capacity.Objectives[0]).Value; // read back by CapacityReport.Deserialize
        var bound = objective.BoundMs;
        var targets = result.Spec.Targets.Concat(result.Cells.Select(c => c.Key.Target)).Distinct().ToList();
        Color ColorOf(string t) => new ScottPlot.Palettes.Category10().GetColor(Math.Max(0, targets.IndexOf(t)));
        foreach (var cell in result.Cells.GroupBy(c => (c.Key.Endpoint, c.Key.SizeBytes, c.Key.Concurrency, c.Key.Cores)))
        {
            var plot = new Plot();
            var right = 1.0;
            foreach (var target in cell.OrderBy(c => targets.IndexOf(c.Key.Target)))
            {
                var steps = target.Launches.SelectMany(l => l.Steps).Where(s => s.ObjectiveMs.FirstOrDefault() is not null).ToList();
                if (steps.Count == 0) continue;
                right = Math.Max(right, steps.Max(s => s.Rate));
                foreach (var (held, shape) in new[] { (true, MarkerShape.FilledCircle), (false, MarkerShape.OpenCircle) })
                {
                    var these = steps.Where(s => (s.Failure is null) == held).ToList();
                    if (these.Count == 0) continue;
                    var points = plot.Add.ScatterPoints(these.Select(s => s.Rate).ToArray(), these.Select(s => Math.Min(s.ObjectiveMs[0]!.Value, Clip * bound)).ToArray());
                    points.Color = ColorOf(target.Key.Target);
                    points.MarkerShape = shape;
                    points.MarkerSize = 8;
                    points.LegendText = $"{target.Key.Target}: {(held ? "held" : "broke")}";
                }
                if (target.Summary?.Capacity is double capacity)
                {
                    var line = plot.Add.VerticalLine(capacity);
                    line.Color = ColorOf(target.Key.Target);
                    line.LineWidth = 2;
                    line.LegendText = string.Create(CultureInfo.InvariantCulture, $"{target.Key.Target} capacity {capacity:0} req/s");
                }
            }
            var objectiveLine = plot.Add.HorizontalLine(bound);
            objectiveLine.Color = Colors.Black;
            objectiveLine.LineWidth = 1.5f;
            objectiveLine.LegendText = $"objective {result.Capacity.Objectives[0]}";
            plot.Axes.SetLimits(0, right * 1.05, 0, Clip * bound * 1.05);
            plot.Axes.Bottom.Label.Text = "offered rate (requests/s, constant arrival)";
            plot.Axes.Left.Label.Text = $"latency p{objective.Percentile:0.###} from the intended send (ms)";
            plot.Legend.FontSize = 11;
            plot.ShowLegend(Edge.Bottom);
            var (endpoint, size, concurrency, cores) = cell.Key;
            var sizeLabel = size > 0 ? " " + Contracts.PayloadCatalogue.SizeLabel(size) : "";
            var name = $"capacity-{endpoint}{(size > 0 ? "-" + Contracts.PayloadCatalogue.SizeLabel(size) : "")}-c{concurrency}" + (cores is null or CoresSpec.SharedLabel ? "" : "-" + cores);
            var subtitle = string.Create(CultureInfo.InvariantCulture,
                $"every step of {result.Spec.Launches} launch(es): filled = held, open = broke; above {Clip}x the objective drawn at the top\n" +
                $"concurrency {concurrency} · socket driver, open model · {Charts.Machine(result.Spec.Machine)}");
            yield return Charts.Decorated(name, $"Latency against offered rate: {endpoint}{sizeLabel}, {CoreParts.Short(result.Spec)}", subtitle, plot);
        }
    }
}
