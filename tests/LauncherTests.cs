using System;
using System.IO;
using System.Net.Http;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>The target launcher against real service processes.</summary>
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

        var exitCode = await running.StopAsync();

        Assert.Equal(ServiceExitCodes.Stopped, exitCode); // 0 means it handled SIGTERM, not that it was killed
        Assert.True(running.HasExited);
    }

    [Fact]
    public async Task A_target_that_cannot_run_here_is_refused_with_its_reason()
    {
        foreach (var target in TargetCatalog.All)
        {
            if (target.IsAvailable) continue;
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
}
