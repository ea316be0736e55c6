using System;
using System.Collections.Generic;
using System.Linq;

namespace Comparator.Running;

/// <summary>
/// How many repeats a cell gets. A cell runs rounds (one window per target, alternating order)
/// until every target's coefficient of variation of requests/s is at or below the asked precision,
/// with at least <see cref="MinRepeat"/> rounds and at most <see cref="MaxRepeat"/>; a target still
/// above the precision at the cap is flagged noisy. A fixed --repeat N is the rule with min = max = N.
/// </summary>
public sealed record RepeatRule(int MinRepeat, int MaxRepeat, double Precision)
{
    /// <summary>Repeats every adaptive cell gets before its CV is judged: fewer make the CV itself meaningless.</summary>
    public const int DefaultMinRepeat = 3;
    public const int DefaultMaxRepeat = 4;
    /// <summary>Asked CV of requests/s, as a fraction (0.05 = 5%).</summary>
    public const double DefaultPrecision = 0.05;

    public bool Adaptive => MaxRepeat > MinRepeat;

    /// <summary>
    /// Whether the cell needs another round, from each target's requests/s so far. A target with
    /// fewer repeats than the others (a stop cut its window) counts as having that many.
    /// </summary>
    public bool AnotherRound(IReadOnlyList<IReadOnlyList<double>> rpsPerTarget)
    {
        if (rpsPerTarget.Count == 0) return false;
        var rounds = rpsPerTarget.Min(r => r.Count);
        if (rounds < MinRepeat) return true;
        if (rounds >= MaxRepeat) return false;
        return rpsPerTarget.Any(r => Statistics.CoefficientOfVariation(r) > Precision);
    }

    /// <summary>Whether a target's repeats missed the precision (its cell is then noisy).</summary>
    public bool Missed(IReadOnlyList<double> rps) => Statistics.CoefficientOfVariation(rps) > Precision;
}
