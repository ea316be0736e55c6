using System.Diagnostics;
using System.Threading.Tasks;

namespace Comparator.Targets;

/// <summary>A target's child process, listening at BaseUrl. Dispose stops it.</summary>
public sealed class RunningTarget : IAsyncDisposable
{
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

    /// <summary>What the service said it did with TCP_NODELAY (read back where its host allows), or null when it said nothing.</summary>
    public string? TcpNoDelay { get; init; }
    public bool HasExited => _disposed || _process.HasExited;

    /// <summary>SIGTERM, a grace period, then SIGKILL of the whole tree. Returns the exit code.</summary>
    public async Task<int> StopAsync()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (!_process.HasExited)
        {
            Signals.Terminate(_process.Id);
            var exited = _process.WaitForExitAsync();
            if (await Task.WhenAny(exited, Task.Delay(StopGrace)) != exited)
            {
                try { _process.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
            }
        }
        await _process.WaitForExitAsync();
        return _process.ExitCode;
    }

    public async ValueTask DisposeAsync()
    {
        if (_disposed) return;
        await StopAsync();
        _disposed = true;
        _process.Dispose();
    }
}
