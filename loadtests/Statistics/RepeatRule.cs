namespace Comparator.Statistics;

/// <summary>
/// How many rounds a cell gets in each launch (one window per target, alternating order). The
/// default is a fixed count (<see cref="DefaultRounds"/>): windows of one process are not
/// independent evidence about a stack, launches are (<see cref="Statistics.LeadRule"/>), so a launch
/// needs no more windows than make its own figure steady. --max-repeat N asks for rounds until every
/// target's CV of requests/s within the launch is at most the precision, at least
/// <see cref="MinRepeat"/> and at most <see cref="MaxRepeat"/>. A fixed --repeat N is min = max = N.
/// </summary>
public sealed record RepeatRule(int MinRepeat, int MaxRepeat, double Precision)
{
    /// <summary>Repeats every adaptive cell gets before its CV is judged: fewer make the CV itself meaningless.</summary>
    public const int DefaultMinRepeat = 3;
    public const int DefaultMaxRepeat = 4;
    /// <summary>Rounds per launch by default.</summary>
    public const int DefaultRounds = 1;
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
        return rpsPerTarget.Any(r => Spread.CoefficientOfVariation(r) > Precision);
    }

    /// <summary>Whether a target's repeats missed the precision (its cell is then noisy).</summary>
    public bool Missed(IReadOnlyList<double> rps) => Spread.CoefficientOfVariation(rps) > Precision;
}
