namespace Comparator.Results;

/// <summary>Which way a figure is better: more (req/s) or less (CPU, latency, bytes), or neither (a count that only describes the window).</summary>
public enum Better { Neither, Higher, Lower }

/// <summary>
/// How a window holds a figure: a value of its own in <see cref="Measurement.Figures"/>, computed from
/// those, inside a group a source writes whole (runtime counters, thread activity), or not in a window at
/// all but found across windows (a capacity, by the capacity search).
/// </summary>
public enum MetricStorage { Stored, Derived, Grouped, Searched }

/// <summary>
/// Which windows hold a figure: the measured ones (the closed loop and the fixed rates), or those of the simulated pass, where each
/// target ran afresh on valgrind's simulated CPU in launches of its own (<see cref="CellResult.Simulated"/>).
/// </summary>
public enum MetricPass { Measured, Simulated }

/// <summary>Which cells a verdict between two targets judges the figure at: the closed loop (flat out), the fixed-rate passes (the same asked load), or both.</summary>
[Flags]
public enum JudgedAt { Never = 0, ClosedLoop = 1, FixedRate = 2, Everywhere = ClosedLoop | FixedRate }

/// <summary>
/// Kinds of work beside the service's own user-mode code that a figure's value can hold: the kernel's (system calls, the sockets'
/// work) and the collector's (allocation, collections). A cost says which it includes; a count says which one it stands for, so the
/// answer can say where a cost's gap is not (the costlier side makes no more calls) from the descriptors alone.
/// </summary>
[Flags]
public enum WorkKinds { None = 0, Kernel = 1, Collector = 2 }

/// <summary>
/// How a judged figure is named and said wherever a verdict on it is read, so that no renderer names a figure: its id in
/// a verdict's <c>metric</c> field, the cells it is judged at, its short label (the forest plot's rows), the words the
/// answer uses, and what a history gates on.
/// </summary>
/// <param name="VerdictId">its name in a verdict's <c>metric</c> field</param>
/// <param name="At">the cells where a verdict between two targets judges it; <see cref="JudgedAt.Never"/> for a figure judged only in files an older comparator saved (they are read as written)</param>
/// <param name="Short">its label where space is short: the forest plot's rows ("req/s", "cpu")</param>
/// <param name="Noun">what it measures, in the answer's words ("requests a second", "instructions per request")</param>
/// <param name="Leads">what the leading side does, as the verb phrase before the other side's name ("serves more requests a second than")</param>
/// <param name="Comparative">the leader's word in a verdict's line: "wcf-classic is 1.20x faster"</param>
/// <param name="WhereRead">judged only where some side has it: a machine whose source gives none of it (no PMU) gets no verdict of it, not one "no figure" per cell</param>
/// <param name="Counted">a count of work rather than a time: steadier from launch to launch, so a cell's look, a diff's lead figure and a history's gate take it first where both sides read it</param>
/// <param name="DecidesAt">the cells where it decides a cell (its look, a diff's lead figure, a history's gate) when no counted figure was read there</param>
/// <param name="Includes">the kinds of work a cost's value holds beside the service's own code (CPU time and instructions in both modes: the kernel's;
/// every cost: the collector's, which runs in user mode)</param>
/// <param name="StandsFor">the one kind of work a count stands for (system calls: the kernel's; bytes allocated: the collector's)</param>
public sealed record Judging(string VerdictId, JudgedAt At, string Short, string Noun, string Leads, string Comparative, bool WhereRead = false, bool Counted = false,
    JudgedAt DecidesAt = JudgedAt.Never, WorkKinds Includes = WorkKinds.None, WorkKinds StandsFor = WorkKinds.None);

