using System.Threading;
using System.Threading.Tasks;

namespace Comparator.Targets;

/// <summary>
/// How a run starts its targets: <see cref="TargetLauncher"/> (a child process on loopback) in every command;
/// a test of the launch loop passes one that starts nothing. A start that fails throws <see cref="LaunchException"/>.
/// </summary>
public interface ITargetLauncher
{
    /// <param name="cpuList">the CPUs this start runs on (an allotment of --server-cores), or null for the launcher's own</param>
    Task<IStartedTarget> StartAsync(TargetDefinition target, ServiceSwitches switches, CancellationToken cancellationToken, string? cpuList);
}

/// <summary>A started target as a run uses it (<see cref="RunningTarget"/>: a child process); disposing it stops it.</summary>
public interface IStartedTarget : IAsyncDisposable
{
    Uri BaseUrl { get; }

    /// <summary>The process whose CPU, memory and runtime counters are read; null where there is none of ours to read.</summary>
    int? ProcessId { get; }

    /// <summary>What the service said it did with TCP_NODELAY, or null when it said nothing.</summary>
    string? TcpNoDelay { get; }

    bool HasExited { get; }

    /// <summary>How its process ended ("exited with code 3; its last output: ..."), or null while it runs or where it is not known.</summary>
    string? ExitNote => null;

    /// <summary>The CPU's counters of its process, every thread, opened before its first instruction; null where not counted (<see cref="CpuCountersNote"/> says why).</summary>
    Comparator.Measuring.CpuCounters? CpuCounters => null;

    /// <summary>How its counters were counted and which events were not, or why none were; null where none were asked.</summary>
    string? CpuCountersNote => null;
}
