using System;
using System.Collections.Generic;
using System.Linq;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Comparing;

/// <summary>
/// How one figure of one cell moved between two sides: both medians, and the lead rule's interval
/// for new/base (or why there is none). Worse or better only as the rule decides.
/// </summary>
public sealed record MetricChange(
    string Metric,
    bool HigherIsBetter,
    double? Base,
    double? New,
    RatioInterval? Interval,
    string? WhyNoInterval,
    LeadRule Rule)
{
    /// <summary>Relative change of the median windows, new against base; null when either side has no figure.</summary>
    public double? Change => Base is double b && New is double n && b != 0 ? (n - b) / b : null;

    /// <summary>The rule's reading of the interval: moved up, moved down, or within noise; null without an interval.</summary>
    public Direction? Moved => Interval is RatioInterval i ? Rule.Decide(i) : null;

    /// <summary>The interval lies wholly beyond the threshold the bad way (lower req/s; higher latency, CPU or bytes).</summary>
    public bool IsRegression => Moved == (HigherIsBetter ? Direction.Lower : Direction.Higher);

    public bool IsImprovement => Moved == (HigherIsBetter ? Direction.Higher : Direction.Lower);

    /// <summary>The median moved past the threshold, whatever the interval says.</summary>
    public bool BeyondThreshold => Change is double c && Math.Abs(c) > Rule.MinEffect;
}

/// <summary>One matched cell: its label and the figures that moved.</summary>
public sealed record CellDiff(string Label, IReadOnlyList<MetricChange> Changes, string Verdict);

/// <summary>
/// The comparison of two sides (two runs, or two targets of one run), cell by cell. A figure is a
/// regression only when the lead rule's interval for new/base lies wholly beyond the threshold the
/// bad way: between two runs Welch's t over each run's launches, between two targets of one run the
/// paired interval over launches (<see cref="LeadRule"/>). A figure that did not change is called a
/// regression at most (1 − confidence) / 2 of the time.
/// </summary>
public sealed record RunDiff(string BaseLabel, string NewLabel, LeadRule Rule, bool Paired, IReadOnlyList<CellDiff> Cells,
    IReadOnlyList<string> OnlyInBase, IReadOnlyList<string> OnlyInNew)
{
    public const string Regression = "REGRESSION";
    public const string Improvement = "improvement";
    public const string WithinNoise = "within noise";
    public const string Unchanged = "no change beyond threshold";
    public const string NotJudged = "not judged (no interval)";

    /// <summary>The threshold: the smallest change the interval must lie beyond.</summary>
    public double Threshold => Rule.MinEffect;

    public bool HasRegression => Cells.Any(c => c.Verdict == Regression);

    /// <summary>Two runs: cells matched by target, endpoint, size, concurrency and driver.</summary>
    public static RunDiff BetweenRuns(RunResult baseRun, RunResult newRun, double threshold, string baseLabel, string newLabel,
        double confidence = LeadRule.DefaultConfidence)
    {
        var rule = new LeadRule(confidence, threshold);
        return Build(baseRun.Cells, newRun.Cells, c => $"{c.Key.Target} {Where(c)}", rule, paired: false, baseLabel, newLabel);
    }

    /// <summary>Two targets of one run (the migration question): cells matched by endpoint, size, concurrency and driver, windows paired by launch.</summary>
    public static RunDiff BetweenTargets(RunResult run, string from, string to, double threshold, double confidence = LeadRule.DefaultConfidence)
    {
        var rule = new LeadRule(confidence, threshold);
        return Build(run.Cells.Where(c => c.Key.Target == from), run.Cells.Where(c => c.Key.Target == to), Where, rule, paired: true, from, to);
    }

    private static string Where(CellResult c) => $"{c.Key.Endpoint} {c.SizeLabel} c={c.Key.Concurrency} {c.Key.Load}";

    private static RunDiff Build(IEnumerable<CellResult> baseCells, IEnumerable<CellResult> newCells, Func<CellResult, string> key,
        LeadRule rule, bool paired, string baseLabel, string newLabel)
    {
        var b = baseCells.Where(c => c.Summary is not null).ToDictionary(key);
        var n = newCells.Where(c => c.Summary is not null).ToDictionary(key);
        var cells = b.Keys.Where(n.ContainsKey).Select(k => Compare(k, b[k], n[k], rule, paired)).ToList();
        return new RunDiff(baseLabel, newLabel, rule, paired, cells,
            b.Keys.Where(k => !n.ContainsKey(k)).ToList(), n.Keys.Where(k => !b.ContainsKey(k)).ToList());
    }

    private static CellDiff Compare(string label, CellResult b, CellResult n, LeadRule rule, bool paired)
    {
        MetricChange M(string name, bool higherIsBetter, Func<Measurement, double?> f)
        {
            var interval = paired ? rule.Paired(b.Repeats, n.Repeats, f, out var why) : rule.Independent(b.Repeats, n.Repeats, f, out why);
            return new(name, higherIsBetter, f(b.Summary!), f(n.Summary!), interval, why, rule);
        }
        var changes = new[]
        {
            M("req/s", true, m => m.RequestsPerSecond),
            M("p99 ms", false, m => m.LatencyP99Ms),
            M("server cpu µs/req", false, m => m.ServerCpuUsPerRequest),
            M("bytes/req", false, m => m.Requests > 0 ? (double)m.BytesReceived / m.Requests : null),
        };
        var verdict = changes.Any(c => c.IsRegression) ? Regression
            : changes.Any(c => c.IsImprovement) ? Improvement
            : changes.Any(c => c.BeyondThreshold && c.Interval is not null) ? WithinNoise
            : changes.Any(c => c.BeyondThreshold) ? NotJudged
            : Unchanged;
        return new CellDiff(label, changes, verdict);
    }
}
