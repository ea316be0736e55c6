using Comparator.Comparing;
using Comparator.Results;
using Comparator.Statistics;
using ScottPlot;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Plots;

/// <summary>
/// Every judgment of a run at a glance (a forest plot): one row per cell and figure, the baseline's
/// advantage (<see cref="Drawn"/>, the same way round for every figure) as a dot on a log axis, the lead interval as a thin line and the equivalence (90%)
/// interval as a thick one, against the equivalence band (shaded) and the minimum effect (dashed).
/// Coloured by outcome, so a reader sees which questions are settled before reading a line. Rows read
/// from the run's stored verdicts only.
/// </summary>
public static class ForestChart
{
    public const string Name = "judgments";

    private static readonly Color Lead = Color.FromHex("#1b7837");
    private static readonly Color Same = Color.FromHex("#2166ac");
    private static readonly Color Open = Color.FromHex("#d6604d");

    /// <summary>The colour of an outcome, as the chart and its legend use it.</summary>
    public static Color Of(CellVerdict v) => Settled(v) switch { 0 => Lead, 1 => Same, _ => Open };

    /// <summary>0 a lead, 1 sameness, 2 the rest: the outcome's colour, and the rows' order (settled on top).</summary>
    private static int Settled(CellVerdict v) => v.Leader is not null ? 0 : v.Outcome == CellVerdict.Equivalent ? 1 : 2;

    /// <summary>
    /// The judged rows grouped by figure (in the judged order: req/s, then the counts of work, then the rest), settled ones on top within
    /// each (leads, then sameness, then the rest); only verdicts with an interval.
    /// </summary>
    public static IReadOnlyList<CellVerdict> Rows(RunResult run)
    {
        var order = Metrics.Judged.ToList();
        return run.InReportOrder().Where(v => v.RatioLow is > 0 && v.RatioHigh is > 0 && v.Ratio is > 0)
            .OrderBy(v => v.Figure is { } f ? order.IndexOf(f) : order.Count).ThenBy(Settled).ToList();
    }

    /// <summary>
    /// A row as it is drawn: the baseline's advantage, whichever way the figure is better (baseline/other for a figure where higher is
    /// better, other/baseline for a cost), so that every row where the baseline leads lies right of 1x and every row where the other
    /// leads lies left, whatever the figure: one orientation for the whole chart.
    /// </summary>
    public static (double Ratio, double Low, double High, double? EquivalenceLow, double? EquivalenceHigh) Drawn(CellVerdict v)
    {
        if (!(v.Figure?.HigherIsBetter ?? true)) return (v.Ratio!.Value, v.RatioLow!.Value, v.RatioHigh!.Value, v.EquivalenceLow, v.EquivalenceHigh);
        return (1 / v.Ratio!.Value, 1 / v.RatioHigh!.Value, 1 / v.RatioLow!.Value, 1 / v.EquivalenceHigh, 1 / v.EquivalenceLow);
    }

    /// <summary>"req/s echo-post 4KB", "cpu echo-post 4KB @2000/s": what a row judged (pair added when the run has several).</summary>
    public static string Label(RunResult run, CellVerdict v, bool pairs)
    {
        var figure = v.Figure?.Judging?.Short ?? v.Metric;
        var size = run.Cells.HasSizes(v.Endpoint) ? " " + (run.Cells.FirstOrDefault(c => c.Key.SizeBytes == v.SizeBytes)?.SizeLabel ?? "") : "";
        var rate = v.Rate is double r ? string.Create(CultureInfo.InvariantCulture, $" @{r:0}/s") : "";
        return $"{figure} {v.Endpoint}{size}{rate}" + (pairs ? $" ({v.Other})" : "");
    }

