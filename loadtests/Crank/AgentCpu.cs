namespace Comparator.Crank;

/// <summary>A process's CPU over one measured window, as read from its agent's samples.</summary>
/// <param name="CpuSeconds">the process's CPU seconds over the whole window</param>
/// <param name="CoveredSeconds">how much of the window the samples it was read from span</param>
/// <param name="PeakWorkingSetMb">the highest working set the agent sampled during the window, in MB; null when it sampled none</param>
public sealed record WindowCpu(double CpuSeconds, double CoveredSeconds, double? PeakWorkingSetMb);

/// <summary>
/// A process's CPU as a crank agent sampled it. Every second or so the agent records
/// benchmarks/cpu/raw: the percent of one core the process used since its sample before, rounded to
/// a whole percent, and benchmarks/working-set in MB. A window's CPU is the rate of the samples that
/// lie wholly inside it, times the window's length: a sample that straddles the window's edge also
/// holds the warm-up before it, or the idle time after it while another target is measured, and
/// splitting it by time would count that in. The comparator's windows are steady load, so the rate
/// inside stands for the whole window as long as the samples inside cover at least half of it
/// (<see cref="MinCoverage"/>); a shorter window (the run's default 1 s) is not read at all rather
/// than read wrong: crank's one-second samples cannot resolve it (run with --duration 5s).
/// </summary>
public sealed class AgentCpu
{
    private readonly IReadOnlyList<(DateTimeOffset Start, DateTimeOffset End, double Cores)> _intervals;
    private readonly IReadOnlyList<CrankSample> _workingSet;

    public AgentCpu(IReadOnlyList<CrankSample> cpuRaw, IReadOnlyList<CrankSample> workingSet)
    {
        var ordered = cpuRaw.OrderBy(s => s.Timestamp).ToList();
        // A sample is a rate over the agent's last period, not since the sample before it: the agent
        // drops a sample now and then (one it reads as above 100% of the machine) and starts the next
        // period anyway. So each sample spans one period back, and a gap left by a dropped one is
        // covered by none.
        var deltas = ordered.Zip(ordered.Skip(1), (a, b) => (b.Timestamp - a.Timestamp).TotalSeconds).Where(d => d > 0).OrderBy(d => d).ToList();
        var period = TimeSpan.FromSeconds(deltas.Count == 0 ? 1 : Math.Clamp(deltas[deltas.Count / 2], 0.1, 10));
        var intervals = new List<(DateTimeOffset, DateTimeOffset, double)>();
        for (var i = 1; i < ordered.Count; i++)
        {
            var end = ordered[i].Timestamp;
            var start = ordered[i - 1].Timestamp > end - period ? ordered[i - 1].Timestamp : end - period;
            if (end > start) intervals.Add((start, end, ordered[i].Value / 100));
        }
        _intervals = intervals;
        _workingSet = workingSet.OrderBy(s => s.Timestamp).ToList();
    }

    public static AgentCpu Of(CrankJob job) => new(job.Series(CrankResultFile.CpuRaw), job.Series(CrankResultFile.WorkingSet));

    public bool HasSamples => _intervals.Count > 0;

    /// <summary>The share of a window the samples wholly inside it must span for its CPU to be read.</summary>
    public const double MinCoverage = 0.5;

    /// <summary>The process's CPU over [start, start + seconds], or null where the samples inside span less than <see cref="MinCoverage"/> of it.</summary>
    public WindowCpu? Window(DateTimeOffset start, double seconds)
    {
        var end = start.AddSeconds(seconds);
        var inside = _intervals.Where(i => i.Start >= start && i.End <= end).ToList();
        var covered = inside.Sum(i => (i.End - i.Start).TotalSeconds);
        if (inside.Count == 0 || covered < MinCoverage * seconds) return null;
        var cpu = inside.Sum(i => i.Cores * (i.End - i.Start).TotalSeconds) / covered * seconds;
        var peak = _workingSet.Where(s => s.Timestamp > start && s.Timestamp <= end).Select(s => (double?)s.Value).Max();
        return new WindowCpu(cpu, covered, peak);
    }

    /// <summary>Whether any sample overlaps [start, start + seconds]: the agent was sampling the process then.</summary>
    public bool Overlaps(DateTimeOffset start, double seconds)
    {
        var end = start.AddSeconds(seconds);
        return _intervals.Any(i => i.End > start && i.Start < end);
    }
}
