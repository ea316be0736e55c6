using System.Diagnostics;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Errors;

namespace Comparator.Measuring;

/// <summary>An external tool (ab, wrk, taskset) that is not installed; the message says how to install it; the exit code is 2.</summary>
public sealed class ToolMissingException(string message) : ComparatorException(ExitCodes.BadArguments, message);

/// <summary>What a finished tool run left: its output, exit code and the CPU time it used.</summary>
public sealed record ToolRun(int ExitCode, string Stdout, string Stderr, double CpuSeconds, bool TimedOut);

/// <summary>
/// Runs a load tool as a child process and measures its CPU exactly, once it has exited: on Windows
/// from its own Process object; on Linux from this process's reaped children (see <see cref="ExitedCpuSeconds"/>).
/// </summary>
public static class ToolProcess
{
    /// <summary>The full path of a tool on PATH, or a <see cref="ToolMissingException"/> saying how to install it (on Windows: <paramref name="windowsHint"/>).</summary>
    public static string Locate(string tool, string debianPackage, string? windowsHint = null) =>
        TryLocate(tool) ?? throw new ToolMissingException(OperatingSystem.IsWindows()
            ? $"driver '{tool}' is not on PATH (looked for {tool} with each PATHEXT extension, such as {tool}.exe){(windowsHint is null ? "" : ": " + windowsHint)}"
            : $"driver '{tool}' is not installed (Debian package {debianPackage}: apt-get install {debianPackage})");

    /// <summary>The full path of a program on PATH (on Windows through PATHEXT: ab.exe), or null.</summary>
    public static string? TryLocate(string tool) => ToolPath.Find(tool);

    /// <summary>Runs a short command (a version query) and returns its exit code and standard output; never throws.</summary>
    public static (int ExitCode, string Output) Capture(string fileName, params string[] arguments)
    {
        var (exit, output, _) = Capture(fileName, TimeSpan.FromSeconds(10), arguments);
        return (exit, output);
    }

    /// <summary>
    /// A tool run to its end within <paramref name="limit"/>: its exit code, what it wrote, and the last line of its errors (or why it could not
    /// run, or "it did not finish"), exit -1 when it could not run or was stopped at the limit.
    /// </summary>
    public static (int ExitCode, string Output, string? Error) Capture(string fileName, TimeSpan limit, params string[] arguments)
    {
        try
        {
            var info = new ProcessStartInfo(fileName) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            foreach (var a in arguments) info.ArgumentList.Add(a);
            using var process = Process.Start(info)!;
            // Both streams read as they come, so a tool that hangs with its output open is still stopped at the limit.
            var error = process.StandardError.ReadToEndAsync();
            var output = process.StandardOutput.ReadToEndAsync();
            if (!process.WaitForExit(limit)) { process.Kill(entireProcessTree: true); return (-1, "", "it did not finish"); }
            // Exited: its output is read for at most a second more (a pipe some other process still held would otherwise never end).
            Task.WaitAll(new Task[] { output, error }, TimeSpan.FromSeconds(1));
            return (process.ExitCode, output.IsCompletedSuccessfully ? output.Result : "", error.IsCompletedSuccessfully ? LastLine(error.Result) : null);
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            return (-1, "", e.Message);
        }
    }

    /// <summary>The last line a tool wrote that is not blank: what it says of a failure.</summary>
    public static string? LastLine(string text) =>
        text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault();

    public static async Task<ToolRun> RunAsync(string fileName, IEnumerable<string> arguments, string? cpuList, TimeSpan limit, CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        CpuAffinity.RunOn(info, fileName, cpuList);
        foreach (var a in arguments) info.ArgumentList.Add(a);

        var reapedBefore = OperatingSystem.IsLinux() ? ProcFs.ReapedChildrenCpuSeconds() : null;
        using var process = Process.Start(info) ?? throw new InvalidOperationException("cannot start " + fileName);
        CpuAffinity.Place(process, cpuList);
        var stdout = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        var stderr = process.StandardError.ReadToEndAsync(CancellationToken.None);
        var timedOut = false;
        using (var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
        {
            deadline.CancelAfter(limit);
            try
            {
                await process.WaitForExitAsync(deadline.Token);
            }
            catch (OperationCanceledException)
            {
                timedOut = !cancellationToken.IsCancellationRequested;
                try { process.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
                await process.WaitForExitAsync(CancellationToken.None);
            }
        }
        var cpu = ExitedCpuSeconds(process, reapedBefore);
        cancellationToken.ThrowIfCancellationRequested();
        return new ToolRun(process.ExitCode, await stdout, await stderr, cpu, timedOut);
    }

    /// <summary>
    /// The CPU seconds of a tool that has exited. Windows: Process.TotalProcessorTime, which answers for
    /// an exited process while its handle is open (read before the Process is disposed). Linux: .NET
    /// reaps the child itself and its /proc/PID goes with it, so TotalProcessorTime throws once it has
    /// exited; instead the user+system time of this process's reaped children (/proc/self/stat
    /// cutime+cstime) grows by the tool's whole CPU time, as no other child of the comparator exits
    /// while a tool runs. 0 where neither can be read.
    /// </summary>
    private static double ExitedCpuSeconds(Process process, double? reapedBefore)
    {
        if (OperatingSystem.IsLinux()) return ProcFs.ReapedChildrenCpuSeconds() - reapedBefore ?? 0;
        try
        {
            return process.TotalProcessorTime.TotalSeconds;
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception or NotSupportedException)
        {
            return 0;
        }
    }
}
