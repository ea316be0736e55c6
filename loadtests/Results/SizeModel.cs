namespace Comparator.Results;

/// <summary>
/// Payload-size sensitivity as a model: for each counted figure (a count a request, such as simulated instructions), each target's cost
/// at each endpoint fitted over the run's sizes as fixed + per KB × size, launch by launch; and between each other target and the
/// baseline, the fixed parts and the per-KB parts judged by the run's rule, with the size where the two lines cross.
/// </summary>
public sealed record SizeModelSet(IReadOnlyList<SizeModel> Models, IReadOnlyList<SizeModelComparison> Comparisons)
{
    public static readonly SizeModelSet None = new(Array.Empty<SizeModel>(), Array.Empty<SizeModelComparison>());
}

/// <summary>
/// One target's cost of one figure against the body's size at one endpoint: a line fitted per launch through that launch's figure at each
/// size (<see cref="Launches"/>), the parts' means over launches with their intervals, the measured points behind it, and each size's
/// distance from the line drawn through the other sizes (<see cref="Residuals"/>): the linearity check.
/// </summary>
/// <param name="Figure">the figure's id (<see cref="MetricDescriptor.Id"/>)</param>
/// <param name="Fixed">what a request costs before its body: the line at 0 KB</param>
/// <param name="PerKb">what each KB (1,024 bytes) of body adds</param>
public sealed record SizeModel(string Figure, string Target, string Endpoint, int Concurrency, string Driver,
    IReadOnlyList<SizePoint> Points, IReadOnlyList<LaunchLine> Launches, ModelEstimate Fixed, ModelEstimate PerKb, IReadOnlyList<SizeResidual> Residuals)
{
    /// <summary>Whether the line holds at every size the check could tell (none lies off it beyond the launches' spread).</summary>
    public bool Holds => Residuals.All(r => !r.OffTheLine);

    /// <summary>The largest size measured, in KB: the line says nothing past it.</summary>
    public double LargestKb => Points.Max(p => p.SizeBytes) / 1024.0;

    /// <summary>
    /// Where the line does not hold at one end (the largest or the smallest size alone off it), the model in two pieces: the line through
    /// the sizes that lie on it, and the end segment's own cost per KB. Null where the line holds, or where it is off elsewhere.
    /// </summary>
    public IReadOnlyList<SizePiece>? Pieces { get; init; }
}

/// <summary>
/// One piece of a model that bends: from <see cref="FromBytes"/> to <see cref="ToBytes"/>, its cost per KB, and for the piece that is a
/// fitted line, its fixed cost (null for an end segment, which is drawn between two measured sizes and says nothing at 0 KB).
/// </summary>
public sealed record SizePiece(long FromBytes, string FromLabel, long ToBytes, string ToLabel, ModelEstimate? Fixed, ModelEstimate PerKb);

/// <summary>A part of the model over launches: the mean of the launches' values and its interval at the run's confidence (none from one launch).</summary>
public sealed record ModelEstimate(double Value, double? Low, double? High);

/// <summary>The figure measured at one size: the mean over launches, and the least and most of a launch.</summary>
public sealed record SizePoint(long SizeBytes, string SizeLabel, double Mean, double Least, double Most);

/// <summary>One launch's line.</summary>
public sealed record LaunchLine(int Launch, double Fixed, double PerKb);

/// <summary>
/// How far one size lies from the line through the other sizes, as a share of its own figure (+0.14: 14% above), mean over launches with
/// its interval; off the line where that interval lies wholly beyond the rule's equivalence margin.
/// </summary>
public sealed record SizeResidual(long SizeBytes, string SizeLabel, double OffBy, double? Low, double? High, bool OffTheLine);

/// <summary>
/// Two targets' models of one figure at one endpoint: the other's fixed part and per-KB part against the baseline's, each judged by the
/// rule over the launches' ratios, and where the lines cross.
/// </summary>
public sealed record SizeModelComparison(string Figure, string Endpoint, int Concurrency, string Baseline, string Other,
    ModelPartVerdict Fixed, ModelPartVerdict PerKb, LineCrossing Crossing);

/// <summary>
/// A part's ratio other/baseline with its interval and the rule's outcome (higher, lower, equivalent, unsettled; null where nothing could be
/// judged, with the reason), and the leader where one leads (the cheaper side).
/// </summary>
public sealed record ModelPartVerdict(double? Ratio, double? Low, double? High, string? Outcome, string? Leader, int Launches, string? Reason);

/// <summary>
/// Where the two lines meet: <see cref="AtKb"/> from the mean lines, with the interval of the launches' crossings where every launch's lines
/// meet; <see cref="Within"/> whether that is inside the sizes measured (0 KB to the largest): past them it is a line's extrapolation.
/// </summary>
public sealed record LineCrossing(double? AtKb, double? Low, double? High, bool Within, string Said);
