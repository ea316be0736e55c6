namespace Comparator.Targets;

/// <summary>
/// How a service process is run: a .NET 10 dll under dotnet, or a .NET Framework (net472) exe,
/// under Mono on Linux and macOS and directly on Windows; a command target's program may be neither (Other).
/// </summary>
public enum HostRuntime
{
    DotNet,
    NetFramework,
    Other,
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

    /// <summary>
    /// The thread-pool workers a .NET target runs with under the simulator where the pass's one is not enough: a service that blocks a worker
    /// until other pool work completes (synchronous I/O over Kestrel) deadlocks with one. Null: the pass's one. Named in the spec line and the answer.
    /// </summary>
    public int? SimulatedWorkers { get; init; }

    /// <summary>The target framework folder of a multi-targeted project's output (artifacts/bin/P/release_net472), or null.</summary>
    public string? TargetFramework { get; init; }

    /// <summary>
    /// The target this one is a measurement variant of (the same service on another transport), or
    /// null. The conformance suites test the main target; a variant is verified before every run
    /// like any target, against its declared deviations.
    /// </summary>
    public string? VariantOf { get; init; }

    /// <summary>
    /// Endpoints whose framing this target cannot produce, by endpoint name, with the reason (a fact
    /// of the stack, stated in the catalogue): verification reports the deviation and passes it, so
    /// the target is still measured and every report carries the reason.
    /// </summary>
    public IReadOnlyDictionary<string, string> DeclaredFramingDeviations { get; init; } = new Dictionary<string, string>();

    /// <summary>Arguments that select this target's variant of a shared executable (e.g. the stock WCF transport).</summary>
    public IReadOnlyList<string> VariantArguments { get; init; } = System.Array.Empty<string>();

    /// <summary>The command that starts this target (a user's own service), or null for one of the catalogue's built targets.</summary>
    public CommandSpec? Command { get; init; }

    /// <summary>A target started by the command a user gave: its runtime found from the command, its stack and server its own.</summary>
    public static TargetDefinition ForCommand(string name, CommandSpec command)
    {
        var runtime = CommandRuntime.Detect(command);
        return new TargetDefinition(name, "started by command: " + command.CommandLine, CommandRuntime.Describe(runtime), "unknown", "", "", runtime, null)
            { Command = command };
    }

    /// <summary>One line for reports: stack, runtime and server.</summary>
    public string Describe() => Command is CommandSpec c ? $"its own service by command: {c.CommandLine} ({Runtime})" : $"{Stack} on {Server}, {Runtime}";

    public IReadOnlyList<string> ServiceArguments(int port, ServiceSwitches switches)
    {
        var args = new List<string>(VariantArguments) { "--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture) };
        if (switches.ServerHeader) args.Add("--server-header");
        args.Add("--tcp-nodelay");
        args.Add(switches.TcpNoDelay ? "on" : "off");
        if (switches.MaxBodyBytes is long max)
        {
            args.Add("--max-body-bytes");
            args.Add(max.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }
        return args;
    }
}

/// <summary>Service flags the comparator passes through to every target alike.</summary>
/// <param name="TcpNoDelay">Answers leave without Nagle's delay (on, as Kestrel by default) or as the host's stock sockets send them (off).</param>
public sealed record ServiceSwitches(bool ServerHeader = false, long? MaxBodyBytes = null, bool TcpNoDelay = true)
{
    public static ServiceSwitches Default { get; } = new();
}
