using Comparator.Measuring;
using Comparator.Running;

namespace Comparator.Capacity;

/// <summary>
/// What `capacity` was asked: the groups of run's options it reads (the targets; the cells: endpoints or scenario,
/// sizes, connections, cores; the windows a step's are made from; the launches and the lead rule), each cell
/// measured by the socket driver's open model, and the search's own: the objectives every step must hold, the
/// precision it stops at, the length of a step, and the rate whose cores are reported; and what the user called it (--label).
/// </summary>
public sealed record CapacityOptions(TargetSet Targets, CellGrid Cells, WindowSettings Window, JudgingPlan Judging,
    IReadOnlyList<LatencyObjective> Objectives, IReadOnlyList<string> ObjectiveTexts, double Precision, double? AtRate, TimeSpan StepWarmup, TimeSpan Step, string? Label = null)
{
    public const string DefaultObjective = "p90<=20ms";
    public const double DefaultPrecision = 0.05;
    public const int DefaultLaunches = 3;
    public const string DefaultEndpoints = "time,echo-post";
    public const string DefaultSizes = "4KB";
    public static readonly TimeSpan DefaultStepWarmup = TimeSpan.FromSeconds(0.5);
    public static readonly TimeSpan DefaultStep = TimeSpan.FromSeconds(1.5);

    /// <summary>The ramp starts at this share of the closed-loop requests/s, which it may not pass by more than the ceiling's share.</summary>
    public const double StartShare = 0.5, CeilingShare = 4;

    /// <summary>The lowest rate tried: a thousandth of the closed loop, at least 1 request/s.</summary>
    public static double Floor(double closedLoopRps) => Math.Max(1, closedLoopRps / 1000);

    public string Method =>
        $"per target, cell and launch: a closed-loop window gives the requests/s R the ramp starts from (R × {StartShare}); each step sends at a constant rate " +
        $"(socket driver, open model: latency from each request's intended send) for {StepWarmup.TotalSeconds:0.##} s of warm-up and a {Step.TotalSeconds:0.##} s window, " +
        "and holds when it answered at least 97% of the rate asked, dropped nothing, failed nothing and met every objective; the ramp doubles until a step breaks " +
        $"(or halves until one holds), then bisects until the lowest rate that broke is within {Precision * 100:0.#}% of the highest that held, which is the launch's capacity";
}
