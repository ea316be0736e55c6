using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Net.Http;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>The target launcher against real service processes.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class LauncherTests
{
    private readonly TargetLauncher _launcher = new(BuildLayout.Discover());

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task A_started_target_serves_on_loopback_and_stops_cleanly_on_sigterm(string name)
    {
        var running = await _launcher.StartAsync(TargetCatalog.Find(name)!, ServiceSwitches.Default);
        using (var http = new HttpClient())
        {
            Assert.Equal("127.0.0.1", running.BaseUrl.Host);
            Assert.StartsWith(TimeText.Prefix, await http.GetStringAsync(new Uri(running.BaseUrl, Routes.Time)));
        }

        // SIGTERM alone, its stdin still open: the second stop path (StopAsync closes stdin first, StdinStopTests).
        ChildProcesses.Signal(running.ProcessId, 15);
        await running.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(10));
        var exitCode = await running.StopAsync();

        Assert.Equal(ServiceExitCodes.Stopped, exitCode); // 0 means it handled SIGTERM, not that it was killed
        Assert.True(running.HasExited);
    }

    /// <summary>
    /// Every target, the stock WCF variant included, is given --tcp-nodelay and says what it did; the
    /// HttpListener hosts read the option back from their listening socket (Linux copies it to every
    /// accepted socket), so "on" there is the kernel's word, not the flag echoed.
    /// </summary>
    [Theory]
    [MemberData(nameof(EveryAvailableTarget))]
    public async Task Every_target_takes_tcp_nodelay_and_reports_it_read_back_where_its_host_allows(string name)
    {
        var target = TargetCatalog.Find(name)!;
        foreach (var on in new[] { true, false })
        {
            await using var running = await _launcher.StartAsync(target, ServiceSwitches.Default with { TcpNoDelay = on });
            var fact = running.TcpNoDelay;
            Assert.NotNull(fact);
            Assert.StartsWith(on ? "on:" : "off:", fact);
            if (target.Server == "Kestrel") Assert.Contains("SocketTransportOptions.NoDelay", fact);
            else Assert.Contains(on ? "read back on" : "read back off", fact);
        }
    }

    public static IEnumerable<object[]> EveryAvailableTarget => TargetCatalog.Available.Select(t => new object[] { t.Name });

    [SkippableFact]
    public async Task A_target_that_cannot_run_here_is_refused_with_its_reason()
    {
        var unavailable = TargetCatalog.All.Where(t => !t.IsAvailable).ToList();
        Skip.If(unavailable.Count == 0, "every target can run here: none to refuse");
        foreach (var target in unavailable)
        {
            var e = await Assert.ThrowsAsync<LaunchException>(() => _launcher.StartAsync(target, ServiceSwitches.Default));
            Assert.Contains(target.Name, e.Message);
            Assert.Contains(target.UnavailableReason!, e.Message);
        }
    }

    [Fact]
    public async Task A_target_that_is_not_built_is_an_error_that_says_how_to_build_it()
    {
        var empty = Directory.CreateTempSubdirectory("comparator-layout-");
        try
        {
            var launcher = new TargetLauncher(new BuildLayout(empty.FullName, "Release"));
            var e = await Assert.ThrowsAsync<LaunchException>(() => launcher.StartAsync(TargetCatalog.Find("kestrel")!, ServiceSwitches.Default));
            Assert.Contains("not built", e.Message);
            Assert.Contains("dotnet build -c Release Comparator.sln", e.Message);
        }
        finally
        {
            empty.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task A_target_that_exits_before_it_is_ready_is_reported_with_its_exit_code_and_error_line()
    {
        // A body limit of 0 is refused by every service's option parser (exit code 2).
        var e = await Assert.ThrowsAsync<LaunchException>(() =>
            _launcher.StartAsync(TargetCatalog.Find("kestrel")!, new ServiceSwitches(MaxBodyBytes: 0)));
        Assert.Contains($"exited with code {ServiceExitCodes.BadArguments}", e.Message);
        Assert.Contains("--max-body-bytes", e.Message);
    }

    [Fact]
    public async Task A_target_that_never_prints_its_ready_line_is_an_error_after_the_timeout_and_is_killed()
    {
        var silent = new TargetDefinition("silent", "test double", ".NET 10", "none", "SilentService", "SilentService.dll", HostRuntime.DotNet, null);
        var launcher = new TargetLauncher(BuildLayout.Discover(), readyTimeout: TimeSpan.FromSeconds(2));
        var before = ChildProcesses.Of(Environment.ProcessId);

        var e = await Assert.ThrowsAsync<LaunchException>(() => launcher.StartAsync(silent, ServiceSwitches.Default));

        Assert.Contains("target 'silent' printed no ready line within 2 s", e.Message);
        Assert.Empty(ChildProcesses.Of(Environment.ProcessId).Except(before)); // killed, not left behind
    }

    [Fact]
    public async Task A_port_taken_by_someone_else_is_retried_on_another_port()
    {
        using var squatter = new TcpListener(IPAddress.Loopback, 0);
        squatter.Start();
        var taken = ((IPEndPoint)squatter.LocalEndpoint).Port;
        var offered = 0;
        var launcher = new TargetLauncher(BuildLayout.Discover(), portSource: () => offered++ == 0 ? taken : TargetLauncher.FreeLoopbackPort());

        foreach (var name in TargetCatalog.Available.Select(t => t.Name))
        {
            offered = 0;
            await using var running = await launcher.StartAsync(TargetCatalog.Find(name)!, ServiceSwitches.Default);
            Assert.Equal(2, offered); // the taken port first, then a free one
            Assert.NotEqual(taken, running.BaseUrl.Port);
        }
    }

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task A_service_given_a_taken_port_exits_3_with_one_line(string name)
    {
        using var squatter = new TcpListener(IPAddress.Loopback, 0);
        squatter.Start();
        var taken = ((IPEndPoint)squatter.LocalEndpoint).Port;
        var target = TargetCatalog.Find(name)!;

        var (exit, stdout, stderr) = await ComparatorProcess.RunDotNetAsync(BuildLayout.Discover().AssemblyPath(target), "--port", taken.ToString(CultureInfo.InvariantCulture));

        Assert.Equal(ServiceExitCodes.CannotListen, exit);
        Assert.Equal("", stdout); // no ready line
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("cannot listen on http://127.0.0.1:" + taken, line);
    }
}
