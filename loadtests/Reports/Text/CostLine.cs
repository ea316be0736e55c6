using Comparator.Comparing;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Reports.Text;

/// <summary>
/// A judged figure's part of a verdict's line, for any figure its descriptor names: both sides' values in the figure's
/// unit, then the verdict (who is better, by how much, with the interval) or why there is none. And, when a count of
/// work and the headline (req/s) are both settled and point opposite ways, the sentence that says so and names the
/// likely cause from the figures, since the same work is not the same time.
/// </summary>
public static class CostLine
{
    /// <summary>
    /// "instructions/req 300k vs 400k: wcf-classic lower, 1.33x (99% interval 1.30x–1.36x)": the figure of other vs baseline and
    /// its verdict; null where neither side has it and no verdict was made.
    /// </summary>
    public static string? Judged(MetricDescriptor figure, CellVerdict? v, Measurement a, Measurement b)
    {
        var (va, vb) = (figure.Of(a), figure.Of(b));
        if (va is null && vb is null && v is null) return null;
        return $"{figure.Label} {figure.Show(vb)} vs {figure.Show(va)}: {Said(figure, v)}";
    }

    /// <summary>
    /// What a verdict on a figure says: "wcf-classic lower, 1.33x (99% interval 1.30x–1.36x)", a lead stated from the leader's
    /// side (its ratio above 1, whichever way the figure is better); "equivalent (1.01x, interval …)"; "not settled (…)"; or why not.
    /// </summary>
    public static string Said(MetricDescriptor figure, CellVerdict? v)
    {
        if (v is null) return "not judged";
        if (v.Leader is string leader && v.Ratio is double r && v.RatioLow is double lo && v.RatioHigh is double hi)
        {
            var (ratio, low, high) = JudgedTable.Advantage(v, leader);
            return $"{leader} {(figure.HigherIsBetter ? "higher" : "lower")}, {Format.Ratio(ratio)} ({Format.Percent(v.Confidence)} interval {Format.Ratio(low)}–{Format.Ratio(high)}" +
                   (v.WithinMargin ? ", by less than the margin" : "") + ")";
        }
        if (v.RatioLow is not null && !FewLaunches.Bounds(v)) return $"{v.Said()} ({Format.Ratio(v.Ratio!.Value)}; {FewLaunches.Words(v)})";
        if (v.RatioLow is double l && v.RatioHigh is double h)
            return $"{v.Said()} ({Format.Ratio(v.Ratio!.Value)}, {Format.Percent(v.Confidence)} interval {Format.Ratio(l)}–{Format.Ratio(h)})";
        return v.Reason ?? "not judged";
    }

    /// <summary>
    /// When the faster side (the headline, req/s) is the one a count of work finds dearer: what the figures say of why. More cores
    /// busy, fewer waits, or a higher IPC turn more work into more answers per second; null when the two verdicts do not both name
    /// a leader, name the same side, or the figure is no count.
    /// </summary>
    public static string? Disagreement(CellVerdict? headline, CellVerdict? counted, string baseline, Measurement a, string other, Measurement b)
    {
        if (counted?.Figure is not { Judging.Counted: true } figure) return null;
        if (headline?.Leader is not string faster || counted.Leader is not string leaner || faster == leaner) return null;
        var (fast, slow) = faster == other ? (b, a) : (a, b);
        var slowName = faster == other ? baseline : other;
        var causes = new List<string>();
        if (Metrics.ServerCores.Of(fast) is double cf && Metrics.ServerCores.Of(slow) is double cs && cf > cs * 1.1)
            causes.Add($"it kept more cores busy ({cf:0.00} vs {cs:0.00})");
        if (fast.SwitchesPerRequest is double wf && slow.SwitchesPerRequest is double ws && ws > wf * 1.2)
            causes.Add($"{slowName} waited more (context switches per request {ws:0.00} vs {wf:0.00})");
        if (Metrics.InstructionsPerCycle.Of(fast) is double pf && Metrics.InstructionsPerCycle.Of(slow) is double ps && pf > ps * 1.1)
            causes.Add($"its instructions ran faster (IPC {pf:0.00} vs {ps:0.00})");
        var headlineFigure = headline.Figure ?? Metrics.Headline;
        return $"{headlineFigure.Judging!.Short} and {figure.Judging!.Short} point opposite ways: {faster} {headlineFigure.Judging.Leads} {slowName} though it is the dearer in {figure.Judging.Noun}; " +
               (causes.Count > 0 ? "likely because " + string.Join(", and ", causes) : "none of cores busy, context switches or IPC explains it here: a wait outside the server (the driver, the network stack) may") +
               $". A count of work is not a time.";
    }
}
