namespace Comparator.Results;

/// <summary>Which way a figure is better: more (req/s) or less (CPU, latency, bytes), or neither (a count that only describes the window).</summary>
public enum Better { Neither, Higher, Lower }

/// <summary>
/// How a window holds a figure: a value of its own in <see cref="Measurement.Figures"/>, computed from
/// those, inside a group a source writes whole (runtime counters, thread activity), or not in a window at
/// all but found across windows (a capacity, by the capacity search).
/// </summary>
public enum MetricStorage { Stored, Derived, Grouped, Searched }

/// <summary>Which cells a verdict between two targets judges the figure at: the closed loop (flat out), the fixed-rate passes (the same asked load), or both.</summary>
[Flags]
public enum JudgedAt { Never = 0, ClosedLoop = 1, FixedRate = 2, Everywhere = ClosedLoop | FixedRate }

/// <summary>
/// One figure, described once (crank's measurement metadata, BenchmarkDotNet's metric descriptor): its
/// name in results.json (<see cref="Id"/>), in results.csv (<see cref="Column"/>) and in the verdicts
/// (<see cref="VerdictId"/>), its label in text, unit, which way is better, where it comes from, and
/// whether the rule judges it. Every consumer loops over <see cref="Metrics.All"/>: adding a figure is
/// adding a descriptor and the source that fills it, never a parameter to a record or a line to a renderer.
/// </summary>
/// <param name="Id">the window's JSON property (camelCase), also the key in <see cref="Measurement.Figures"/></param>
/// <param name="Label">how text names it ("req/s", "server cpu µs/req")</param>
/// <param name="Unit">its unit ("1/s", "µs", "ms", "B"); empty for a count</param>
/// <param name="Source">where its value comes from, in words (shown beside the table of figures in docs/method.md)</param>
/// <param name="Column">its results.csv column of the median window; null where the CSV does not carry it</param>
/// <param name="VerdictId">its name in a verdict's <c>metric</c> field; null where no verdict judges it</param>
/// <param name="Verdicts">the cells where a verdict between two targets judges it</param>
/// <param name="Gated">whether `diff` and `run --compare-to` judge it between two runs or two targets</param>
/// <param name="Written">whether a derived figure is written into results.json beside the stored ones (readers of older files expect it)</param>
/// <param name="WhereRead">judged only where some side has it: a machine whose source gives none of it (no PMU) gets no verdict of it, not one "no figure" per cell</param>
public sealed record MetricDescriptor(
    string Id,
    string Label,
    string Unit,
    Better Better,
    MetricStorage Storage,
    string Source,
    string Description,
    string? Column = null,
    string? VerdictId = null,
    JudgedAt Verdicts = JudgedAt.Never,
    bool Gated = false,
    bool Written = true,
    bool WhereRead = false)
{
    /// <summary>How a derived or grouped figure is read from a window; stored figures are read from <see cref="Measurement.Figures"/>.</summary>
    internal Func<Measurement, double?>? Compute { get; init; }

    /// <summary>This figure of a window; null where the window has none (the driver cannot give it, the server is not ours to read, an older file).</summary>
    public double? Of(Measurement window) =>
        Storage == MetricStorage.Stored ? window.Figures.TryGetValue(Id, out var v) ? v : null : Compute?.Invoke(window);

    /// <summary>Whether a change of this figure the better way is "higher" (req/s) rather than "lower" (costs).</summary>
    public bool HigherIsBetter => Better == Better.Higher;
}
