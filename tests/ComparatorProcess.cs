using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Threading.Tasks;
using Comparator.Targets;

namespace Comparator.Tests;

/// <summary>The comparator run as a user runs it: its own process, its stdout, stderr and exit code.</summary>
public static class ComparatorProcess
{
    public static readonly TimeSpan Patience = TimeSpan.FromSeconds(120);

    public static Process Start(params string[] args) => Start(null, args);

    public static Process Start(IReadOnlyDictionary<string, string>? environment, params string[] args)
    {
        var layout = BuildLayout.Discover();
        var dll = Path.Combine(layout.RepositoryRoot, "artifacts", "bin", "Comparator", layout.Configuration.ToLowerInvariant(), "comparator.dll");
        var info = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(dll);
        if (environment is not null) foreach (var (k, v) in environment) info.Environment[k] = v;
        foreach (var a in args) info.ArgumentList.Add(a);
        return Process.Start(info)!;
    }

    /// <summary>Kills the process and its targets if a test ends before it did.</summary>
    public static IDisposable KillOnDispose(Process process) => new Killer(process);

    private sealed class Killer(Process process) : IDisposable
    {
        public void Dispose()
        {
            try { if (!process.HasExited) process.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
        }
    }

    /// <summary>Runs to the end and returns exit code, stdout and stderr.</summary>
    public static Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(params string[] args) => RunAsync(null, args);

    public static async Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(IReadOnlyDictionary<string, string>? environment, params string[] args)
    {
        using var process = Start(environment, args);
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(Patience);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }
        return (process.ExitCode, await stdout, await stderr);
    }
}
