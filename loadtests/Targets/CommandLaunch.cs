using System.Diagnostics;
using System.IO;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;

namespace Comparator.Targets;

/// <summary>
/// The start of a command target (a user's own service, <see cref="CommandSpec"/>): on its port, in its
/// directory and environment, in a process group of its own watched for this process's death
/// (<see cref="ProcessGroup"/>), placed and counted as a built target is, and ready when its
/// <see cref="ReadyCheck"/> passes. Its output is kept, the last lines of each stream, for the run directory
/// and for the one line that says why it did not start.
/// </summary>
public sealed partial class TargetLauncher
{
    /// <summary>Lines of each output stream kept per start of a command target (the run directory's output/ files).</summary>
    public const int KeptOutputLines = 200;

    private static readonly TimeSpan ReadyPoll = TimeSpan.FromMilliseconds(100);

    private async Task<RunningTarget> StartCommandAsync(TargetDefinition target, CommandSpec command, string? cpuList, CancellationToken cancellationToken)
    {
        int port;
        if (command.FixedUrl is Uri fixedUrl)
        {
            port = fixedUrl.Port;
            // A service already there would answer the ready check and be measured in its place.
            if (fixedUrl.IsLoopback && !PortRange.IsFree(port))
                throw new LaunchException($"target '{target.Name}': port {port} of {fixedUrl} is in use" +
                                          (ListeningProcess.Find(port) is int pid ? $" (by process {pid})" : "") + " before it starts; stop what listens there, or tell it its port with {port}");
        }
        else port = _nextPort();

        var info = CommandStartInfo(command, port, cpuList);
        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var counted = _cpuCounters is not null && CountedStart.Wrap(info);
        var (stdout, stderr) = (new OutputTail(KeptOutputLines), new OutputTail(KeptOutputLines));
        var lineSeen = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        void Read(OutputTail tail, string? line)
        {
            if (line is null) return;
            tail.Add(line);
            if (command.Ready.OutputLine is { } pattern && pattern.IsMatch(line)) lineSeen.TrySetResult();
        }
        process.OutputDataReceived += (_, e) => Read(stdout, e.Data);
        process.ErrorDataReceived += (_, e) => Read(stderr, e.Data);
        try
        {
            process.Start();
            CpuAffinity.Place(process, cpuList);
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            process.Dispose();
            throw new LaunchException($"target '{target.Name}': cannot start {command.ResolvedProgram}: {e.Message}");
        }
        WindowsJob.Add(process); // Windows: ended with this process, however it ends
        var group = ProcessGroup.Watch(process, command.StopGrace);
        ChildProcessGuard.Track(process);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var (cpuCounters, cpuCountersNote) = counted ? await CountedStart.OpenAndContinueAsync(process, _cpuCounters!, cancellationToken) : (null, null);
        var running = new RunningTarget(target, process, command.BaseUrl(port), group, stdout, stderr)
            { CpuCounters = cpuCounters, CpuCountersNote = cpuCountersNote };

        // Under a wrapper (the simulator) a start takes many times longer: the launcher's own bound, when longer, holds.
        var readyTimeout = _wrap is not null && _readyTimeout > command.ReadyTimeout ? _readyTimeout : command.ReadyTimeout;
        var settle = _wrap is not null && running.BaseUrl.IsLoopback ? WrappedProbeSettle : (TimeSpan?)null;
        var why = await WaitReadyAsync(command, readyTimeout, running, lineSeen.Task, process, settle, cancellationToken);
        if (why is null) return running;
        await running.DisposeAsync();
        throw new LaunchException($"target '{target.Name}' {why}" + running.LastOutput());
    }

