using Comparator.Results;
using ScottPlot;
using Comparator.Reports.Text;

namespace Comparator.Reports.Plots;

/// <summary>The size chart's marks where the lead changes hands as the payload grows.</summary>
internal static class CrossoverMarks
{
    /// <summary>
    /// Thin dashed grey vertical lines where the lead changes (Crossovers), labelled
    /// "endpoint: before → after". With more than one pair (baseline against several targets),
    /// only the baseline against the first other target is marked, and the returned note says so.
    /// </summary>
    public static string Draw(RunResult run, Plot plot, DashedLines.Frame frame, IReadOnlyList<Crossover> found, IReadOnlyList<long> sizes)
    {
        if (found.Count == 0 || sizes.Count < 2) return "";
        var other = found.Select(c => c.Other).Distinct().OrderBy(o => ChartStyle.Index(run.Spec.Targets, o)).First();
        var concurrency = found.Where(c => c.Other == other).Min(c => c.Concurrency);
        var marked = found.Where(c => c.Other == other && c.Concurrency == concurrency).ToList();
        var pair = $"{other} vs {run.Spec.BaselineTarget}" + (found.Select(c => c.Concurrency).Distinct().Count() > 1 ? $", c{concurrency}" : "");
        var changes = marked.SelectMany(c => c.Changes.Select(change => (Crossover: c, Change: change))).ToList();
        if (changes.Count == 0) return $"\nthe lead does not change with the payload size ({pair})";
        var endpoints = marked.Select(c => c.Endpoint).Distinct().ToList();
        // "echo-post", "echo-put" -> "post", "put": the labels stand in a narrow band.
        var prefix = endpoints.All(e => e.Contains('-')) && endpoints.Select(e => e[..(e.IndexOf('-') + 1)]).Distinct().Count() == 1 ? endpoints[0].IndexOf('-') + 1 : 0;
        var grey = Colors.Black.WithAlpha(0.5);
        foreach (var size in changes.GroupBy(c => c.Change.SizeBytes))
        {
            var x = Math.Log10(size.Key);
            DashedLines.Polyline(plot, frame, new[] { x, x }, new[] { frame.Bottom, frame.Top }, grey, 1, 1);
            var label = string.Join("\n", size.Select(c =>
            {
                var measured = c.Crossover.Sizes.Where(v => v.Measured).ToList();
                var before = measured[measured.IndexOf(c.Change) - 1];
                return (endpoints.Count > 1 ? c.Crossover.Endpoint[prefix..] + ": " : "lead: ") + $"{before.Who} → {c.Change.Who}";
            }));
            var text = plot.Add.Text(label, x, frame.Top);
            text.LabelFontSize = 9.5f;
            text.LabelFontColor = Colors.Black.WithAlpha(0.85);
            text.LabelRotation = -90;
            text.LabelAlignment = Alignment.LowerRight;
            text.LabelOffsetX = -2;
            text.LabelOffsetY = 4;
        }
        var only = found.Select(c => c.Other).Distinct().Count() > 1 || found.Count > marked.Count ? " only" : "";
        return $"\ngrey dashed lines: where the verdict changes, {pair}{only}; a lead = the interval wholly beyond the minimum effect, same = equivalent within the margin";
    }
}
