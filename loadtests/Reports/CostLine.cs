using Comparator.Comparing;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Reports;

/// <summary>
/// The cost part of a cell's verdict, led by the instructions a request takes where the CPU's counters were
/// read (the steadiest cost figure: the same work counts alike whatever else the machine did), then server
/// CPU time; and, when instructions and req/s are both settled and point opposite ways, the sentence that says
/// so and names the likely cause from the figures, since the same work is not the same time.
/// </summary>
public static class CostLine
{
    /// <summary>"instructions 412k vs 380k/req: webapi-selfhost fewer, 1.08x (99% interval 1.06x–1.10x)"; null where neither side was counted.</summary>
    public static string? Instructions(CellVerdict? v, Measurement a, Measurement b)
    {
        var ia = Metrics.InstructionsPerRequest.Of(a);
        var ib = Metrics.InstructionsPerRequest.Of(b);
        if (ia is null && ib is null) return null;
        var figures = $"instructions {Count(ib)} vs {Count(ia)}/req";
        if (v is null) return figures;
        if (v.Leader is string leader && v.Ratio is double r && v.RatioLow is double lo && v.RatioHigh is double hi)
        {
            // Stated from the side with fewer instructions, its ratio above 1.
            var (ratio, low, high) = leader == v.Other ? (1 / r, 1 / hi, 1 / lo) : (r, lo, hi);
            return $"{figures}: {leader} fewer, {Format.Ratio(ratio)} ({Format.Percent(v.Confidence)} interval {Format.Ratio(low)}–{Format.Ratio(high)}" +
                   (v.WithinMargin ? ", by less than the margin" : "") + ")";
        }
        if (v.RatioLow is double l && v.RatioHigh is double h)
            return $"{figures}: {v.Said()} ({Format.Ratio(v.Ratio!.Value)}, interval {Format.Ratio(l)}–{Format.Ratio(h)})";
        return $"{figures}: {v.Reason}";
    }

    /// <summary>
    /// When the faster side (req/s) is the one that retires more instructions per request: what the figures say
    /// of why. More cores busy, fewer waits, or a higher IPC turn more work into more answers per second; null
    /// when the two verdicts do not both name a leader, or name the same side.
    /// </summary>
    public static string? Disagreement(CellVerdict? rps, CellVerdict? instructions, string baseline, Measurement a, string other, Measurement b)
    {
        if (rps?.Leader is not string faster || instructions?.Leader is not string leaner || faster == leaner) return null;
        var (fast, slow) = faster == other ? (b, a) : (a, b);
        var slowName = faster == other ? baseline : other;
        var causes = new List<string>();
        double? Cores(Measurement m) => m.ServerCpuSeconds is double s && m.ElapsedSeconds > 0 ? s / m.ElapsedSeconds : null;
        if (Cores(fast) is double cf && Cores(slow) is double cs && cf > cs * 1.1)
            causes.Add($"it kept more cores busy ({cf:0.00} vs {cs:0.00})");
        if (fast.SwitchesPerRequest is double wf && slow.SwitchesPerRequest is double ws && ws > wf * 1.2)
            causes.Add($"{slowName} waited more (context switches per request {ws:0.00} vs {wf:0.00})");
        if (Metrics.InstructionsPerCycle.Of(fast) is double pf && Metrics.InstructionsPerCycle.Of(slow) is double ps && pf > ps * 1.1)
            causes.Add($"its instructions ran faster (IPC {pf:0.00} vs {ps:0.00})");
        return $"req/s and instructions point opposite ways: {faster} answers more requests a second though each takes more instructions; " +
               (causes.Count > 0 ? "likely because " + string.Join(", and ", causes) : "none of cores busy, context switches or IPC explains it here: a wait outside the server (the driver, the network stack) may") +
               ". Instructions count work, not time.";
    }

    /// <summary>A count per request in thousands ("412k") or as it is under ten thousand.</summary>
    public static string Count(double? value) => value switch
    {
        null => "n/a",
        >= 10_000 => (value.Value / 1000).ToString("0.#", CultureInfo.InvariantCulture) + "k",
        _ => value.Value.ToString("0", CultureInfo.InvariantCulture),
    };
}
