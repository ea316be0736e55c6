using Comparator.Errors;
using Comparator.Measuring;

namespace Comparator.Running;

/// <summary>
/// --pin SERVER_CPUS:DRIVER_CPUS, e.g. 0:1: servers on one set of cores, the driver on the other,
/// so they stop competing for the same core. Lists use taskset syntax (0, 0-1, 0,2), on Windows too.
/// </summary>
public sealed record CpuPin(string ServerCpus, string DriverCpus)
{
    public override string ToString() => $"servers on CPU {ServerCpus}, driver on CPU {DriverCpus}";

    /// <summary>--pin's value (null when it is not given), or why it is refused.</summary>
    public static Validated<CpuPin?> Parse(string? raw)
    {
        if (raw is null) return Validated<CpuPin?>.Valid(null);
        var parts = raw.Split(':');
        if (parts.Length != 2 || !parts.All(IsCpuList))
            return Validated<CpuPin?>.Refused($"run: --pin takes SERVER_CPUS:DRIVER_CPUS such as 0:1, not '{raw}'");
        foreach (var cpu in parts.SelectMany(p => p.Split(',', '-')))
            if (int.Parse(cpu) >= Environment.ProcessorCount)
                return Validated<CpuPin?>.Refused($"run: --pin names CPU {cpu}, but this machine has CPUs 0-{Environment.ProcessorCount - 1}");
        return Validated<CpuPin?>.Valid(new CpuPin(parts[0], parts[1]));
    }

    /// <summary>Pins every thread of this process (the in-process driver) to the driver's CPUs (taskset on Linux, the affinity mask on Windows).</summary>
    public void PinThisProcess() => CpuAffinity.MoveThisProcess(DriverCpus, "--pin");

    private static bool IsCpuList(string s) =>
        s.Length > 0 && s.Split(',').All(r => r.Split('-') is var ends && ends.Length <= 2 && ends.All(e => e.Length > 0 && e.All(char.IsDigit)));
}
