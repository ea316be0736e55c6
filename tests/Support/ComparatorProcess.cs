using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
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
        return StartDll(dll, environment, args);
    }

    private static Process StartDll(string dll, IReadOnlyDictionary<string, string>? environment, IReadOnlyList<string> args)
    {
        TestTiers.RefuseInQuickTier($"a process ({System.IO.Path.GetFileName(dll)})");
        // A .NET 10 dll runs under dotnet; a net472 exe (the .NET Framework lane) under Mono.
        var host = dll.EndsWith(".exe", StringComparison.OrdinalIgnoreCase) ? "mono" : "dotnet";
        var info = new ProcessStartInfo(host) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(dll);
        if (environment is not null) foreach (var (k, v) in environment) info.Environment[k] = v;
        foreach (var a in WithoutSimulation(args)) info.ArgumentList.Add(a);
        return Process.Start(info)!;
    }

    /// <summary>
    /// The arguments, with --counters hardware added to a judging command that does not choose: by default a machine without CPU counters
    /// adds the simulated pass, minutes a run, and the tests that are about it ask for it (tests/EndToEnd/SimulatedRunTests).
    /// </summary>
    public static IReadOnlyList<string> WithoutSimulation(IReadOnlyList<string> args) =>
        args.Count > 0 && args[0] is "run" or "calibrate" && !args.Contains("--counters") ? args.Concat(new[] { "--counters", "hardware" }).ToList() : args;

    /// <summary>A running comparator whose output is collected by events, so neither pipe can hold up the other.</summary>
    public sealed class Watched : IDisposable
    {
        private readonly System.Text.StringBuilder _stdout = new();
        private readonly System.Text.StringBuilder _stderr = new();

        public Watched(Process process) => Process = process;

        public Process Process { get; }
        public string Stdout { get { lock (_stdout) return _stdout.ToString(); } }
        public string Stderr { get { lock (_stderr) return _stderr.ToString(); } }

        internal void Out(string? line) { lock (_stdout) _stdout.AppendLine(line); }
        internal void Err(string? line) { lock (_stderr) _stderr.AppendLine(line); }

        public void Dispose()
        {
            try { if (!Process.HasExited) Process.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
            Process.Dispose();
        }
    }

    /// <summary>Starts the comparator and returns once a line on stdout or stderr contains the marker; fails if it exits first.</summary>
    public static async Task<Watched> StartAndWaitForAsync(string marker, params string[] args)
    {
        var watched = new Watched(Start(args));
        var seen = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        watched.Process.OutputDataReceived += (_, e) =>
        {
            watched.Out(e.Data);
            if (e.Data?.Contains(marker) == true) seen.TrySetResult();
        };
        watched.Process.ErrorDataReceived += (_, e) =>
        {
            watched.Err(e.Data);
            if (e.Data?.Contains(marker) == true) seen.TrySetResult();
        };
        watched.Process.BeginOutputReadLine();
        watched.Process.BeginErrorReadLine();
        try
        {
            await Task.WhenAny(seen.Task, watched.Process.WaitForExitAsync()).WaitAsync(Patience);
        }
        catch (TimeoutException)
        {
            // What it printed says where it stood: the line it never reached is the test's question.
            watched.Dispose();
            throw new TimeoutException($"the comparator printed no '{marker}' within {Patience.TotalSeconds:0} s:\n{watched.Stderr}\n{watched.Stdout}");
        }
        if (!seen.Task.IsCompleted)
        {
            watched.Dispose();
            throw new InvalidOperationException($"the comparator ended before printing '{marker}':\n{watched.Stderr}");
        }
        return watched;
    }

    /// <summary>Runs to the end and returns exit code, stdout and stderr.</summary>
    public static Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(params string[] args) => RunAsync(null, args);

    public static Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(IReadOnlyDictionary<string, string>? environment, params string[] args) =>
        RunToEndAsync(Start(environment, args));

    /// <summary>Runs another built program (a service dll) to the end, the same way.</summary>
    public static Task<(int ExitCode, string Stdout, string Stderr)> RunDotNetAsync(string dll, params string[] args) =>
        RunToEndAsync(StartDll(dll, null, args));

    /// <summary>Waits for a started process (stdout and stderr redirected) to exit within <paramref name="patience"/> (default <see cref="Patience"/>), else kills its tree.</summary>
    public static async Task<(int ExitCode, string Stdout, string Stderr)> RunToEndAsync(Process started, TimeSpan? patience = null)
    {
        using var process = started;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(patience ?? Patience);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }
        return (process.ExitCode, await stdout, await stderr);
    }
}
