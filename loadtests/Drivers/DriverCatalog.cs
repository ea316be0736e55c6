using Comparator.Errors;

namespace Comparator.Drivers;

/// <summary>The drivers `run --driver` knows, and how to make them.</summary>
public static class DriverCatalog
{
    public static IReadOnlyList<string> Names { get; } = new[] { SocketDriver.DriverName, HttpClientDriver.DriverName, AbDriver.DriverName, WrkDriver.DriverName };

    /// <summary>Resolves "socket", "httpclient", "ab", "wrk", "all" or a comma list into names; a name it does not know is refused with one line.</summary>
    public static Validated<IReadOnlyList<string>> Resolve(string? list)
    {
        if (string.IsNullOrWhiteSpace(list)) return Validated<IReadOnlyList<string>>.Valid(new[] { SocketDriver.DriverName });
        if (list.Trim() == "all") return Validated<IReadOnlyList<string>>.Valid(Names);
        var names = list.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Distinct().ToList();
        foreach (var name in names)
        {
            if (name == "nbomber")
                return Validated<IReadOnlyList<string>>.Refused("run: --driver nbomber: NBomber is not in this machine's NuGet source; the in-process driver is 'httpclient'");
            if (!Names.Contains(name))
                return Validated<IReadOnlyList<string>>.Refused($"run: unknown driver '{name}'; drivers: {string.Join(", ", Names)}, all");
        }
        return Validated<IReadOnlyList<string>>.Valid(names);
    }

    /// <summary>Makes the drivers; a tool that is not installed throws <see cref="Measuring.ToolMissingException"/>.</summary>
    public static IReadOnlyList<ILoadDriver> Create(IEnumerable<string> names, string? driverCpus) =>
        names.Select(name => name switch
        {
            AbDriver.DriverName => (ILoadDriver)new AbDriver(driverCpus),
            WrkDriver.DriverName => new WrkDriver(driverCpus),
            SocketDriver.DriverName => new SocketDriver(),
            _ => new HttpClientDriver(),
        }).ToList();
}
