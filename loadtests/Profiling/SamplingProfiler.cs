using System.Diagnostics;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;
using Comparator.Targets;

namespace Comparator.Profiling;

/// <summary>
/// Linux perf as the sampler: `perf record` on a running server's every thread (-p, new threads inherited), its stacks
/// walked by frame pointers (-g: the JIT's code keeps them; Mono's needs MONO_DEBUG=disable_omit_fp), on the kernel's
/// cpu-clock, which every Linux has (a virtual machine without a PMU has no hardware cycles to sample on); `perf script`
/// then names each frame from the runtimes' JIT maps (/tmp/perf-PID.map) and the files' symbols.
/// </summary>
public sealed class SamplingProfiler
{
    /// <summary>
    /// Samples a second per busy CPU: odd, so as not to beat in step with a timer of the server's. Sampling costs the sampled process:
    /// at 999 Hz a Mono server spent 17-24% more CPU a request than unsampled on this 2-core VM (one launch, wrk at /api/time),
    /// at 99 Hz within the launch's noise; 499 Hz still gives some 4,000 samples in 5 s of a loaded server.
    /// </summary>
    public const int Frequency = 499;

    private SamplingProfiler(string program) => Program = program;

    public string Program { get; }

    public string Describe(double seconds) =>
        $"{Program} record -e cpu-clock -F {Frequency} -g (frame pointers) on the server's every thread, {seconds:0.#} s per target and cell";

    /// <summary>The sampler, or the one line that says why there is none here and what would give one.</summary>
    /// <param name="program">perf's path as given (--perf), or null for perf on PATH</param>
    public static (SamplingProfiler? Profiler, string? Unavailable) Find(string? program)
    {
        const string Lead = "sampling profiles: not available: ";
        if (!OperatingSystem.IsLinux())
            return (null, Lead + "they are taken with Linux perf; on Windows, record the server with PerfView or dotnet-trace while `comparator run` loads it");
        var path = program ?? ToolPath.Find("perf");
        if (path is null || !File.Exists(path))
            return (null, Lead + (program is null ? "perf is not on PATH (Debian: apt-get install linux-perf)" : $"no perf at {program} (--perf)"));
        // One real recording of a short child: perf_event_paranoid, a container's seccomp or a kernel without perf events all fail here.
        var data = Path.Combine(Path.GetTempPath(), $"comparator-probe-{Environment.ProcessId}.perf.data");
        try
        {
            var (exit, _, error) = ToolProcess.Capture(path, TimeSpan.FromSeconds(20), "record", "-q", "-e", "cpu-clock", "-F", $"{Frequency}", "-g", "-o", data, "--", "true");
            return exit == 0 ? (new SamplingProfiler(path), null)
                : (null, Lead + $"`{path} record` failed (exit {exit}){(error is null ? "" : ": " + error)}; where perf_event_paranoid forbids it, `sysctl kernel.perf_event_paranoid=1` or root allows it");
        }
        finally
        {
            File.Delete(data);
        }
    }

    /// <summary>Starts sampling the process; returns once perf has begun writing its file (its counters are open on every thread).</summary>
    public async Task<Recording> StartAsync(int pid, string dataFile, CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo(Program) { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var a in new[] { "record", "-q", "-e", "cpu-clock", "-F", $"{Frequency}", "-g", "-p", $"{pid}", "-o", dataFile }) info.ArgumentList.Add(a);
        var process = Process.Start(info) ?? throw new InvalidOperationException("cannot start " + Program);
        var recording = new Recording(process, dataFile);
        for (var waited = 0; waited < 5000 && !process.HasExited && !cancellationToken.IsCancellationRequested; waited += 50)
        {
            if (File.Exists(dataFile) && new FileInfo(dataFile).Length > 0) break;
            await Task.Delay(50, CancellationToken.None);
        }
        await Task.Delay(100, CancellationToken.None); // the header is written as the events open: a moment more for the last thread's
        return recording;
    }

    /// <summary>The samples of a finished recording, each frame named (`perf script`); run once the server has exited, so that Mono's JIT map is whole.</summary>
    public async Task<(IReadOnlyList<StackSample> Samples, string? Failure)> ReadAsync(string dataFile, CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo(Program) { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var a in new[] { "script", "-i", dataFile, "-F", "comm,tid,period,ip,sym,dso" }) info.ArgumentList.Add(a);
        using var process = Process.Start(info) ?? throw new InvalidOperationException("cannot start " + Program);
        var error = process.StandardError.ReadToEndAsync(CancellationToken.None);
        var samples = PerfScript.Parse(process.StandardOutput);
        await process.WaitForExitAsync(cancellationToken);
        return process.ExitCode == 0 ? (samples, null) : (samples, $"`perf script` failed (exit {process.ExitCode}): {ToolProcess.LastLine(await error)}");
    }
}

/// <summary>A perf record running on a server; <see cref="StopAsync"/> ends it as Ctrl+C would, and its file is then whole.</summary>
public sealed class Recording(Process process, string dataFile) : IDisposable
{
    public string DataFile { get; } = dataFile;

    /// <summary>Stops the recording; null when its file is whole, else why not.</summary>
    public async Task<string?> StopAsync()
    {
        var error = process.StandardError.ReadToEndAsync();
        if (!process.HasExited) Signals.Interrupt(process.Id);
        var exited = process.WaitForExitAsync();
        if (await Task.WhenAny(exited, Task.Delay(TimeSpan.FromSeconds(30))) != exited)
        {
            try { process.Kill(true); } catch (InvalidOperationException) { }
            return "perf record did not stop within 30 s of its interrupt";
        }
        // perf exits 0 or by the interrupt's own status once it has written the file; anything else is a failure it names.
        return process.ExitCode is 0 or 130 or -2 ? null : $"perf record failed (exit {process.ExitCode}): {ToolProcess.LastLine(await error) ?? "no message"}";
    }

    public void Dispose()
    {
        try { if (!process.HasExited) process.Kill(true); } catch (InvalidOperationException) { }
        process.Dispose();
    }
}
