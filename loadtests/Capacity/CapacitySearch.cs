using System.Threading;
using System.Threading.Tasks;

namespace Comparator.Capacity;

/// <summary>One fixed-rate step of a search: the rate asked, and whether the window held every objective (and why not).</summary>
/// <param name="Failure">null when the step held; else what broke: "overloaded: …" or "p90 31.2 ms over 20 ms"</param>
public sealed record CapacityStep(double Rate, string? Failure)
{
    public bool Held => Failure is null;
}

/// <summary>
/// Where a search ended: the highest rate that held (<see cref="Held"/>) and the lowest that did not
/// (<see cref="Broke"/>), within the precision of each other; <see cref="Held"/> is null when no rate
/// down to the floor held (the objective fails at every rate tried), <see cref="Broke"/> null when
/// every rate up to the ceiling held.
/// </summary>
public sealed record CapacityBracket(double? Held, double? Broke, IReadOnlyList<CapacityStep> Steps)
{
    /// <summary>The capacity: the highest rate that held.</summary>
    public double? Capacity => Held;
}

/// <summary>
/// Finds the highest constant arrival rate that holds the objectives: a coarse ramp that doubles from a
/// start rate until a step breaks (or halves until one holds), then a bisection between the highest
/// rate that held and the lowest that broke, until they are within the precision (a share of the held
/// rate). Each step is one fixed-rate window that <paramref name="step"/> measures. The search assumes
/// that a rate above one that broke breaks too; noise near the knee can make a step hold above one that
/// broke, and the bracket then still narrows, to the noisier side (the launches' spread shows it).
/// </summary>
public static class CapacitySearch
{
    public static async Task<CapacityBracket> FindAsync(double start, double precision, double floor, double ceiling,
        Func<double, CancellationToken, Task<CapacityStep>> step, CancellationToken cancellationToken, int maxSteps = 24)
    {
        if (!(start > 0) || !(precision > 0) || !(floor > 0) || ceiling < floor)
            throw new ArgumentException("a search needs a positive start, precision and floor, and a ceiling at or above the floor");
        var steps = new List<CapacityStep>();
        double? held = null, broke = null;
        async Task<bool> Try(double rate)
        {
            var s = await step(rate, cancellationToken);
            steps.Add(s);
            if (s.Held) held = Math.Max(held ?? 0, rate);
            else broke = Math.Min(broke ?? double.MaxValue, rate);
            return s.Held;
        }

        var rate = Math.Clamp(start, floor, ceiling);
        if (await Try(rate))
        {
            // Ramp up: double until a step breaks or the ceiling held.
            while (broke is null && held < ceiling && steps.Count < maxSteps && !cancellationToken.IsCancellationRequested)
                await Try(Math.Min(ceiling, held!.Value * 2));
        }
        else
        {
            // Ramp down: halve until a step holds or the floor broke.
            while (held is null && broke > floor && steps.Count < maxSteps && !cancellationToken.IsCancellationRequested)
                await Try(Math.Max(floor, broke!.Value / 2));
        }
        // Bisect: the midpoint of the bracket until it is within the precision of the rate that held.
        while (held is double lo && broke is double hi && hi - lo > precision * lo && steps.Count < maxSteps && !cancellationToken.IsCancellationRequested)
            await Try((lo + hi) / 2);
        return new CapacityBracket(held, broke, steps);
    }
}
