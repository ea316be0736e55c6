using Comparator.Results;

namespace Comparator.Statistics;

/// <summary>Which side of a comparison the rule found better: the new side (the other target, the new run) or the base (the baseline, the base run).</summary>
public enum Side { Base, New }

/// <summary>
/// One figure compared between two sides by the lead rule: both medians, the interval of new/base (or
/// why there is none), and the rule's judgment. Which side is better follows from the outcome and the
/// figure's direction (<see cref="MetricDescriptor.Better"/>), here and nowhere else.
/// </summary>
public sealed record Comparison(MetricDescriptor Metric, double? Base, double? New, RatioInterval? Interval, string? WhyNot, Judgment? Judgment, LeadRule Rule)
{
    public Outcome? Outcome => Judgment?.Outcome;

    /// <summary>The side the rule found better beyond the minimum effect; null when equivalent, not settled, not judged, or for a figure with no better way.</summary>
    public Side? Better => (Outcome, Metric.Better) switch
    {
        (Statistics.Outcome.Higher, Results.Better.Higher) or (Statistics.Outcome.Lower, Results.Better.Lower) => Side.New,
        (Statistics.Outcome.Lower, Results.Better.Higher) or (Statistics.Outcome.Higher, Results.Better.Lower) => Side.Base,
        _ => null,
    };

    /// <summary>The new side is worse beyond the threshold (lower req/s; higher latency, CPU or bytes).</summary>
    public bool IsRegression => Better == Side.Base;
    public bool IsImprovement => Better == Side.New;
    public bool IsEquivalent => Outcome == Statistics.Outcome.Equivalent;

    /// <summary>Relative change of the medians, new against base; null when either side has no figure.</summary>
    public double? Change => Base is double b && New is double n && b != 0 ? (n - b) / b : null;

    /// <summary>The median moved past the threshold, whatever the interval says.</summary>
    public bool BeyondThreshold => Change is double c && Math.Abs(c) > Rule.MinEffect;

    /// <summary>The median moved past the threshold the bad way: the point-estimate gate of a diff that cannot judge.</summary>
    public bool PointRegression => Change is double c && Math.Abs(c) > Rule.MinEffect && MetricJudge.IsWorse(Metric, c);
}

/// <summary>
/// The one judge of a figure between two sides, over its descriptor: the verdicts between targets, the
/// crossovers (which read the verdicts), calibrate's A/A, capacity and `diff` all call it. It asks the
/// <see cref="LeadRule"/> for the interval (paired by launch within one run, Welch's t between runs, or
/// from per-launch log ratios a caller already has, as capacity does) and for the outcome.
/// </summary>
public static class MetricJudge
{
    /// <summary>
    /// Whether a change of a figure, new against base, is for the worse: lower where higher is better, higher where lower is; never for a
    /// figure with no better way (a count that only describes the window). Every caller that says "worse" (a diff's point gate, a history's
    /// change points) asks here.
    /// </summary>
    public static bool IsWorse(MetricDescriptor metric, double change) => metric.Better switch
    {
        Better.Higher => change < 0,
        Better.Lower => change > 0,
        _ => false,
    };

    /// <summary>The figure's windows on both sides, paired by launch and round (two targets of one run) or independent (two runs).</summary>
    public static Comparison Compare(LeadRule rule, MetricDescriptor metric, IReadOnlyList<Measurement> @base, IReadOnlyList<Measurement> @new, bool paired,
        Measurement? baseMedian = null, Measurement? newMedian = null)
    {
        var interval = paired ? rule.Paired(@base, @new, metric.Of, out var whyNot) : rule.Independent(@base, @new, metric.Of, out whyNot);
        return Judged(rule, metric, baseMedian is null ? null : metric.Of(baseMedian), newMedian is null ? null : metric.Of(newMedian), interval, whyNot);
    }

    /// <summary>A figure known per launch as the log of new/base (capacity: each launch's held rates of two targets).</summary>
    public static Comparison FromLogRatios(LeadRule rule, MetricDescriptor metric, IReadOnlyList<double> logRatios, double? @base = null, double? @new = null) =>
        Judged(rule, metric, @base, @new, rule.Interval(logRatios, out var whyNot), whyNot);

    /// <summary>A figure known per launch on each side of two independent runs, as logs (capacity between two runs).</summary>
    public static Comparison FromIndependentLogs(LeadRule rule, MetricDescriptor metric, IReadOnlyList<double> baseLogs, IReadOnlyList<double> newLogs,
        double? @base = null, double? @new = null) =>
        Judged(rule, metric, @base, @new, rule.Independent(baseLogs, newLogs, out var whyNot), whyNot);

    private static Comparison Judged(LeadRule rule, MetricDescriptor metric, double? @base, double? @new, RatioInterval? interval, string? whyNot) =>
        new(metric, @base, @new, interval, interval is null ? whyNot : null, interval is null ? null : rule.Judge(interval), rule);
}
