using System.Collections.Concurrent;

namespace Comparator.Statistics;

/// <summary>What the rule concluded over many simulated cells, and how many launches they took.</summary>
public sealed record SimulatedRates(double TrueRatio, double Spread, int Cells, int Higher, int Lower, int Equivalent, int Unsettled, double MeanLaunches)
{
    public double Share(int count) => (double)count / Cells;
}

/// <summary>
/// The rule run on simulated cells, exactly as the launch loop runs it: each launch adds one log ratio
/// drawn from a normal law (mean ln(true ratio), standard deviation <c>spread</c>: the per-launch spread of
/// a real cell), the rule judges at every look of its design, and a cell stops at its first settled
/// outcome, at the horizon, or when the launch budget ends. Fixed seeds: the same call gives the same
/// figures. The error rates the reports state come from here (and from A/A runs on the machine).
/// </summary>
public static class RuleSimulation
{
    /// <param name="maxLaunches">the launches a cell may get (a budget); the design's horizon when null</param>
    public static SimulatedRates Run(LeadRule rule, double trueRatio, double spread, int cells, int seed, int? maxLaunches = null)
    {
        var random = new Random(seed);
        var design = rule.Design;
        var cap = maxLaunches ?? design?.MaxLaunches ?? 6;
        var firstLook = design is null ? cap : Math.Min(design.FirstLook, cap);
        var tally = new int[4];
        long launches = 0;
        var logs = new List<double>(cap);
        for (var c = 0; c < cells; c++)
        {
            logs.Clear();
            var outcome = Outcome.Unsettled;
            for (var n = 1; n <= cap; n++)
            {
                logs.Add(Math.Log(trueRatio) + spread * Normal(random));
                // Without a design the rule has one look, at the fixed launch count.
                if (n < firstLook || (design is null && n < cap)) continue;
                if (rule.Interval(logs, out _) is not RatioInterval interval) continue;
                outcome = rule.Decide(interval);
                if (outcome != Outcome.Unsettled) break;
            }
            launches += logs.Count;
            tally[(int)outcome]++;
        }
        return Rates(trueRatio, spread, cells, tally, launches);
    }

    /// <summary>
    /// Whole runs as the launch loop makes them under a load budget: <paramref name="cellsPerRun"/> cells
    /// (every judged cell of the run, each one pair), every cell measured in the first looks, then only
    /// the unsettled ones; a launch costs <paramref name="launchCost"/>(cells measured) seconds of load,
    /// and the run stops adding launches when the next would pass <paramref name="budgetSeconds"/>, at
    /// the design's horizon, or when every cell is settled. The rates are over all cells of all runs.
    /// </summary>
    public static SimulatedRates RunBudgeted(LeadRule rule, double trueRatio, double spread, int cellsPerRun, int runs, int seed,
        Func<int, double> launchCost, double budgetSeconds)
    {
        var random = new Random(seed);
        var design = rule.Design ?? throw new ArgumentException("a budget needs launches added until settled (a sequential design)");
        var tally = new int[4];
        long launches = 0;
        for (var r = 0; r < runs; r++)
        {
            var logs = Enumerable.Range(0, cellsPerRun).Select(_ => new List<double>()).ToList();
            var outcome = new Outcome[cellsPerRun];
            var spent = 0.0;
            for (var n = 1; n <= design.MaxLaunches; n++)
            {
                var open = Enumerable.Range(0, cellsPerRun).Where(c => outcome[c] == Outcome.Unsettled).ToList();
                if (open.Count == 0) break;
                var cost = launchCost(open.Count);
                if (spent + cost > budgetSeconds) break;
                spent += cost;
                foreach (var c in open)
                {
                    logs[c].Add(Math.Log(trueRatio) + spread * Normal(random));
                    if (rule.Interval(logs[c], out _) is RatioInterval interval) outcome[c] = rule.Decide(interval);
                }
            }
            foreach (var c in Enumerable.Range(0, cellsPerRun))
            {
                launches += logs[c].Count;
                tally[(int)outcome[c]]++;
            }
        }
        return Rates(trueRatio, spread, cellsPerRun * runs, tally, launches);
    }

    /// <summary>The shares from a tally indexed by <see cref="Outcome"/>.</summary>
    private static SimulatedRates Rates(double trueRatio, double spread, int cells, int[] tally, long launches) =>
        new(trueRatio, spread, cells, tally[(int)Outcome.Higher], tally[(int)Outcome.Lower], tally[(int)Outcome.Equivalent],
            tally[(int)Outcome.Unsettled], (double)launches / cells);

    /// <summary>The spreads the worst false-lead rate is sought over: per-launch SD of log ratios from a quiet machine to a very noisy one.</summary>
    public static readonly double[] Spreads = { 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2, 0.3 };

    private static readonly ConcurrentDictionary<(LeadRule, int), double> Worst = new();

    /// <summary>
    /// The largest share of cells that claim a lead in one direction or the other between identical
    /// services, over <see cref="Spreads"/> (20,000 simulated cells each), taken at its upper 95% margin
    /// ((k + 1.645·√k + 3) / n, so that no false lead in 20,000 still counts as 0.015%): the per-judgment
    /// rate the family statement multiplies by the count of judgments.
    /// </summary>
    /// <param name="launches">for a rule without a design, the fixed launch count it judged at</param>
    public static double WorstFalseLeadRate(LeadRule rule, int launches) => Worst.GetOrAdd((rule, rule.Design is null ? launches : 0), key =>
        Spreads.Select((spread, i) => Run(key.Item1, 1.0, spread, SimulatedCells, seed: 1000 + i, key.Item1.Design is null ? Math.Max(2, launches) : null))
            .Max(s => (s.Higher + s.Lower + 1.645 * Math.Sqrt(s.Higher + s.Lower) + 3) / s.Cells));

    public const int SimulatedCells = 20_000;

    private static double Normal(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
