using System.Collections.Concurrent;
using Perfolizer.Mathematics.Distributions.ContinuousDistributions;

namespace Comparator.Statistics;

/// <summary>
/// How launches are added and looked at: a judgment at every launch count from <see cref="FirstLook"/>
/// to <see cref="MaxLaunches"/> (the horizon), each spending part of the error rate by the Lan–DeMets
/// Pocock-type function α·ln(1 + (e − 1)·n/N). Stopping a cell as soon as it looks settled would inflate
/// its error rates if each look used a fixed-sample interval; here each look's interval is a repeated
/// confidence interval whose boundary is set so that, over all looks together, a figure crosses it by
/// chance at most the spent α (Jennison &amp; Turnbull, Group Sequential Methods, ch. 9). The intervals
/// therefore stay valid whenever a cell stops: settled, out of budget, or at the horizon.
///
/// The statistic is Student's t over per-launch log ratios (unknown spread), whose joint law across
/// looks has no closed form; the boundaries are found by simulation instead: <see cref="Paths"/> paths of
/// standard normal launches with a fixed seed, the boundary of each look the value that the paths not
/// yet stopped exceed with the look's share of α, less two standard errors of the simulation's own count
/// (k = share − 2√share paths; what is not spent carries to the next look), so that the simulation's
/// error makes the rate lower, not higher. The first look is Student's t quantile exactly. A cell with
/// fewer launches than the first look gets a single-look interval at the α the spending function gives
/// its launch count, and the rule claims nothing from it (<see cref="LeadRule.Judge"/>). Past the
/// horizon no α is left: the boundary is infinite.
/// </summary>
public sealed record SequentialDesign(int FirstLook, int MaxLaunches)
{
    /// <summary>First judged launch count by default: below four launches the t boundaries are too wide to settle anything.</summary>
    public const int DefaultFirstLook = 4;
    /// <summary>The horizon by default: the launch count the spending function reaches α at.</summary>
    public const int DefaultMaxLaunches = 13;
    public const int Paths = 400_000;
    private const int Seed = 20261125;

    public static readonly SequentialDesign Default = new(DefaultFirstLook, DefaultMaxLaunches);

    /// <summary>"looks at 4 to 20 launches, Lan–DeMets Pocock-type α spending".</summary>
    public string Describe() => $"looks at every launch from {FirstLook} to {MaxLaunches}, Lan–DeMets Pocock-type α spending";

    /// <summary>The α spent by the end of <paramref name="launches"/> launches: α·ln(1 + (e − 1)·n/N), all of it at the horizon.</summary>
    public double Spent(double alpha, int launches) =>
        alpha * Math.Log(1 + (Math.E - 1) * Math.Min(1.0, (double)launches / MaxLaunches));

    /// <summary>
    /// The one-sided boundary for t = (mean − θ) / se at <paramref name="launches"/> launches, for a
    /// one-sided error rate <paramref name="alpha"/> over all looks.
    /// </summary>
    public double Boundary(double alpha, int launches)
    {
        if (launches < 2) return double.PositiveInfinity;
        if (launches < FirstLook) return Quantile(launches, Spent(alpha, launches));
        if (launches > MaxLaunches) return double.PositiveInfinity; // the horizon spent all of α: a look past it would add to the error
        return Table(alpha)[launches - FirstLook];
    }

    private static double Quantile(int launches, double alpha) => new StudentDistribution(launches - 1).Quantile(1 - alpha);

    private static readonly ConcurrentDictionary<(int, int, double), double[]> Tables = new();

    private double[] Table(double alpha) => Tables.GetOrAdd((FirstLook, MaxLaunches, alpha), _ => Simulate(alpha));

    /// <summary>The boundaries of every look, by simulation of Student's t over standard normal launches.</summary>
    private double[] Simulate(double alpha)
    {
        var looks = MaxLaunches - FirstLook + 1;
        var boundaries = new double[looks];
        boundaries[0] = Quantile(FirstLook, Spent(alpha, FirstLook));
        var random = new Random(Seed);
        var sum = new double[Paths];
        var squares = new double[Paths];
        var stopped = new bool[Paths];
        var alive = new List<double>(Paths);
        var carried = 0.0;
        for (var n = 1; n <= MaxLaunches; n++)
        {
            for (var p = 0; p < Paths; p++)
            {
                var x = Normal(random);
                sum[p] += x;
                squares[p] += x * x;
            }
            if (n < FirstLook) continue;
            var look = n - FirstLook;
            if (look > 0)
            {
                alive.Clear();
                for (var p = 0; p < Paths; p++)
                    if (!stopped[p]) alive.Add(T(sum[p], squares[p], n));
                var share = (Spent(alpha, n) - Spent(alpha, n - 1)) * Paths + carried;
                var k = (int)Math.Floor(share - 2 * Math.Sqrt(share));
                carried = k >= 1 ? 0 : share;
                alive.Sort();
                // The k-th largest t of the paths still going: exceeding it stops k of all paths (none when k < 1).
                boundaries[look] = k < 1 || k >= alive.Count ? double.PositiveInfinity : alive[alive.Count - k];
            }
            for (var p = 0; p < Paths; p++)
                if (!stopped[p] && T(sum[p], squares[p], n) >= boundaries[look]) stopped[p] = true;
        }
        return boundaries;
    }

    private static double T(double sum, double squares, int n)
    {
        var mean = sum / n;
        var variance = Math.Max(0, (squares - sum * mean) / (n - 1));
        return variance == 0 ? 0 : mean / Math.Sqrt(variance / n);
    }

    private static double Normal(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
