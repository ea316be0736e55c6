using System.Diagnostics;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace Comparator.Measuring;

/// <summary>An external tool (ab, wrk, taskset) that is not installed; the message says how to install it.</summary>
public sealed class ToolMissingException : Exception
{
    public ToolMissingException(string message) : base(message) { }
}

/// <summary>What a finished tool run left: its output, exit code and the CPU time it used.</summary>
public sealed record ToolRun(int ExitCode, string Stdout, string Stderr, double CpuSeconds, bool TimedOut);

/// <summary>
/// Runs a load tool as a child process and measures its CPU exactly: the user+system time of this
/// process's reaped children (/proc/self/stat cutime+cstime) grows by the tool's whole CPU time when
/// it exits, and no other child of the comparator exits while a tool runs.
/// </summary>
public static class ToolProcess
{
    /// <summary>The full path of a tool on PATH, or a <see cref="ToolMissingException"/> naming the Debian package.</summary>
    public static string Locate(string tool, string debianPackage) =>
        TryLocate(tool) ?? throw new ToolMissingException($"driver '{tool}' is not installed (Debian package {debianPackage}: apt-get install {debianPackage})");

    /// <summary>The full path of a program on PATH, or null.</summary>
    public static string? TryLocate(string tool)
    {
        foreach (var dir in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            var candidate = Path.Combine(dir, tool);
            if (File.Exists(candidate)) return candidate;
        }
        return null;
    }

    /// <summary>Runs a short command (a version query) and returns its exit code and standard output; never throws.</summary>
    public static (int ExitCode, string Output) Capture(string fileName, params string[] arguments)
    {
        try
        {
            var info = new ProcessStartInfo(fileName) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            foreach (var a in arguments) info.ArgumentList.Add(a);
            using var process = Process.Start(info)!;
            var output = process.StandardOutput.ReadToEnd();
            process.StandardError.ReadToEnd();
            if (!process.WaitForExit(10_000)) { process.Kill(); return (-1, output); }
            return (process.ExitCode, output);
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            return (-1, "");
        }
    }

    public static async Task<ToolRun> RunAsync(string fileName, IEnumerable<string> arguments, string? cpuList, TimeSpan limit, CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        if (cpuList is null) info.FileName = fileName;
        else
        {
            info.FileName = Locate("taskset", "util-linux");
            info.ArgumentList.Add("-c");
            info.ArgumentList.Add(cpuList);
            info.ArgumentList.Add(fileName);
        }
        foreach (var a in arguments) info.ArgumentList.Add(a);

        var cpuBefore = ProcessSampler.ReapedChildrenCpuSeconds();
        using var process = Process.Start(info) ?? throw new InvalidOperationException("cannot start " + fileName);
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
        var cpu = ProcessSampler.ReapedChildrenCpuSeconds() - cpuBefore;
        cancellationToken.ThrowIfCancellationRequested();
        return new ToolRun(process.ExitCode, await stdout, await stderr, cpu ?? 0, timedOut);
    }
}
