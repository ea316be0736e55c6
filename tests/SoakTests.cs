using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Reports;
using Comparator.Soak;
using Xunit;

namespace Comparator.Tests;

/// <summary>The soak command against the real targets, and its memory-growth rule.</summary>
public sealed class SoakTests : IDisposable
{
    private readonly DirectoryInfo _out = Directory.CreateTempSubdirectory("comparator-soak-");

    public void Dispose() => _out.Delete(recursive: true);

    [Fact]
    public async Task Soak_loads_every_target_with_verified_requests_and_reports_failures_and_rss_from_start_to_end()
    {
        // One size: four cells of 1 s per pass, so 9 s makes two passes and growth can be judged.
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("soak", "--duration", "9s", "--concurrency", "8", "--sizes", "500", "--out", _out.FullName);

        var directory = Assert.Single(_out.GetDirectories("soak-*"));
        var soak = SoakReport.Deserialize(File.ReadAllText(Path.Combine(directory.FullName, "soak.json")));
        Assert.False(soak.Partial);
        Assert.Equal(new[] { "time", "json", "echo-post 500B", "echo-put 500B" }, soak.Spec.Cells);
        Assert.Equal(Targets.TargetCatalog.Available.Select(t => t.Name), soak.Targets.Select(t => t.Name));
        foreach (var t in soak.Targets)
        {
            Assert.Null(t.NotRunReason);
            Assert.True(t.Requests > 0, t.Name);
            Assert.Equal(0, t.Failed);
            Assert.True(t.Passes >= 2, $"{t.Name}: {t.Passes} passes");
            Assert.True(t.Rss.Count >= 2 && t.RssStartMb > 0 && t.RssEndMb > 0 && t.RssPeakMb >= t.RssEndMb, t.Name);
            Assert.Contains(t.Growth, new[] { MemoryGrowth.None, MemoryGrowth.Flagged });
            Assert.Contains($"{t.Name} ", stdout);
        }
        Assert.Equal(soak.Targets.All(MemoryGrowth.IsClean) ? 0 : 1, exit);
        Assert.Contains("results: " + directory.FullName, stdout);
        Assert.DoesNotContain("   at ", stderr);
    }

    [Fact]
    public async Task A_target_that_dies_mid_soak_is_reported_the_results_are_written_and_the_exit_code_is_1()
    {
        using var watched = await ComparatorProcess.StartAndWaitForAsync("pass 1", "soak", "--targets", "kestrel", "--duration", "60s",
            "--concurrency", "8", "--sizes", "500", "--out", _out.FullName);
        var target = ChildProcesses.Of(watched.Process.Id).Single(pid => ChildProcesses.CommandLine(pid).Contains("KestrelService"));

        ChildProcesses.Signal(target, 9);
        await watched.Process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(30)); // far less than the 60 s asked for

        Assert.Equal(1, watched.Process.ExitCode);
        var soak = SoakReport.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories("soak-*")).FullName, "soak.json")));
        var kestrel = Assert.Single(soak.Targets);
        Assert.True(kestrel.ExitedDuringSoak);
        Assert.False(MemoryGrowth.IsClean(kestrel));
    }

    [Theory]
    [InlineData("soak: --duration takes a positive duration", "--duration", "-5s")]
    [InlineData("soak: --concurrency needs a positive whole number", "--concurrency", "0")]
    [InlineData("soak: --concurrency takes a whole number from 1 to 10000", "--concurrency", "99999")]
    [InlineData("soak: unknown target 'nosuch'", "--targets", "nosuch")]
    [InlineData("soak: 'nofile.bin' is neither a size", "--sizes", "nofile.bin")]
    [InlineData("soak: unknown option '--rate'", "--rate", "5")]
    public async Task Bad_soak_arguments_exit_2_with_one_line(string expected, string option, string value)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("soak", option, value, "--out", _out.FullName);

        Assert.Equal(2, exit);
        Assert.Contains(expected, Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)));
        Assert.Equal("", stdout);
        Assert.Empty(_out.GetDirectories());
    }

    [Theory]
    [InlineData(100.0, 130.0, 3, MemoryGrowth.Flagged)]   // +30 MiB, +30%: both over the bar
    [InlineData(200.0, 230.0, 3, MemoryGrowth.None)]      // +30 MiB but only +15%
    [InlineData(20.0, 35.0, 3, MemoryGrowth.None)]        // +75% but only +15 MiB
    [InlineData(100.0, 90.0, 3, MemoryGrowth.None)]       // shrank
    [InlineData(100.0, 300.0, 1, MemoryGrowth.Undetermined)] // one pass: no baseline to judge from
    public void Memory_growth_is_flagged_only_when_large_in_mib_and_in_percent_after_two_passes(double afterFirstPass, double end, int passes, string verdict)
    {
        var (judged, detail) = MemoryGrowth.Judge(afterFirstPass, end, passes);

        Assert.Equal(verdict, judged);
        Assert.False(string.IsNullOrWhiteSpace(detail));
    }
}
