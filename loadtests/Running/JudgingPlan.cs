using Comparator.Errors;
using Comparator.Statistics;

namespace Comparator.Running;

/// <summary>
/// How the run decides: the lead rule (with its sequential design, when launches are added until cells settle), how many
/// launches, the load the added ones may spend, and the earlier run this one is gated against.
/// </summary>
/// <param name="Launches">fresh starts of every target: a fixed count, or the design's horizon</param>
/// <param name="Budget">the load the added launches may spend when the rule's design adds launches until cells settle; null: unlimited</param>
/// <param name="CompareTo">--compare-to, the results this run is diffed against; null for none</param>
/// <param name="Threshold">--threshold, the change --compare-to gates on; null: the minimum effect the two runs recorded</param>
public sealed record JudgingPlan(LeadRule Rule, int Launches, TimeSpan? Budget = null, string? CompareTo = null, double? Threshold = null)
{
    /// <summary>One launch by the default rule: a pass that measures once and judges nothing of its own (the profile pass).</summary>
    public static JudgingPlan OneLaunch => new(LeadRule.Default, 1);

    /// <summary>The budget in seconds of load; unlimited (the planned launches' own load) without a design.</summary>
    public double BudgetSeconds => Budget?.TotalSeconds ?? double.PositiveInfinity;

    /// <summary>At least one launch; a budget only where a design adds launches, and one that is positive.</summary>
    public Validated<JudgingPlan> Validate() =>
        Launches < 1 ? Validated<JudgingPlan>.Refused("run: a run has one launch at least")
        : Budget is not null && Rule.Design is null ? Validated<JudgingPlan>.Refused("run: --launches N is a fixed count; --budget shapes the launches added until cells settle: use one or the other")
        : Budget <= TimeSpan.Zero ? Validated<JudgingPlan>.Refused("run: --budget is a positive time")
        : Validated<JudgingPlan>.Valid(this);
}
