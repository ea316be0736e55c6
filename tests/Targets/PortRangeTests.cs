using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.ListenerHosting;
using Comparator.Results;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// --ports FIRST-LAST: the targets start on ports of the range (on Windows one URL reservation a port
/// then covers every launch of an HttpListener target), and each target is told the range, so a
/// target refused its URL names the reservation of the whole range.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class PortRangeTests : IDisposable
{
    /// <summary>Below Linux's ephemeral ports (32768 and up), so the comparator's own connections do not crowd it.</summary>
    private static readonly PortRange Range = new(20100, 20149);

    private readonly DirectoryInfo _out = Directory.CreateTempSubdirectory("comparator-ports-");

    public void Dispose() => _out.Delete(recursive: true);

    [Fact]
    public async Task A_run_with_ports_starts_listener_and_kestrel_targets_inside_the_range()
    {
        var listeners = TargetCatalog.Available.Where(t => t.Name is "httplistener" or "httplistener-mono").Select(t => t.Name);
        var targets = string.Join(',', listeners.Prepend("kestrel"));
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--targets", targets, "--endpoints", "time", "--warmup", "0",
            "--launches", "1", "--duration", "0.3s", "--repeat", "1", "--rate", "none", "--steady-bound", "0", "--ports", Range.ToString(), "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.json")), "results.json");
        Assert.Equal(targets.Split(','), run.Targets.Select(t => t.Name));
        Assert.All(run.Targets, t => Assert.True(Range.Contains(new Uri(t.BaseUrl!).Port), $"{t.Name} ran at {t.BaseUrl}, outside {Range}"));
    }

    [Theory]
    [InlineData("8100-8199", 8100, 8199)]
    [InlineData("8100", 8100, 8100)]
    [InlineData(" 1-65535 ", 1, 65535)]
    public void A_range_or_one_port_parses(string text, int first, int last)
    {
        Assert.True(PortRange.TryParse(text, out var range));
        Assert.Equal(new PortRange(first, last), range);
    }

    [Theory]
    [InlineData("8199-8100")]
    [InlineData("0-10")]
    [InlineData("8100-70000")]
    [InlineData("8100-8150-8199")]
    [InlineData("8100..8199")]
    [InlineData("")]
    public void Anything_else_is_refused(string text) => Assert.False(PortRange.TryParse(text, out _));

    [Fact]
    public void The_services_take_the_range_and_refuse_a_bad_one_with_one_line()
    {
        Assert.Equal("8100-8199", ServiceOptions.Parse(new[] { "--port", "8123", "--ports", "8100-8199" }, out _)!.PortRange);
        Assert.Null(ServiceOptions.Parse(new[] { "--ports", "8199-8100" }, out var error));
        Assert.Equal("--ports needs a range of ports such as 8100-8199", error);
    }

    [Fact]
    public void A_service_refused_its_url_names_the_reservation_of_its_range_or_of_its_port()
    {
        var inRange = UrlReservation.Message(ServiceOptions.Parse(new[] { "--port", "8123", "--ports", "8100-8199" }, out _)!);
        Assert.EndsWith(": 8100..8199 | % { netsh http add urlacl url=http://+:$_/ user=$env:USERNAME }", inRange);
        Assert.StartsWith("access denied listening on http://127.0.0.1:8123/", inRange);
        var alone = UrlReservation.Message(ServiceOptions.Parse(new[] { "--port", "8123" }, out _)!);
        Assert.EndsWith("(or run the comparator with --ports FIRST-LAST and reserve that range): 8123 | % { netsh http add urlacl url=http://+:$_/ user=$env:USERNAME }", alone);
        Assert.False(UrlReservation.IsAccessDenied(new System.Net.HttpListenerException(5)) && !OperatingSystem.IsWindows()); // HTTP.sys's error, on Windows only
    }
}