    /// <summary>
    /// Under a wrapper (the simulator), how long a command target's port must have been listening before its first HTTP probe. .NET's
    /// managed HttpListener (System.Net.HttpListener off Windows) ends its process when a connection arrives while its Start() still runs:
    /// its endpoint listener accepts before it has made the set the accept locks (dotnet/corefx#35191). Natively that window is
    /// microseconds; under valgrind it is about a second (FixedWorkService on .NET 10: listening 4.8-5.2 s after the start, its ready line
    /// 1.0-1.2 s later), and probes every 100 ms ended 5 of its 8 starts in two simulated runs. A ready line instead of a probe
    /// (a targets file's "ready": {"outputLine": ...}) needs no wait.
    /// </summary>
    public static readonly TimeSpan WrappedProbeSettle = TimeSpan.FromSeconds(5);

    /// <summary>Null once the service is ready; else why not: it exited, its check did not pass in time, or the start was cancelled.</summary>
    private static async Task<string?> WaitReadyAsync(CommandSpec command, TimeSpan readyTimeout, RunningTarget running, Task lineSeen, Process process,
        TimeSpan? settle, CancellationToken cancellationToken)
    {
        Stopwatch? listening = null;
        // Whether a probe may be sent: at once, or (settle) once the port has listened that long.
        bool MayProbe()
        {
            if (settle is not TimeSpan wait) return true;
            if (listening is null && !PortRange.IsFree(running.BaseUrl.Port)) listening = Stopwatch.StartNew();
            return listening is not null && listening.Elapsed >= wait;
        }
        var deadline = Stopwatch.StartNew();
        using var client = new HttpClient(new SocketsHttpHandler
        {
            UseProxy = false,
            SslOptions = { RemoteCertificateValidationCallback = (_, _, _, _) => true }, // whether it answers, not whom it claims to be
        }) { Timeout = TimeSpan.FromSeconds(2) };
        var probe = command.Ready.Path is string path ? new Uri(running.BaseUrl, path) : null;
        while (true)
        {
            if (process.HasExited)
            {
                await process.WaitForExitAsync(CancellationToken.None);
                return $"exited with code {process.ExitCode} before it was ready";
            }
            if (cancellationToken.IsCancellationRequested) return "start cancelled";
            if (lineSeen.IsCompleted) return null;
            if (probe is not null && MayProbe() && await AnswersAsync(client, probe, command.Ready.Status, cancellationToken)) return null;
            if (deadline.Elapsed >= readyTimeout)
                return $"was not ready within {readyTimeout.TotalSeconds:0.#} s ({command.Ready.Describe()})";
            try { await Task.WhenAny(lineSeen, Task.Delay(ReadyPoll, cancellationToken)); }
            catch (OperationCanceledException) { }
        }
    }

    private static async Task<bool> AnswersAsync(HttpClient client, Uri probe, int? status, CancellationToken cancellationToken)
    {
        try
        {
            using var answer = await client.GetAsync(probe, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
            return status is not int wanted || (int)answer.StatusCode == wanted;
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException or IOException)
        {
            return false;
        }
    }

    private ProcessStartInfo CommandStartInfo(CommandSpec command, int port, string? cpuList)
    {
        IReadOnlyList<string> arguments = command.ArgumentsFor(port);
        var program = command.ResolvedProgram;
        if (_wrap is not null) (program, arguments) = _wrap(program, arguments);
        (program, arguments) = ProcessGroup.InOwnSession(program, arguments);
        var info = new ProcessStartInfo
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            // Its stdin is a pipe this process holds: its close is the first stop request (RunningTarget.StopAsync).
            RedirectStandardInput = true,
            UseShellExecute = false,
            WorkingDirectory = command.WorkingDirectory,
        };
        Drivers.InlineSocketCompletions.Restore(info.Environment); // the comparator's socket setting is not the target's
        foreach (var (name, value) in command.EnvironmentFor(port)) info.Environment[name] = value;
        foreach (var (name, value) in _environment ?? new Dictionary<string, string>()) info.Environment[name] = value;
        CpuAffinity.RunOn(info, program, cpuList);
        foreach (var a in arguments) info.ArgumentList.Add(a);
        return info;
    }
}
