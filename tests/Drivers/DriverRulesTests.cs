using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Running;
using Xunit;
using Comparator.Statistics;

namespace Comparator.Tests;

/// <summary>Choosing drivers, pinning, and the cross-driver agreement rule.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class DriverRulesTests
{
    private static CellResult Cell(string driver, double rps, long bytesPerRequest)
    {
        var m = Measurement.Of((Metrics.Requests, 1000), (Metrics.Failed, 0), (Metrics.Non2xx, 0), (Metrics.Errors, 0), (Metrics.Timeouts, 0),
            (Metrics.ElapsedSeconds, 1), (Metrics.RequestsPerSecond, rps), (Metrics.LatencyMeanMs, 1), (Metrics.LatencyP50Ms, 1), (Metrics.LatencyP90Ms, 1),
            (Metrics.LatencyP99Ms, 1), (Metrics.LatencyMaxMs, 1), (Metrics.BytesReceived, 1000 * bytesPerRequest),
            (Metrics.ServerCpuSeconds, 0.1), (Metrics.ServerPeakRssMb, 50), (Metrics.ClientCpuSeconds, 0.1));
        return new CellResult(new CellKey("kestrel", "time", 0, 100, driver), ".NET 10", "-", true, new[] { m }, m, rps, rps, 0, 0,
            Array.Empty<string>(), null);
    }

    [Theory]
    [InlineData(1000, 1140, 167, 167, false)]
    [InlineData(1000, 1160, 167, 167, true)]
    [InlineData(1000, 1000, 167, 191, false)] // ab's HTTP/1.0 keep-alive header: explained by headers
    [InlineData(1000, 1000, 167, 300, true)]
    public void Drivers_disagree_beyond_15_percent_or_beyond_what_headers_explain(double rpsA, double rpsB, long bytesA, long bytesB, bool flagged)
    {
        var cells = DriverAgreement.Flag(new[] { Cell("httpclient", rpsA, bytesA), Cell("wrk", rpsB, bytesB) });
        Assert.All(cells, c => Assert.Equal(flagged, c.Flags.Contains(CellFlags.DriversDisagree)));
    }

    [Fact]
    public void A_single_driver_is_never_flagged_for_disagreement() =>
        Assert.Empty(DriverAgreement.Flag(new[] { Cell("wrk", 1, 1) }).Single().Flags);

    [Theory]
    [InlineData(null, new[] { "socket" })]
    [InlineData("all", new[] { "socket", "httpclient", "ab", "wrk" })]
    [InlineData("wrk,ab", new[] { "wrk", "ab" })]
    public void Driver_lists_resolve(string? raw, string[] expected) => Assert.Equal(expected, DriverCatalog.Resolve(raw).Value);

    [Theory]
    [InlineData("nbomber", "NBomber is not in this machine's NuGet source")]
    [InlineData("jmeter", "unknown driver 'jmeter'")]
    public void Unknown_or_unavailable_drivers_are_usage_errors(string raw, string expected) =>
        Assert.Contains(expected, DriverCatalog.Resolve(raw).Error);

    [Theory]
    [InlineData("0:1", "0", "1")]
    [InlineData("0-1:1", "0-1", "1")]
    public void Pin_takes_server_and_driver_cpu_lists(string raw, string server, string driver) =>
        Assert.Equal(new CpuPin(server, driver), CpuPin.Parse(raw).Value);

    [Theory]
    [InlineData("0")]
    [InlineData("a:b")]
    [InlineData("0:7")]
    [InlineData("0:1:2")]
    public void Bad_pins_are_usage_errors(string raw) => Assert.StartsWith("run: --pin", CpuPin.Parse(raw).Error);

    [Fact]
    public async Task A_driver_that_is_not_installed_gives_one_clear_line_and_exit_2()
    {
        var env = new Dictionary<string, string> { ["PATH"] = "/nonexistent" };
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(env, "run", "--driver", "ab", "--quick");

        Assert.Equal(2, exit);
        Assert.Equal("error: driver 'ab' is not installed (Debian package apache2-utils: apt-get install apache2-utils)", stderr.Trim());
        Assert.Equal("", stdout);
    }
}
