using Comparator.Results;
using Perfolizer.Mathematics.Distributions.ContinuousDistributions;

namespace Comparator.Statistics;

/// <summary>
/// An interval for the ratio of one figure between two sides (other / baseline, or new / base),
/// from <see cref="Units"/> independent units of evidence (launches: fresh processes of both sides):
/// the lead interval at <see cref="Confidence"/> (Low–High) and the equivalence interval at
/// 1 − 2 × the equivalence test's α (EquivalenceLow–EquivalenceHigh, 90% by default).
/// </summary>
public sealed record RatioInterval(double Ratio, double Low, double High, double Confidence, int Units,
    double EquivalenceLow = double.NaN, double EquivalenceHigh = double.NaN)
{
    /// <summary>"1.14x (99% interval 1.08x–1.21x)".</summary>
    public string Describe() => $"{Format.Ratio(Ratio)} ({Format.Percent(Confidence)} interval {Format.Ratio(Low)}–{Format.Ratio(High)})";
}

/// <summary>What the rule concluded about a figure: one side higher or lower beyond the minimum effect, the same within the margin, or not settled.</summary>
public enum Outcome { Unsettled, Higher, Lower, Equivalent }

/// <summary>A judged figure: the outcome, its interval, and whether a lead also lies within the equivalence margin ("faster, by less than 5%").</summary>
public sealed record Judgment(Outcome Outcome, RatioInterval Interval, bool AlsoWithinMargin)
{
    public bool Settled => Outcome != Outcome.Unsettled;
}

/// <summary>
/// The one place that judges a difference: the verdict, the crossovers, the flags' reading, calibrate,
/// the launch loop and `diff` all ask it. Three outcomes:
/// - higher / lower: the <see cref="Confidence"/> interval of the ratio lies wholly beyond
///   <see cref="MinEffect"/> (above 1+m, or below 1/(1+m));
/// - equivalent: two one-sided tests at <see cref="EquivalenceAlpha"/> each put the ratio wholly inside
///   ±<see cref="Equivalence"/> (between 1/(1+δ) and 1+δ); where a lead holds too it is "higher, by less than δ";
/// - unsettled: neither, and the interval says what cannot be ruled out.
///
/// Why launches are the unit: on a shared machine two processes of one build differ by more than
/// the windows of one process do (process placement, JIT and GC layout, which core the scheduler
/// favours), so windows of one process are not independent evidence about a stack. Each side is
/// started afresh per launch; within a launch the figure of a launch is the mean of log ratios of
/// its rounds (windows of the two sides adjacent in time, alternating order). The interval is then
/// Student's t over the launches' log ratios, exponentiated: the classic paired analysis on the log
/// scale, with the process as the experimental unit. When launches are added until cells settle
/// (<see cref="Design"/>), each t boundary is the sequential design's, so that the rates hold however
/// many looks a cell had; with a fixed launch count it is Student's t quantile. Between two runs (no
/// pairing) it is Welch's t over each run's per-launch log means, one look.
/// </summary>
public sealed record LeadRule(double Confidence, double MinEffect, double Equivalence = LeadRule.DefaultEquivalence, SequentialDesign? Design = null)
{
    public const double DefaultConfidence = 0.99;
    public const double DefaultMinEffect = 0.03;
    public const double DefaultEquivalence = 0.05;
    /// <summary>Each of the two one-sided tests of equivalence: 5%, the usual TOST level (a 90% interval).</summary>
    public const double EquivalenceAlpha = 0.05;
    public static readonly LeadRule Default = new(DefaultConfidence, DefaultMinEffect);

    public const string OneUnit = "one launch: the process-to-process noise is unknown, so no lead is claimed";

    /// <summary>The one-sided α of a lead in each direction.</summary>
    public double LeadAlpha => (1 - Confidence) / 2;

    /// <summary>How the rule is stated in the reports' reading notes.</summary>
    public string Statement =>
        $"a lead is claimed only when the {Format.Percent(Confidence)} interval of the ratio (Student's t over launches; a launch restarts every target the comparator started, not a service given by URL) " +
        $"lies wholly beyond ±{Format.Percent(MinEffect)}; equivalent when the {Format.Percent(1 - 2 * EquivalenceAlpha)} interval lies wholly within ±{Format.Percent(Equivalence)}" +
        (Design is SequentialDesign d ? $"; launches are added to unsettled cells, {d.Describe()}, so the intervals hold whenever a cell stopped" : "");