/// <summary>
/// One figure, described once (crank's measurement metadata, BenchmarkDotNet's metric descriptor): its
/// name in results.json (<see cref="Id"/>), in results.csv (<see cref="Column"/>) and, where judged, how
/// verdicts name and say it (<see cref="Judging"/>), its label in text, unit, which way is better, where it
/// comes from. Every consumer loops over <see cref="Metrics.All"/>: adding a figure, judged or not, is adding
/// a descriptor and the source that fills it, never a parameter to a record or a line to a renderer.
/// </summary>
/// <param name="Id">the window's JSON property (camelCase), also the key in <see cref="Measurement.Figures"/></param>
/// <param name="Label">how text names it ("req/s", "server cpu µs/req")</param>
/// <param name="Unit">its unit ("1/s", "µs", "ms", "B"); empty for a count</param>
/// <param name="Source">where its value comes from, in words (shown beside the table of figures in docs/method.md)</param>
/// <param name="Column">its results.csv column of the median window; null where the CSV does not carry it</param>
/// <param name="Judging">how verdicts between targets judge and say it; null where no verdict judges it</param>
/// <param name="Gated">whether `diff`, `run --compare-to` and a history judge it between two runs or two targets</param>
/// <param name="Written">whether a derived figure is written into results.json beside the stored ones (readers of older files expect it)</param>
/// <param name="Optional">its source exists only on some machines (the CPU's counters, a hypervisor's steal): the reports show its column only where some cell has it</param>
/// <param name="Pass">which windows hold it: the measured ones, or the simulated pass's</param>
/// <param name="ReportedAt">the cells where a verdict's line reports it beside the judged figures without judging it there (the server's
/// CPU time flat out, the latency percentiles and the cores busy at a fixed rate)</param>
public sealed record MetricDescriptor(
    string Id,
    string Label,
    string Unit,
    Better Better,
    MetricStorage Storage,
    string Source,
    string Description,
    string? Column = null,
    Judging? Judging = null,
    bool Gated = false,
    bool Written = true,
    bool Optional = false,
    MetricPass Pass = MetricPass.Measured,
    JudgedAt ReportedAt = JudgedAt.Never)
{
    /// <summary>How a derived or grouped figure is read from a window; stored figures are read from <see cref="Measurement.Figures"/>.</summary>
    internal Func<Measurement, double?>? Compute { get; init; }

    /// <summary>This figure of a window; null where the window has none (the driver cannot give it, the server is not ours to read, an older file).</summary>
    public double? Of(Measurement window) =>
        Storage == MetricStorage.Stored ? window.Figures.TryGetValue(Id, out var v) ? v : null : Compute?.Invoke(window);

    /// <summary>Whether a change of this figure the better way is "higher" (req/s) rather than "lower" (costs).</summary>
    public bool HigherIsBetter => Better == Better.Higher;

    /// <summary>Its name in a verdict's <c>metric</c> field; null where no verdict judges it.</summary>
    public string? VerdictId => Judging?.VerdictId;

    /// <summary>
    /// Whether `diff`, `--compare-to` and a history judge it at a closed-loop or a fixed-rate cell: every gated figure flat out; at a
    /// fixed rate only those judged there or judged nowhere between targets (bytes), never one the asked rate sets (req/s).
    /// </summary>
    public bool GatedAt(bool fixedRate) => Gated && (!fixedRate || Judging is null || Judging.At.HasFlag(JudgedAt.FixedRate));

    /// <summary>The cells where a verdict between two targets judges it.</summary>
    public JudgedAt Verdicts => Judging?.At ?? JudgedAt.Never;

    /// <summary>A value as text in its unit's way: counts in thousands ("412k"), µs to a tenth, ms as latency, cores to a hundredth, rates whole.</summary>
    public string Show(double? value) => value switch
    {
        null => "n/a",
        double v when Unit == "" && v >= 10_000 => (v / 1000).ToString("0.#", CultureInfo.InvariantCulture) + "k",
        double v when Unit is "" or "1/s" or "B" => v.ToString("0", CultureInfo.InvariantCulture),
        double v when Unit == "ms" => v.ToString(v >= 100 ? "0" : v >= 10 ? "0.0" : "0.00", CultureInfo.InvariantCulture),
        double v when Unit == "cores" => v.ToString("0.00", CultureInfo.InvariantCulture),
        double v => v.ToString("0.0", CultureInfo.InvariantCulture),
    };
}