    public static Chart? Build(RunResult run)
    {
        var rows = Rows(run);
        if (rows.Count == 0) return null;
        var rule = PairVerdicts.RuleOf(run.Spec);
        var pairs = rows.Select(v => v.Other).Distinct().Count() > 1;
        var plot = new Plot();
        double X(double ratio) => Math.Log10(ratio);
        // The axis spans every estimate and the bands; intervals reaching past 1/3x or 3x run off its edge
        // rather than squeeze every other row into a sliver.
        var drawn = rows.Select(Drawn).ToList();
        var lowest = Math.Max(Math.Min(drawn.Min(d => d.Low), 1 / (1 + rule.Equivalence)), Math.Min(1 / 3.0, drawn.Min(d => d.Ratio) / 1.1));
        var highest = Math.Min(Math.Max(drawn.Max(d => d.High), 1 + rule.Equivalence), Math.Max(3.0, drawn.Max(d => d.Ratio) * 1.1));
        var span = plot.Add.HorizontalSpan(X(1 / (1 + rule.Equivalence)), X(1 + rule.Equivalence));
        span.FillStyle.Color = Same.WithAlpha(0.12);
        span.LineStyle.Width = 0;
        span.LegendText = $"equivalence margin ±{Format.Percent(rule.Equivalence)}";
        foreach (var edge in new[] { 1 / (1 + rule.MinEffect), 1 + rule.MinEffect })
        {
            var line = plot.Add.VerticalLine(X(edge));
            line.Color = Colors.Black.WithAlpha(0.5);
            line.LineWidth = 1;
            line.LinePattern = LinePattern.Dashed;
            line.LegendText = edge > 1 ? $"minimum effect ±{Format.Percent(rule.MinEffect)}" : "";
        }
        var one = plot.Add.VerticalLine(0);
        one.Color = Colors.Black.WithAlpha(0.8);
        one.LineWidth = 1;
        for (var i = 0; i < rows.Count; i++)
        {
            var v = rows[i];
            var d = drawn[i];
            var y = rows.Count - 1 - i;
            var color = Of(v);
            var thin = plot.Add.Line(X(d.Low), y, X(d.High), y);
            thin.Color = color;
            thin.LineWidth = 1.5f;
            if (d.EquivalenceLow is double el && d.EquivalenceHigh is double eh)
            {
                var thick = plot.Add.Line(X(el), y, X(eh), y);
                thick.Color = color;
                thick.LineWidth = 5;
            }
            var dot = plot.Add.Marker(X(d.Ratio), y);
            dot.Color = color;
            dot.Size = 9;
            dot.Shape = MarkerShape.FilledCircle;
        }
        // The legend's outcome entries: one invisible marker each.
        foreach (var (color, text) in new[] { (Lead, "a lead (interval beyond the minimum effect)"), (Same, "equivalent (90% interval within the margin)"), (Open, "not settled") })
        {
            var key = plot.Add.Marker(double.NaN, double.NaN);
            key.Color = color;
            key.Size = 9;
            key.LegendText = text;
        }
        plot.Axes.Left.SetTicks(Enumerable.Range(0, rows.Count).Select(i => (double)(rows.Count - 1 - i)).ToArray(), rows.Select(v => Label(run, v, pairs)).ToArray());
        // Ticks no closer than a twelfth of the axis, 1x always among them.
        var candidates = new[] { 1.0, 0.95, 1.05, 0.9, 1.1, 0.8, 1.25, 0.67, 1.5, 0.5, 2, 0.33, 3, 0.25, 4 }.Where(t => t >= lowest && t <= highest);
        var ticks = new List<double>();
        foreach (var t in candidates)
            if (ticks.All(k => Math.Abs(X(k) - X(t)) > (X(highest) - X(lowest)) / 12)) ticks.Add(t);
        ticks.Sort();
        plot.Axes.Bottom.SetTicks(ticks.Select(X).ToArray(), ticks.Select(t => Format.Ratio(t)).ToArray());
        var baseline = run.Spec.BaselineTarget;
        var others = string.Join(", ", rows.Select(v => v.Other).Distinct());
        plot.Axes.Bottom.Label.Text = $"← {others} better · {baseline} better →   (log scale; dot, 99% thin, 90% thick)";
        plot.Axes.Bottom.Label.FontSize = 13;
        plot.Axes.SetLimits(X(lowest) - 0.02, X(highest) + 0.02, -0.8, rows.Count - 0.2);
        plot.Legend.FontSize = 11;
        plot.ShowLegend(Edge.Bottom);
        var title = $"Every judgment: {others} against {baseline}";
        // Every figure drawn the same way round, so the note says only what the rows hold.
        var figures = rows.Select(v => v.Figure).OfType<MetricDescriptor>().Distinct().Select(f => f.Judging!.Short);
        var note = $"{rows.Count} judgment{(rows.Count == 1 ? "" : "s")} of {string.Join(", ", figures)}, each drawn as {baseline}'s advantage\nthe servers {CoreParts.Phrase(run.Spec)}";
        // A row takes 22 pixels; title, legend and axis take the rest. A printed page holds 870 pixels of the chart (774 pt at the report's
        // print width), less when the answer above it is long (a default run's, with the simulated pass's eight sentences and each side's counts, left 800): past 24
        // rows they close up (17 pixels at 32 rows, 11 at a default run's 48 with system calls) rather than break across pages.
        return Charts.Titled(run, Name, title, plot, note) with { Height = Math.Max(Chart.DefaultHeight, Math.Min(260 + 22 * rows.Count, MaxPrintedHeight)) };
    }

    private const int MaxPrintedHeight = 800;
}