    /// <summary>The rule's outcome for an interval.</summary>
    public Judgment Judge(RatioInterval interval)
    {
        // Below the design's first look the interval is shown (a single look at the α spent so far) but claims nothing.
        if (Design is SequentialDesign d && interval.Units < d.FirstLook) return new Judgment(Outcome.Unsettled, interval, false);
        var higher = interval.Low > 1 + MinEffect;
        var lower = interval.High < 1 / (1 + MinEffect);
        var equivalent = !double.IsNaN(interval.EquivalenceLow) &&
                         interval.EquivalenceLow > 1 / (1 + Equivalence) && interval.EquivalenceHigh < 1 + Equivalence;
        var outcome = higher ? Outcome.Higher : lower ? Outcome.Lower : equivalent ? Outcome.Equivalent : Outcome.Unsettled;
        return new Judgment(outcome, interval, equivalent && (higher || lower));
    }

    /// <summary>The outcome only.</summary>
    public Outcome Decide(RatioInterval interval) => Judge(interval).Outcome;

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
        if (a is null || b is null) { whyNot = "no figure on both sides"; return null; }
        return Independent(a, b, out whyNot);
    }

    /// <summary>new / base from each side's per-launch logs of a figure (a capacity per launch): Welch's t, one look.</summary>
    public RatioInterval? Independent(IReadOnlyList<double> a, IReadOnlyList<double> b, out string? whyNot)
    {
        whyNot = null;
        if (a.Count < 2 || b.Count < 2) { whyNot = OneUnit; return null; }
        var (ma, va) = MeanVariance(a);
        var (mb, vb) = MeanVariance(b);
        var sa = va / a.Count;
        var sb = vb / b.Count;
        var se = Math.Sqrt(sa + sb);
        var df = se == 0 ? double.PositiveInfinity : (sa + sb) * (sa + sb) / (sa * sa / (a.Count - 1) + sb * sb / (b.Count - 1));
        var t = double.IsPositiveInfinity(df) ? 0 : new StudentDistribution(df).Quantile(1 - LeadAlpha);
        var te = double.IsPositiveInfinity(df) ? 0 : new StudentDistribution(df).Quantile(1 - EquivalenceAlpha);
        var d = mb - ma;
        return new RatioInterval(Math.Exp(d), Math.Exp(d - t * se), Math.Exp(d + t * se), Confidence, Math.Min(a.Count, b.Count),
            Math.Exp(d - te * se), Math.Exp(d + te * se));
    }

    /// <summary>
    /// Student's t intervals over per-launch log ratios, exponentiated: the lead interval and the
    /// equivalence interval, each with the boundary the design gives this many launches.
    /// </summary>
    public RatioInterval? Interval(IReadOnlyList<double> logRatios, out string? whyNot)
    {
        whyNot = null;
        if (logRatios.Count == 0) { whyNot = "no window measured on both sides"; return null; }
        if (logRatios.Count < 2) { whyNot = OneUnit; return null; }
        var (mean, variance) = MeanVariance(logRatios);
        var se = Math.Sqrt(variance / logRatios.Count);
        var t = Boundary(LeadAlpha, logRatios.Count);
        var te = Boundary(EquivalenceAlpha, logRatios.Count);
        return new RatioInterval(Math.Exp(mean), Math.Exp(mean - t * se), Math.Exp(mean + t * se), Confidence, logRatios.Count,
            Math.Exp(mean - te * se), Math.Exp(mean + te * se));
    }

    /// <summary>The one-sided t boundary at n launches: the sequential design's, or Student's t quantile for a fixed count.</summary>
    public double Boundary(double alpha, int launches) => Design is SequentialDesign d
        ? d.Boundary(alpha, launches)
        : Quantiles.GetOrAdd((alpha, launches), k => new StudentDistribution(k.Item2 - 1).Quantile(1 - k.Item1));

    private static readonly System.Collections.Concurrent.ConcurrentDictionary<(double, int), double> Quantiles = new();

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

    /// <summary>A figure's log per launch (the mean of its windows' logs): what every interval between runs is over; null where a window lacks it.</summary>
    public static List<double>? LaunchLogMeans(IReadOnlyList<Measurement> repeats, Func<Measurement, double?> metric)
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

    /// <summary>A share or a change to one decimal: "12.3%".</summary>
    public static string Share(double fraction) => (fraction * 100).ToString("0.0", CultureInfo.InvariantCulture) + "%";

    /// <summary>A change with its sign, to one decimal: "+12.3%", "-4.0%".</summary>
    public static string Signed(double fraction) => (fraction >= 0 ? "+" : "") + Share(fraction);

    /// <summary>A measured figure to about three digits: 48213, 812.4 is 812, 12.3, 0.87.</summary>
    public static string Figure(double value) =>
        value.ToString(Math.Abs(value) >= 100 ? "0" : Math.Abs(value) >= 10 ? "0.0" : "0.00", CultureInfo.InvariantCulture);
}
