using System;
using System.Collections.Generic;
using System.Linq;
using Comparator.Results;

namespace Comparator.Comparing;

/// <summary>How one figure of one cell moved between two sides.</summary>
public sealed record MetricChange(
    string Metric,
    bool HigherIsBetter,
    double? Base,
    double? New,
    double? BaseMin,
    double? BaseMax,
    double? NewMin,
    double? NewMax)
{
    /// <summary>Relative change, new against base; null when either side has no figure.</summary>
    public double? Change => Base is double b && New is double n && b != 0 ? (n - b) / b : null;

    /// <summary>The change goes the bad way (lower req/s, higher latency, CPU or bytes).</summary>
    public bool Worse => Change is double c && (HigherIsBetter ? c < 0 : c > 0);

    /// <summary>
    /// The repeats of the two sides do not overlap: every new repeat is worse than every base
    /// repeat. With one repeat a side, the two points are the whole measured spread.
    /// </summary>
    public bool BeyondNoise => BaseMin is double bMin && BaseMax is double bMax && NewMin is double nMin && NewMax is double nMax &&
                               (HigherIsBetter ? (Worse ? nMax < bMin : nMin > bMax) : (Worse ? nMin > bMax : nMax < bMin));

    public bool IsRegression(double threshold) => Worse && Math.Abs(Change!.Value) > threshold && BeyondNoise;

    public bool IsImprovement(double threshold) => !Worse && Change is double c && Math.Abs(c) > threshold && BeyondNoise;
}

/// <summary>One matched cell: its label and the figures that moved.</summary>
public sealed record CellDiff(string Label, IReadOnlyList<MetricChange> Changes, string Verdict);

/// <summary>
/// The comparison of two sides (two runs, or two targets of one run), cell by cell. A change is a
/// regression only when it is worse than the threshold and beyond the measured noise of both sides.
/// </summary>
public sealed record RunDiff(string BaseLabel, string NewLabel, double Threshold, IReadOnlyList<CellDiff> Cells,
    IReadOnlyList<string> OnlyInBase, IReadOnlyList<string> OnlyInNew)
{
    public const string Regression = "REGRESSION";
    public const string Improvement = "improvement";
    public const string WithinNoise = "within noise";
    public const string Unchanged = "no change beyond threshold";

    public bool HasRegression => Cells.Any(c => c.Verdict == Regression);

    /// <summary>Two runs: cells matched by target, endpoint, size, concurrency and driver.</summary>
    public static RunDiff BetweenRuns(RunResult baseRun, RunResult newRun, double threshold, string baseLabel, string newLabel) =>
        Build(baseRun.Cells, newRun.Cells, c => $"{c.Key.Target} {Where(c)}", threshold, baseLabel, newLabel);

    /// <summary>Two targets of one run (the migration question): cells matched by endpoint, size, concurrency and driver.</summary>
    public static RunDiff BetweenTargets(RunResult run, string from, string to, double threshold) =>
        Build(run.Cells.Where(c => c.Key.Target == from), run.Cells.Where(c => c.Key.Target == to), Where, threshold, from, to);

    private static string Where(CellResult c) => $"{c.Key.Endpoint} {c.SizeLabel} c={c.Key.Concurrency} {c.Key.Driver}";

    private static RunDiff Build(IEnumerable<CellResult> baseCells, IEnumerable<CellResult> newCells, Func<CellResult, string> key,
        double threshold, string baseLabel, string newLabel)
    {
        var b = baseCells.Where(c => c.Summary is not null).ToDictionary(key);
        var n = newCells.Where(c => c.Summary is not null).ToDictionary(key);
        var cells = b.Keys.Where(n.ContainsKey).Select(k => Compare(k, b[k], n[k], threshold)).ToList();
        return new RunDiff(baseLabel, newLabel, threshold, cells,
            b.Keys.Where(k => !n.ContainsKey(k)).ToList(), n.Keys.Where(k => !b.ContainsKey(k)).ToList());
    }

    private static CellDiff Compare(string label, CellResult b, CellResult n, double threshold)
    {
        MetricChange M(string name, bool higherIsBetter, Func<Measurement, double?> f) =>
            new(name, higherIsBetter, f(b.Summary!), f(n.Summary!),
                Min(b, f), Max(b, f), Min(n, f), Max(n, f));
        var changes = new[]
        {
            M("req/s", true, m => m.RequestsPerSecond),
            M("p99 ms", false, m => m.LatencyP99Ms),
            M("server cpu µs/req", false, m => m.ServerCpuUsPerRequest),
            M("bytes/req", false, m => m.Requests > 0 ? (double)m.BytesReceived / m.Requests : null),
        };
        var verdict = changes.Any(c => c.IsRegression(threshold)) ? Regression
            : changes.Any(c => c.IsImprovement(threshold)) ? Improvement
            : changes.Any(c => Math.Abs(c.Change ?? 0) > threshold) ? WithinNoise
            : Unchanged;
        return new CellDiff(label, changes, verdict);
    }

    private static double? Min(CellResult c, Func<Measurement, double?> f) => c.Repeats.Select(f).Where(v => v.HasValue).DefaultIfEmpty().Min();
    private static double? Max(CellResult c, Func<Measurement, double?> f) => c.Repeats.Select(f).Where(v => v.HasValue).DefaultIfEmpty().Max();
}
