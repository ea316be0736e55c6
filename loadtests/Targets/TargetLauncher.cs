using System.Diagnostics;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Measuring;

namespace Comparator.Targets;

/// <summary>
/// Starts an already-built target as a child process on a free loopback port and waits for its
/// ready line. Nothing is built at run time: a missing build is an error that says what to run.
/// A target given as a command (a user's own service) starts as its command says (CommandLaunch.cs).
/// </summary>
public sealed partial class TargetLauncher : ITargetLauncher
{
    public static readonly TimeSpan DefaultReadyTimeout = TimeSpan.FromSeconds(30);

    /// <summary>A free port can be taken by someone else before the child binds it; try a few.</summary>
    private const int PortAttempts = 5;

    private readonly BuildLayout _layout;
    private readonly TimeSpan _readyTimeout;
    private readonly string? _cpuList;
    private readonly Func<int> _nextPort;
    private readonly PortRange? _ports;
    private readonly CpuCounterSet? _cpuCounters;
    private readonly IReadOnlyDictionary<string, string>? _environment;
    private readonly Func<string, IReadOnlyList<string>, (string Host, IReadOnlyList<string> Arguments)>? _wrap;

    /// <param name="cpuList">When set, targets run on these CPUs (--pin: taskset on Linux, so the runtime sees only them; the affinity mask on Windows).</param>
    /// <param name="portSource">Where ports come from; a free loopback port by default (tests pass a taken one).</param>
    /// <param name="ports">--ports: free ports are taken from this range, which each target is told too (for its URL-reservation message).</param>
    /// <param name="cpuCounters">the CPU's counters to open on every target from its first instruction (<see cref="CountedStart"/>); null for none</param>
    /// <param name="environment">variables every target is started with besides this process's own (the runtimes' JIT maps of a profile pass)</param>
    /// <param name="wrap">a program every target's host is run under, given the host and its arguments (the simulated pass: valgrind); null for none</param>
    public TargetLauncher(BuildLayout layout, TimeSpan? readyTimeout = null, string? cpuList = null, Func<int>? portSource = null, PortRange? ports = null,
        CpuCounterSet? cpuCounters = null, IReadOnlyDictionary<string, string>? environment = null,
        Func<string, IReadOnlyList<string>, (string Host, IReadOnlyList<string> Arguments)>? wrap = null)
    {
        _wrap = wrap;
        _cpuCounters = cpuCounters;
        _environment = environment;
        _layout = layout;
        _readyTimeout = readyTimeout ?? DefaultReadyTimeout;
        _cpuList = cpuList;
        _ports = ports;
        _nextPort = portSource ?? (ports is null ? FreeLoopbackPort : ports.FreePort);
    }

    /// <param name="cpuList">taskset CPUs for this start (an allotment of --server-cores), instead of the launcher's own</param>
    public async Task<RunningTarget> StartAsync(TargetDefinition target, ServiceSwitches switches, CancellationToken cancellationToken = default, string? cpuList = null)
    {
        if (!target.IsAvailable)
            throw new LaunchException($"target '{target.Name}' cannot run on this machine: {target.UnavailableReason}");
        if (target.Command is CommandSpec command) return await StartCommandAsync(target, command, cpuList ?? _cpuList, cancellationToken);
        var assembly = _layout.AssemblyPath(target);
        if (!File.Exists(assembly))
            throw new LaunchException($"target '{target.Name}' is not built ({assembly} is missing); run: dotnet build -c {_layout.Configuration} Comparator.sln");

        string lastFailure = "";
        for (var attempt = 0; attempt < PortAttempts; attempt++)
        {
            var (running, exitCode, failure) = await TryStartAsync(target, assembly, _nextPort(), switches, cpuList ?? _cpuList, cancellationToken);
            if (running != null) return running;
            lastFailure = failure;
            if (exitCode != ServiceExitCodes.CannotListen) break;
        }
        throw new LaunchException(lastFailure);
    }

    async Task<IStartedTarget> ITargetLauncher.StartAsync(TargetDefinition target, ServiceSwitches switches, CancellationToken cancellationToken, string? cpuList) =>
        await StartAsync(target, switches, cancellationToken, cpuList);

