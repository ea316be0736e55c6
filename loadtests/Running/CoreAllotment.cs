using Comparator.Errors;
using Comparator.Measuring;
using Comparator.Results;

namespace Comparator.Running;

/// <summary>
/// The cores a run gives its servers, one value of --server-cores: N cores of their own (the last N
/// CPUs, the driver on the others), or shared (servers and driver on every core). Which stack leads
/// can flip with it, so every cell, verdict and title says which allotment it was measured under.
/// </summary>
/// <param name="Label">"1", "2" ... or "shared": the cells' key (CellKey.Cores)</param>
/// <param name="ServerCpus">taskset list the targets start under; null to leave them unpinned</param>
/// <param name="DriverCpus">taskset list of the driver (this process and wrk/ab); null for every core</param>
public sealed record CoreAllotment(string Label, string? ServerCpus, string? DriverCpus, string Description)
{
    /// <summary>"on 1 core", "sharing 2 cores with the driver": what a verdict sentence says.</summary>
    public string Phrase => Description;

    public CoresSpec ToSpec() => new(Label, ServerCpus, DriverCpus, Description);

    /// <summary>Servers and driver on every core, unpinned: the default on a machine too small to give both their own.</summary>
    public static CoreAllotment Shared(int machineCores) =>
        new(CoresSpec.SharedLabel, null, null, $"sharing {Cores(machineCores)} with the driver");

    /// <summary>The allotment of a run whose every target is a service given by URL (labelled shared, so such runs pair up in a diff).</summary>
    public static CoreAllotment External() => new(CoresSpec.SharedLabel, null, null, CoresSpec.AsStarted);

    /// <summary>--pin SERVER:DRIVER as an allotment: the servers' CPU count as its label.</summary>
    public static CoreAllotment FromPin(CpuPin pin)
    {
        var servers = CpuAffinity.Expand(pin.ServerCpus);
        var shared = CpuAffinity.Expand(pin.DriverCpus).Intersect(servers).Any();
        return new(shared ? $"pin {pin.ServerCpus}:{pin.DriverCpus}" : servers.Count.ToString(CultureInfo.InvariantCulture), pin.ServerCpus, pin.DriverCpus,
            shared ? $"on CPU {pin.ServerCpus}, the driver on CPU {pin.DriverCpus} (overlapping)" : $"on {Cores(servers.Count)} (CPU {pin.ServerCpus}), the driver on CPU {pin.DriverCpus}");
    }

    /// <summary>
    /// --server-cores LIST: whole numbers of cores (1 to the machine's count), shared, or all (1, 2, 4 ...
    /// while a core is left for the driver, then shared). N equal to the machine's cores is shared: the
    /// driver has no core of its own left. Every mistake is refused with one line.
    /// </summary>
    public static Validated<IReadOnlyList<CoreAllotment>> Parse(string raw, int machineCores)
    {
        static Validated<IReadOnlyList<CoreAllotment>> Refused(string error) => Validated<IReadOnlyList<CoreAllotment>>.Refused(error);
        var items = raw.Split(',', StringSplitOptions.TrimEntries);
        if (items.Length == 0 || items.Any(i => i.Length == 0))
            return Refused($"run: --server-cores takes a list of core counts, shared or all (such as 1,shared), not '{raw}'");
        var allotments = new List<CoreAllotment>();
        foreach (var item in items)
        {
            if (item == "all")
            {
                for (var n = 1; n < machineCores; n *= 2) allotments.Add(Own(n, machineCores));
                allotments.Add(Shared(machineCores));
                continue;
            }
            if (item == CoresSpec.SharedLabel) { allotments.Add(Shared(machineCores)); continue; }
            if (!int.TryParse(item, NumberStyles.None, CultureInfo.InvariantCulture, out var cores) || cores < 1)
                return Refused($"run: --server-cores takes core counts from 1, shared or all, not '{item}'");
            if (cores > machineCores)
                return Refused($"run: --server-cores {cores}: this machine has {Cores(machineCores)}");
            allotments.Add(cores == machineCores ? Shared(machineCores) : Own(cores, machineCores));
        }
        var twice = allotments.GroupBy(a => a.Label).FirstOrDefault(g => g.Count() > 1);
        if (twice is not null)
            return Refused($"run: --server-cores names the allotment '{twice.Key}' twice" +
                           (twice.Key == CoresSpec.SharedLabel ? $" ({machineCores} is shared on this {machineCores}-core machine: no core is left for the driver)" : ""));
        return Validated<IReadOnlyList<CoreAllotment>>.Valid(allotments);
    }

    /// <summary>N cores for the servers: the last N CPUs, the driver on CPU 0 up to the rest (CPU 0 takes most interrupts, the driver can have it).</summary>
    private static CoreAllotment Own(int cores, int machineCores)
    {
        var first = machineCores - cores;
        var servers = cores == 1 ? $"{first}" : $"{first}-{machineCores - 1}";
        var driver = first == 1 ? "0" : $"0-{first - 1}";
        return new(cores.ToString(CultureInfo.InvariantCulture), servers, driver, $"on {Cores(cores)} (CPU {servers}), the driver on CPU {driver}");
    }

    private static string Cores(int n) => n == 1 ? "1 core" : $"{n} cores";

    /// <summary>
    /// Moves every thread of this process (the in-process driver) to the allotment's driver CPUs, or
    /// back to every core for shared; new threads inherit it, and so do children started without taskset.
    /// </summary>
    public void PinDriver(int machineCores) => MoveThisProcess(DriverCpus ?? $"0-{machineCores - 1}");

    /// <summary>Every thread of this process onto these CPUs (taskset -a -p on Linux, the affinity mask on Windows).</summary>
    public static void MoveThisProcess(string cpus) => CpuAffinity.MoveThisProcess(cpus, "--server-cores");
}
