using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using Comparator.Results;
using Perfolizer.Mathematics.Common;
using Perfolizer.Mathematics.Distributions.ContinuousDistributions;

namespace Comparator.Statistics;

/// <summary>
/// An interval for the ratio of one figure between two sides (other / baseline, or new / base),
/// from <see cref="Units"/> independent units of evidence (launches: fresh processes of both sides).
/// </summary>
public sealed record RatioInterval(double Ratio, double Low, double High, double Confidence, int Units)
{
    /// <summary>"1.14x (99% interval 1.08x–1.21x)".</summary>
    public string Describe() => $"{Format.Ratio(Ratio)} ({Format.Percent(Confidence)} interval {Format.Ratio(Low)}–{Format.Ratio(High)})";
}

/// <summary>Which way an interval points, once the rule has judged it.</summary>
public enum Direction { WithinNoise, Higher, Lower }

/// <summary>
/// The one place that decides "beyond noise": the verdict, the crossovers, the flags' reading and
/// `diff` all ask it. A difference is claimed only when a <see cref="Confidence"/> interval for the
/// ratio lies wholly beyond <see cref="MinEffect"/> (above 1+m, or below 1/(1+m)).
///
/// Why launches are the unit: on a shared machine two processes of one build differ by more than
/// the windows of one process do (process placement, JIT and GC layout, which core the scheduler
/// favours), so windows of one process are not independent evidence about a stack. Each side is
/// started afresh per launch; within a launch the figure of a launch is the mean of log ratios of
/// its rounds (windows of the two sides adjacent in time, alternating order). The interval is then
/// Student's t over the launches' log ratios (Perfolizer's ConfidenceIntervalEstimator, n−1 degrees
/// of freedom), exponentiated: the classic paired analysis on the log scale, with the process as
/// the experimental unit. Between two runs (no pairing) it is Welch's t over each run's per-launch
/// log means. Results saved before launches were recorded count each repeat as a unit.
/// </summary>
public sealed record LeadRule(double Confidence, double MinEffect)
{
    public const double DefaultConfidence = 0.99;
    public const double DefaultMinEffect = 0.03;
    public static readonly LeadRule Default = new(DefaultConfidence, DefaultMinEffect);

    public const string OneUnit = "one launch: the process-to-process noise is unknown, so no lead is claimed";

    /// <summary>How the rule is stated in the reports' reading notes.</summary>
    public string Statement =>
        $"a lead is claimed only when the {Format.Percent(Confidence)} interval of the ratio (Student's t over launches, each a fresh process of both sides) " +
        $"lies wholly beyond ±{Format.Percent(MinEffect)}";

    public Direction Decide(RatioInterval interval) =>
        interval.Low > 1 + MinEffect ? Direction.Higher
        : interval.High < 1 / (1 + MinEffect) ? Direction.Lower
        : Direction.WithinNoise;

    /// <summary>
    /// other / baseline from windows adjacent in time (one run): rounds paired by launch and round,
    /// averaged per launch on the log scale, then a t interval over launches. Null (with why) when
    /// fewer than two launches have a pair, or a figure is missing or not positive.
    /// </summary>
    public RatioInterval? Paired(IReadOnlyList<Measurement> baseline, IReadOnlyList<Measurement> other, Func<Measurement, double?> metric, out string? whyNot)
    {
        var b = Keyed(baseline);
        var perLaunch = new Dictionary<int, List<double>>();
        foreach (var (key, o) in Keyed(other))
        {
            if (!b.TryGetValue(key, out var bm)) continue;
            if (metric(bm) is not double x || metric(o) is not double y || x <= 0 || y <= 0)
            {
                whyNot = "no figure on both sides";
                return null;
            }
            (perLaunch.TryGetValue(key.Launch, out var list) ? list : perLaunch[key.Launch] = new List<double>()).Add(Math.Log(y / x));
        }
        return Interval(perLaunch.Values.Select(v => v.Average()).ToList(), out whyNot);
    }