    private async Task<(RunningTarget? Running, int? ExitCode, string Failure)> TryStartAsync(
        TargetDefinition target, string assembly, int port, ServiceSwitches switches, string? cpuList, CancellationToken cancellationToken)
    {
        var process = new Process { StartInfo = StartInfo(target, assembly, port, switches, cpuList), EnableRaisingEvents = true };
        var counted = _cpuCounters is not null && CountedStart.Wrap(process.StartInfo);
        var stderr = new OutputTail();
        var ready = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        string? noDelay = null;
        process.OutputDataReceived += (_, e) =>
        {
            // Keep reading after the ready line too, so the pipe never fills and blocks the service.
            if (SocketFact.TryParse(e.Data, out var fact)) noDelay = fact; // printed before the ready line
            else if (ReadyLine.TryParse(e.Data, out var url)) ready.TrySetResult(url);
        };
        process.ErrorDataReceived += (_, e) => { if (e.Data != null) stderr.Add(e.Data); };
        process.Exited += (_, _) => ready.TrySetCanceled();

        try
        {
            process.Start();
            CpuAffinity.Place(process, cpuList);
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            process.Dispose();
            return (null, null, $"target '{target.Name}': cannot start {process.StartInfo.FileName}: {e.Message}");
        }
        ChildProcessGuard.Track(process);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var (cpuCounters, cpuCountersNote) = counted ? await CountedStart.OpenAndContinueAsync(process, _cpuCounters!, cancellationToken) : (null, null);

        var timeout = Task.Delay(_readyTimeout, cancellationToken);
        var finished = await Task.WhenAny(ready.Task, timeout);
        if (finished == ready.Task && ready.Task.IsCompletedSuccessfully)
            return (new RunningTarget(target, process, new Uri(ready.Task.Result)) { TcpNoDelay = noDelay, CpuCounters = cpuCounters, CpuCountersNote = cpuCountersNote }, null, "");
        cpuCounters?.Dispose();

        string failure;
        int? exitCode = null;
        if (process.HasExited || ready.Task.IsCanceled)
        {
            await process.WaitForExitAsync(CancellationToken.None);
            exitCode = process.ExitCode;
            failure = $"target '{target.Name}' exited with code {exitCode} before it was ready";
        }
        else
        {
            failure = cancellationToken.IsCancellationRequested
                ? $"target '{target.Name}': start cancelled"
                : $"target '{target.Name}' printed no ready line within {_readyTimeout.TotalSeconds:0} s";
            try { process.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
            await process.WaitForExitAsync(CancellationToken.None);
        }
        var tail = stderr.Lines;
        if (tail.Count > 0) failure += ": " + tail[^1];
        process.Dispose();
        return (null, exitCode, failure);
    }

    private ProcessStartInfo StartInfo(TargetDefinition target, string assembly, int port, ServiceSwitches switches, string? cpuList)
    {
        // A .NET Framework exe runs directly on Windows and under Mono elsewhere; a .NET 10 dll under dotnet.
        var (host, hostArguments) = target.Host switch
        {
            HostRuntime.NetFramework when OperatingSystem.IsWindows() => (assembly, Array.Empty<string>()),
            HostRuntime.NetFramework => (MonoRuntime.Path ?? "mono", MonoRuntime.Arguments(assembly)),
            _ => (DotNetHost(), new[] { assembly }),
        };
        // Under a wrapper (valgrind) the wrapper is the program and the host its argument; taskset, below, still places the whole.
        if (_wrap is not null)
        {
            var (wrapper, arguments) = _wrap(host, hostArguments);
            (host, hostArguments) = (wrapper, arguments.ToArray());
        }
        var info = new ProcessStartInfo
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
            WorkingDirectory = Path.GetDirectoryName(assembly)!,
        };
        // The service stops itself if this process dies without stopping it (SIGKILL): no orphans.
        // On POSIX the second guard beside its stdin's end (below); Windows has only the stdin one.
        info.Environment[ParentWatch.Variable] = Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture);
        Drivers.InlineSocketCompletions.Restore(info.Environment); // the comparator's socket setting is not the target's
        foreach (var (name, value) in _environment ?? new Dictionary<string, string>()) info.Environment[name] = value;
        CpuAffinity.RunOn(info, host, cpuList); // taskset on Linux; on Windows placed once started
        foreach (var a in hostArguments) info.ArgumentList.Add(a);
        foreach (var a in target.ServiceArguments(port, switches)) info.ArgumentList.Add(a);
        // Its stdin is a pipe this process holds open while it runs: closing it is the stop request
        // every OS and runtime sees (RunningTarget.StopAsync), and our death closes it too.
        info.ArgumentList.Add(StdinWatch.Switch);
        if (_ports is not null)
        {
            info.ArgumentList.Add("--ports");
            info.ArgumentList.Add(_ports.ToString());
        }
        return info;
    }

    /// <summary>The dotnet host running this process, so children use the same SDK's runtime.</summary>
    private static string DotNetHost()
    {
        var fromSdk = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH");
        if (!string.IsNullOrEmpty(fromSdk) && File.Exists(fromSdk)) return fromSdk;
        var self = Environment.ProcessPath;
        if (self != null && Path.GetFileNameWithoutExtension(self) == "dotnet") return self;
        return "dotnet";
    }

    /// <summary>A loopback port free at the moment of asking (someone else may take it before it is bound).</summary>
    public static int FreeLoopbackPort()
    {
        var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        var port = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        return port;
    }
}
