using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Net.Http;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Targets;
using Xunit;
using Xunit.Abstractions;

namespace Comparator.Tests;

/// <summary>
/// The stop request every OS and runtime sees: the launcher closes a target's stdin (a pipe it
/// holds open), and the target stops cleanly; a service started by hand does not watch its stdin.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
public sealed class StdinStopTests
{
    /// <summary>How long the launcher waits on a closed stdin before a SIGTERM: a service without the switch must outlive it.</summary>
    private static readonly TimeSpan Bound = RunningTarget.InputGrace;
    private readonly TargetLauncher _launcher = new(BuildLayout.Discover());
    private readonly ITestOutputHelper _output;

    public StdinStopTests(ITestOutputHelper output) => _output = output;

    public static IEnumerable<object[]> EveryAvailableTarget => TargetCatalog.Available.Select(t => new object[] { t.Name });

    /// <summary>
    /// The stdin's end alone stops the target, cleanly: nothing else is sent (no SIGTERM, no kill), so a target that did not
    /// watch its stdin would still be running when the test's patience ran out. How soon it stops is the machine's pace (a
    /// Mono stop on a loaded machine took over a second): a slow stop costs the launcher a SIGTERM, not a wrong result.
    /// </summary>
    [Theory]
    [MemberData(nameof(EveryAvailableTarget))]
    public async Task A_target_stops_cleanly_on_its_stdin_closing_with_nothing_else_asked(string name)
    {
        await using var running = await _launcher.StartAsync(TargetCatalog.Find(name)!, ServiceSwitches.Default);

        var clock = Stopwatch.StartNew();
        running.CloseInput();
        var exited = running.WaitForExitAsync();
        await Task.WhenAny(exited, Task.Delay(ComparatorProcess.Patience));
        clock.Stop();

        _output.WriteLine($"{name}: exited {clock.Elapsed.TotalMilliseconds:0} ms after its stdin closed");
        Assert.True(exited.IsCompleted, $"{name} still running {ComparatorProcess.Patience.TotalSeconds:0} s after its stdin closed: it does not stop on it");
        Assert.True(running.HasExited);
        Assert.Equal(ServiceExitCodes.Stopped, await running.StopAsync()); // 0: a clean stop, not a kill
    }

    /// <summary>
    /// Started as a user starts it (no --stop-on-stdin-close) with /dev/null as stdin, which ends at
    /// once: it keeps serving past the bound a watching service stops within, and stops on SIGTERM.
    /// </summary>
    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task A_service_started_without_the_switch_keeps_running_with_dev_null_as_stdin(string name)
    {
        var target = TargetCatalog.Find(name)!;
        var port = TargetLauncher.FreeLoopbackPort();
        using var service = StartWithNullInput(target, port, parentPid: null);
        try
        {
            string? line;
            while ((line = await service.StandardOutput.ReadLineAsync().WaitAsync(ComparatorProcess.Patience)) is not null && !ReadyLine.TryParse(line, out _)) { }
            Assert.NotNull(line); // it exited before its ready line

            await Task.Delay(Bound * 2);

            Assert.False(service.HasExited, $"{name} stopped with /dev/null as stdin and no {StdinWatch.Switch}");
            using var http = new HttpClient();
            Assert.StartsWith(TimeText.Prefix, await http.GetStringAsync($"http://127.0.0.1:{port}{Routes.Time}"));
            ChildProcesses.Signal(service.Id, 15);
            await service.WaitForExitAsync().WaitAsync(ComparatorProcess.Patience);
            Assert.Equal(ServiceExitCodes.Stopped, service.ExitCode);
        }
        finally
        {
            if (!service.HasExited) service.Kill(entireProcessTree: true);
        }
    }

    /// <summary>
    /// The second guard on POSIX, alone: a service told its launcher's pid, whose parent is another
    /// process (as after the launcher's death), stops cleanly though it watches no stdin.
    /// </summary>
    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task A_service_whose_parent_is_not_its_launcher_stops_without_a_stdin_watch(string name)
    {
        using var service = StartWithNullInput(TargetCatalog.Find(name)!, TargetLauncher.FreeLoopbackPort(), parentPid: 1);
        try
        {
            await service.WaitForExitAsync().WaitAsync(ComparatorProcess.Patience);
            Assert.Equal(ServiceExitCodes.Stopped, service.ExitCode);
        }
        finally
        {
            if (!service.HasExited) service.Kill(entireProcessTree: true);
        }
    }

    /// <summary>The service under sh with stdin from /dev/null, as `Service --port N &lt; /dev/null` in a shell; parentPid as a launcher passes it, or none.</summary>
    private static Process StartWithNullInput(TargetDefinition target, int port, int? parentPid)
    {
        var assembly = BuildLayout.Discover().AssemblyPath(target);
        var info = new ProcessStartInfo("sh") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.Environment.Remove(ParentWatch.Variable);
        if (parentPid is int pid) info.Environment[ParentWatch.Variable] = pid.ToString(System.Globalization.CultureInfo.InvariantCulture);
        foreach (var a in new[] { "-c", "exec \"$@\" < /dev/null", "sh", target.Host == HostRuntime.NetFramework ? "mono" : "dotnet", assembly })
            info.ArgumentList.Add(a);
        foreach (var a in target.ServiceArguments(port, ServiceSwitches.Default)) info.ArgumentList.Add(a);
        var process = Process.Start(info)!;
        process.ErrorDataReceived += (_, _) => { }; // drained, so a chatty service never blocks on a full pipe
        process.BeginErrorReadLine();
        return process;
    }
}