    /// <summary>new / base from two independent runs: Welch's t over each side's per-launch log means.</summary>
    public RatioInterval? Independent(IReadOnlyList<Measurement> baseRepeats, IReadOnlyList<Measurement> newRepeats, Func<Measurement, double?> metric, out string? whyNot)
    {
        var a = LaunchLogMeans(baseRepeats, metric);
        var b = LaunchLogMeans(newRepeats, metric);
        whyNot = null;
        if (a is null || b is null) { whyNot = "no figure on both sides"; return null; }
        if (a.Count < 2 || b.Count < 2) { whyNot = OneUnit; return null; }
        var (ma, va) = MeanVariance(a);
        var (mb, vb) = MeanVariance(b);
        var sa = va / a.Count;
        var sb = vb / b.Count;
        var se = Math.Sqrt(sa + sb);
        var df = se == 0 ? double.PositiveInfinity : (sa + sb) * (sa + sb) / (sa * sa / (a.Count - 1) + sb * sb / (b.Count - 1));
        var t = double.IsPositiveInfinity(df) ? 0 : new StudentDistribution(df).Quantile((1 + Confidence) / 2);
        var d = mb - ma;
        return new RatioInterval(Math.Exp(d), Math.Exp(d - t * se), Math.Exp(d + t * se), Confidence, Math.Min(a.Count, b.Count));
    }

    /// <summary>Student's t interval over per-launch log ratios, exponentiated.</summary>
    public RatioInterval? Interval(IReadOnlyList<double> logRatios, out string? whyNot)
    {
        whyNot = null;
        if (logRatios.Count == 0) { whyNot = "no window measured on both sides"; return null; }
        if (logRatios.Count < 2) { whyNot = OneUnit; return null; }
        var (mean, variance) = MeanVariance(logRatios);
        var ci = new ConfidenceIntervalEstimator(logRatios.Count, mean, Math.Sqrt(variance / logRatios.Count))
            .ConfidenceInterval(new ConfidenceLevel(Confidence));
        return new RatioInterval(Math.Exp(mean), Math.Exp(ci.Lower), Math.Exp(ci.Upper), Confidence, logRatios.Count);
    }

    /// <summary>The launch a repeat belongs to and its round in it; a file without launches makes every repeat its own launch.</summary>
    public static IEnumerable<(int Launch, int Round)> UnitKeys(IReadOnlyList<Measurement> repeats)
    {
        var rounds = new Dictionary<int, int>();
        for (var i = 0; i < repeats.Count; i++)
        {
            var launch = repeats[i].Launch ?? i;
            rounds[launch] = rounds.TryGetValue(launch, out var r) ? r + 1 : 0;
            yield return (launch, repeats[i].Round ?? rounds[launch]);
        }
    }

    private static Dictionary<(int Launch, int Round), Measurement> Keyed(IReadOnlyList<Measurement> repeats) =>
        UnitKeys(repeats).Zip(repeats).GroupBy(x => x.First).ToDictionary(g => g.Key, g => g.First().Second);

    private static List<double>? LaunchLogMeans(IReadOnlyList<Measurement> repeats, Func<Measurement, double?> metric)
    {
        var values = repeats.Select(metric).ToList();
        if (values.Count == 0 || values.Any(v => v is not > 0)) return null;
        return UnitKeys(repeats).Zip(values).GroupBy(x => x.First.Launch).Select(g => g.Average(x => Math.Log(x.Second!.Value))).ToList();
    }

    private static (double Mean, double Variance) MeanVariance(IReadOnlyList<double> values)
    {
        var mean = values.Average();
        return (mean, values.Count < 2 ? 0 : values.Sum(v => (v - mean) * (v - mean)) / (values.Count - 1));
    }
}

/// <summary>How the rule's figures are written wherever they appear.</summary>
public static class Format
{
    /// <summary>A ratio to two decimals, three where two would round a difference away to 1.00x.</summary>
    public static string Ratio(double ratio) =>
        ratio.ToString(ratio != 1 && Math.Abs(ratio - 1) < 0.005 ? "0.000" : "0.00", CultureInfo.InvariantCulture) + "x";

    public static string Percent(double fraction) => (fraction * 100).ToString("0.##", CultureInfo.InvariantCulture) + "%";
}
