using System.Diagnostics;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace Comparator.Targets;

/// <summary>A target's child process, listening at BaseUrl. Dispose stops it.</summary>
public sealed class RunningTarget : IStartedTarget
{
    /// <summary>How long a target has to stop once its stdin is closed before it gets SIGTERM (StdinStopTests: every target stops on the close alone).</summary>
    public static readonly TimeSpan InputGrace = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(5);
    private readonly Process _process;
    private readonly ProcessGroup? _group;
    private readonly OutputTail? _stdout;
    private readonly OutputTail? _stderr;
    private bool _disposed;
    private int? _exitCode;

    internal RunningTarget(TargetDefinition definition, Process process, Uri baseUrl)
    {
        Definition = definition;
        _process = process;
        _processId = process.Id;
        BaseUrl = baseUrl;
    }

    /// <summary>A command target: stopped with its process group, its output's tails kept.</summary>
    internal RunningTarget(TargetDefinition definition, Process process, Uri baseUrl, ProcessGroup group, OutputTail stdout, OutputTail stderr)
        : this(definition, process, baseUrl)
    {
        (_group, _stdout, _stderr) = (group, stdout, stderr);
    }

    public TargetDefinition Definition { get; }
    public Uri BaseUrl { get; }
    public int ProcessId => _processId;
    private readonly int _processId;
    int? IStartedTarget.ProcessId => ProcessId;

    /// <summary>What the service said it did with TCP_NODELAY (read back where its host allows), or null when it said nothing.</summary>
    public string? TcpNoDelay { get; init; }
    public bool HasExited => _disposed || _process.HasExited;

    /// <inheritdoc cref="IStartedTarget.CpuCounters"/>
    public Comparator.Measuring.CpuCounters? CpuCounters { get; init; }

    /// <inheritdoc cref="IStartedTarget.CpuCountersNote"/>
    public string? CpuCountersNote { get; init; }

    /// <summary>
    /// Closes the target's stdin, then SIGTERM (POSIX) if it is still running after InputGrace,
    /// then SIGKILL of the whole tree after StopGrace in all. Returns the exit code. The stdin's end
    /// comes first because it is the one stop request every OS and runtime sees: Windows has no SIGTERM.
    /// </summary>
    /// <remarks>A command target's SIGTERM and kill go to its whole process group, after its own grace; whatever of the group
    /// outlives its leader is killed then, and the group's watchdog goes.</remarks>
    public async Task<int> StopAsync()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        var grace = Definition.Command?.StopGrace + InputGrace ?? StopGrace;
        if (!_process.HasExited)
        {
            CloseInput();
            var exited = _process.WaitForExitAsync();
            if (await Task.WhenAny(exited, Task.Delay(InputGrace)) != exited)
            {
                if (_group is not null) _group.Terminate();
                else Signals.Terminate(_process.Id);
                if (await Task.WhenAny(exited, Task.Delay(grace - InputGrace)) != exited)
                {
                    _group?.Kill();
                    try { _process.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
                }
            }
        }
        await _process.WaitForExitAsync();
        _group?.Kill();
        _group?.Dispose();
        _exitCode = _process.ExitCode;
        return _process.ExitCode;
    }

    /// <summary>Ends the target at once (SIGKILL of its tree and group), where nothing it would do on its way out is wanted; StopAsync then only waits.</summary>
    public void Kill()
    {
        if (_disposed || _process.HasExited) return;
        _group?.Kill();
        try { _process.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
    }

    /// <summary>How its process ended ("exited with code 3"), or null while it runs.</summary>
    public string? ExitNote => !_disposed && _process.HasExited ? $"exited with code {_process.ExitCode}" + LastOutput() : null;

    /// <summary>"; its last output: " and its last lines (stderr's, else stdout's), or "" when it wrote none or is a built target.</summary>
    public string LastOutput(int lines = 3)
    {
        var tail = _stderr?.Lines is { Count: > 0 } err ? err : _stdout?.Lines ?? Array.Empty<string>();
        // A line printed by every request in flight as it died is said once.
        var said = new List<string>();
        foreach (var line in tail.Select(l => l.Trim()).Where(l => l.Length > 0))
            if (said.Count == 0 || said[^1] != line) said.Add(line);
        var last = said.TakeLast(lines).ToList();
        return last.Count == 0 ? "" : "; its last output: " + string.Join(" | ", last);
    }

    /// <summary>The kept tail of its stdout and of its stderr, for the run directory; null for a built target.</summary>
    public string? KeptOutput() => _stdout is null || _stderr is null ? null
        : $"# {Definition.Name}, process {_processId}, {(_exitCode is int code ? $"exited with code {code}" : "running")}\n" +
          $"# stdout (its last {TargetLauncher.KeptOutputLines} lines at most)\n" + string.Join("\n", _stdout.Lines) +
          $"\n# stderr (its last {TargetLauncher.KeptOutputLines} lines at most)\n" + string.Join("\n", _stderr.Lines) + "\n";

    /// <summary>Closes the target's stdin: the request to stop (StopAsync's first step, alone).</summary>
    public void CloseInput()
    {
        try { _process.StandardInput.Close(); } catch (IOException) { /* the target is gone already */ }
    }

    /// <summary>Completes when the target's process has exited.</summary>
    public Task WaitForExitAsync(CancellationToken cancellationToken = default) => _process.WaitForExitAsync(cancellationToken);

    public async ValueTask DisposeAsync()
    {
        if (_disposed) return;
        await StopAsync();
        CpuCounters?.Dispose();
        _disposed = true;
        _process.Dispose();
    }
}
