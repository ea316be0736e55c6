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
    private bool _disposed;

    internal RunningTarget(TargetDefinition definition, Process process, Uri baseUrl)
    {
        Definition = definition;
        _process = process;
        BaseUrl = baseUrl;
    }

    public TargetDefinition Definition { get; }
    public Uri BaseUrl { get; }
    public int ProcessId => _process.Id;
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
    public async Task<int> StopAsync()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (!_process.HasExited)
        {
            CloseInput();
            var exited = _process.WaitForExitAsync();
            if (await Task.WhenAny(exited, Task.Delay(InputGrace)) != exited)
            {
                Signals.Terminate(_process.Id);
                if (await Task.WhenAny(exited, Task.Delay(StopGrace - InputGrace)) != exited)
                {
                    try { _process.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
                }
            }
        }
        await _process.WaitForExitAsync();
        return _process.ExitCode;
    }

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
