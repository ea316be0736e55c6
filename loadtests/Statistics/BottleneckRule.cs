using Comparator.Results;

namespace Comparator.Statistics;

/// <summary>Decides a cell's <see cref="CellBottleneck"/> from its windows and its saturation flags.</summary>
public static class BottleneckRule
{
    /// <summary>Below this share of the cores it could use, a cell that is not client- or machine-bound is wait-bound.</summary>
    public const double WaitBoundShare = 0.5;

    /// <param name="flags">the cell's saturation flags (client-bound, machine-bound), decided on every repeat</param>
    /// <param name="rate">a fixed-rate cell's asked rate: the rate set its pace unless it did not keep up</param>
    /// <param name="serverCores">where the server ran on a machine of its own, that machine's cores: its share is then the server's alone on them; null when it shared the driver's</param>
    public static CellBottleneck? Of(IReadOnlyList<Measurement> repeats, int concurrency, int logicalCores, IReadOnlyCollection<string> flags, double? rate = null, int? serverCores = null)
    {
        var usable = repeats.Where(r => r.ElapsedSeconds > 0 && r.Succeeded > 0).ToList();
        if (usable.Count == 0) return null;
        var cores = Math.Max(1, Math.Min(concurrency, serverCores ?? logicalCores));
        var driverShare = serverCores is null ? 1 : 0; // on separate machines the driver's CPU is not on the server's cores
        var figures = usable.Select(r =>
        {
            double? busy = r.ServerCpuSeconds is double s ? (s + driverShare * r.ClientCpuSeconds) / r.ElapsedSeconds : null;
            double? cpu = r.ServerCpuSeconds is double t ? (t + driverShare * r.ClientCpuSeconds) * 1e6 / r.Succeeded : null;
            double? inFlight = r.RequestsPerSecond > 0 ? concurrency / r.RequestsPerSecond * 1000 : null;
            double? machine = r.MachineCpuSeconds is double m ? m / r.ElapsedSeconds / logicalCores : null;
            return (Busy: busy, Share: busy / cores, InFlight: inFlight, Cpu: cpu, Machine: machine);
        }).OrderBy(f => f.Share ?? double.MaxValue).ToList();
        var median = figures[(figures.Count - 1) / 2];
        var kind = rate is not null && !flags.Contains(CellFlags.Overloaded) && !flags.Contains(CellFlags.ClientBound) ? CellBottleneck.Rate
            : flags.Contains(CellFlags.MachineBound) ? CellBottleneck.Machine
            : flags.Contains(CellFlags.ClientBound) ? CellBottleneck.Client
            : median.Share is not double share ? CellBottleneck.Unknown
            // Idle for the server and driver but not for the machine: other processes took the cores, no wait.
            : share < WaitBoundShare && median.Machine >= CellFlags.MachineBoundShare ? CellBottleneck.Machine
            : share < WaitBoundShare ? CellBottleneck.Wait
            : CellBottleneck.Server;
        return new CellBottleneck(kind, median.Busy, median.Share, median.InFlight, median.Cpu);
    }
}
