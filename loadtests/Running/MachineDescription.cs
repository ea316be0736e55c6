using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;
using Comparator.Results;

namespace Comparator.Running;

/// <summary>Where a run ran: the facts a reader needs to judge whether two runs can be compared.</summary>
public static class MachineDescription
{
    public static MachineInfo Current()
    {
        var machine = new MachineInfo(
            Environment.MachineName,
            RuntimeInformation.OSDescription,
            CpuModel(),
            Environment.ProcessorCount,
            RuntimeInformation.FrameworkDescription,
            Packages())
        {
            MemoryGiB = Math.Round(GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024.0 * 1024 * 1024), 1),
            Kernel = Kernel(),
            Mono = Targets.MonoRuntime.Version,
            CpuCounters = CpuCounting.Resolve(asked: true).Available,
        };
        return machine with { Fingerprint = machine.FingerprintOfFacts() };
    }

    private static string? Kernel()
    {
        try { return OperatingSystem.IsLinux() ? File.ReadAllText("/proc/sys/kernel/osrelease").Trim() : null; }
        catch (IOException) { return null; }
    }

    private static string CpuModel()
    {
        try
        {
            var line = File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal));
            if (line is not null) return line[(line.IndexOf(':') + 1)..].Trim();
        }
        catch (IOException) { }
        return RuntimeInformation.ProcessArchitecture.ToString();
    }

    /// <summary>Versions of the assemblies that shape the figures, as loaded.</summary>
    private static IReadOnlyDictionary<string, string> Packages()
    {
        var result = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (var type in new[] { typeof(Newtonsoft.Json.JsonConvert), typeof(System.Net.Http.SocketsHttpHandler) })
        {
            var asm = type.Assembly;
            var version = asm.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? asm.GetName().Version?.ToString() ?? "?";
            result[asm.GetName().Name!] = version.Split('+')[0];
        }
        return result;
    }
}
