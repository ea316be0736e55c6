using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Targets;

namespace Comparator.Tests;

/// <summary>
/// A net472 target run under Mono's log profiler with heapshots on demand: each <see cref="TakeAsync"/>
/// makes the runtime run a full collection and record every live object by class; <see cref="StopAndReadAsync"/>
/// stops the service and reads them back with mprof-report (part of mono-complete). The managed heap
/// measured this way holds only live objects, so it is the right thing to bound, where RSS swings
/// with the collector's timing.
/// </summary>
public sealed partial class MonoHeapshots : IAsyncDisposable
{
    private readonly Process _process;
    private readonly int _commandPort;
    private readonly string _output;

    private MonoHeapshots(Process process, int commandPort, string output, Uri baseAddress)
    {
        _process = process;
        _commandPort = commandPort;
        _output = output;
        BaseAddress = baseAddress;
    }

    public Uri BaseAddress { get; }

    public static async Task<MonoHeapshots> StartAsync(TargetDefinition target, string outputFile)
    {
        var mono = MonoRuntime.Path ?? throw new InvalidOperationException("Mono is not installed: " + MonoRuntime.MissingReason);
        var commandPort = TargetLauncher.FreeLoopbackPort();
        var info = new ProcessStartInfo(mono) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        // nodefaults: no allocation or call events, only the heapshots asked for, so the service runs at nearly full speed.
        info.ArgumentList.Add($"--profile=log:nodefaults,heapshot=ondemand,port={commandPort},output={outputFile}");
        info.ArgumentList.Add(BuildLayout.Discover().AssemblyPath(target));
        info.ArgumentList.Add("--port");
        info.ArgumentList.Add(TargetLauncher.FreeLoopbackPort().ToString(CultureInfo.InvariantCulture));
        var process = Process.Start(info)!;
        process.ErrorDataReceived += (_, _) => { };
        process.BeginErrorReadLine();
        var ready = Task.Run(() =>
        {
            string? line;
            while ((line = process.StandardOutput.ReadLine()) != null)
                if (ReadyLine.TryParse(line, out var url)) return url;
            return null;
        });
        var url = await ready.WaitAsync(TimeSpan.FromSeconds(30))
            ?? throw new InvalidOperationException($"{target.Name} under the profiler exited before it was ready (code {process.ExitCode})");
        _ = Task.Run(() => process.StandardOutput.ReadToEnd()); // keep the pipe drained
        return new MonoHeapshots(process, commandPort, outputFile, new Uri(url));
    }

    /// <summary>Asks for a heapshot and gives the runtime a moment to take it (a full collection of a small heap).</summary>
    public async Task TakeAsync()
    {
        using (var client = new TcpClient())
        {
            await client.ConnectAsync(IPAddress.Loopback, _commandPort);
            await client.GetStream().WriteAsync(Encoding.ASCII.GetBytes("heapshot\n"));
        }
        await Task.Delay(TimeSpan.FromSeconds(1));
    }

    /// <summary>Stops the service (SIGTERM, so the profiler flushes its file) and returns the heapshots in order.</summary>
    public async Task<IReadOnlyList<Heapshot>> StopAndReadAsync()
    {
        ChildProcesses.Signal(_process.Id, 15);
        await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(30));
        var report = new ProcessStartInfo("mprof-report") { RedirectStandardOutput = true, UseShellExecute = false };
        report.ArgumentList.Add("--reports=heapshot");
        report.ArgumentList.Add(_output);
        using var reader = Process.Start(report)!;
        var text = await reader.StandardOutput.ReadToEndAsync();
        await reader.WaitForExitAsync();
        return Parse(text);
    }

    /// <summary>
    /// mprof-report's heapshot summary: a "Heap shot N at T secs: size: BYTES, object count: N, ..." line
    /// per shot, then its largest classes as "BYTES COUNT AVERAGE CLASS (bytes: +B, count: +C)".
    /// </summary>
    public static IReadOnlyList<Heapshot> Parse(string report)
    {
        var shots = new List<Heapshot>();
        foreach (var raw in report.Split('\n'))
        {
            var line = raw.Trim();
            var shot = ShotLine().Match(line);
            if (shot.Success)
            {
                shots.Add(new Heapshot(long.Parse(shot.Groups[1].Value, CultureInfo.InvariantCulture),
                    long.Parse(shot.Groups[2].Value, CultureInfo.InvariantCulture), new List<string>()));
                continue;
            }
            if (shots.Count > 0 && ClassLine().IsMatch(line)) ((List<string>)shots[^1].LargestClasses).Add(line);
        }
        return shots;
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            try { _process.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
            await _process.WaitForExitAsync();
        }
        _process.Dispose();
    }

    [GeneratedRegex(@"^Heap shot \d+ at [\d.]+ secs: size: (\d+), object count: (\d+)")]
    private static partial Regex ShotLine();

    [GeneratedRegex(@"^\d+\s+\d+\s+\d+\s+\S")]
    private static partial Regex ClassLine();
}

/// <summary>One heapshot: the live managed heap after a full collection, and its largest classes as mprof-report lists them.</summary>
public sealed record Heapshot(long Bytes, long Objects, IReadOnlyList<string> LargestClasses);
