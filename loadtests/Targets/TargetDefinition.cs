using System.Collections.Generic;

namespace Comparator.Targets;

/// <summary>How a service process is run: a .NET (Core) dll under dotnet, or a .NET Framework exe under Mono.</summary>
public enum HostRuntime
{
    DotNet,
    Mono,
}

/// <summary>
/// One target: a service implementation on one host and runtime, and how to start it. Reports
/// always name Stack, Runtime and Server, because they can dominate the result.
/// </summary>
public sealed record TargetDefinition(
    string Name,
    string Stack,
    string Runtime,
    string Server,
    string ProjectName,
    string AssemblyFile,
    HostRuntime Host,
    string? ServerHeaderWhenOff)
{
    /// <summary>
    /// Why this target cannot be started on this machine, or null when it can. A target listed
    /// with a reason is named in every command so the gap is visible, never silently dropped.
    /// </summary>
    public string? UnavailableReason { get; init; }

    public bool IsAvailable => UnavailableReason is null;

    /// <summary>One line for reports: stack, runtime and server.</summary>
    public string Describe() => $"{Stack} on {Server}, {Runtime}";

    public IReadOnlyList<string> ServiceArguments(int port, ServiceSwitches switches)
    {
        var args = new List<string> { "--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture) };
        if (switches.ServerHeader) args.Add("--server-header");
        if (switches.MaxBodyBytes is long max)
        {
            args.Add("--max-body-bytes");
            args.Add(max.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }
        return args;
    }
}

/// <summary>Service flags the comparator passes through to every target alike.</summary>
public sealed record ServiceSwitches(bool ServerHeader = false, long? MaxBodyBytes = null)
{
    public static ServiceSwitches Default { get; } = new();
}
