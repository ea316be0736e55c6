using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Profiling;
using Comparator.Reports.Exporters;
using Comparator.Results;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// System calls by call in the profile pass: perf trace's summary read and summed over threads (a saved summary of kestrel under
/// load), the report's table of them with each difference from the baseline, and on real processes a twin that makes 50 getppid
/// calls a request traced making 50 a request more than kestrel, which makes none.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class SystemCallTracerTests : IDisposable
{
    private readonly DirectoryInfo _out = Directory.CreateTempSubdirectory("comparator-trace-");

    public void Dispose() => _out.Delete(recursive: true);

    [Fact]
    public void The_summary_is_summed_over_every_thread_by_call()
    {
        var totals = SystemCallTracer.Parse(File.ReadAllLines(Path.Combine(AppContext.BaseDirectory, "Fixtures", "perf-trace-summary-kestrel.txt")));
        Assert.Equal(21, totals.Count);
        Assert.Equal((287_344L, 143_669L), totals["recvfrom"]); // the .NET Sockets thread's and three pool workers' rows
        Assert.Equal((143_711L, 0L), totals["sendto"]);
        Assert.Equal(85_531L, totals["epoll_wait"].Calls);
        Assert.DoesNotContain("syscall", totals.Keys); // the table's own header
    }

    [Fact]
    public void Records_perf_trace_lost_are_summed_from_its_lines()
    {
        Assert.Equal(1_500, SystemCallTracer.Lost(new[] { "LOST 1000 events!", " Summary of events:", "LOST 500 events!" }));
        Assert.Equal(0, SystemCallTracer.Lost(File.ReadAllLines(Path.Combine(AppContext.BaseDirectory, "Fixtures", "perf-trace-summary-kestrel.txt"))));
    }

    [Fact]
    public void Calls_a_request_come_most_first_with_their_errors()
    {
        var counts = SystemCallTracer.PerRequest(new System.Collections.Generic.Dictionary<string, (long, long)> { ["sendto"] = (1000, 0), ["recvfrom"] = (2000, 1000), ["futex"] = (5, 1) }, 1000);
        Assert.Equal(new[] { "recvfrom", "sendto", "futex" }, counts.Select(c => c.Call));
        Assert.Equal((2.0, 1.0), (counts[0].PerRequest, counts[0].ErrorsPerRequest));
        Assert.Empty(SystemCallTracer.PerRequest(new System.Collections.Generic.Dictionary<string, (long, long)> { ["sendto"] = (1, 0) }, 0));
    }

    [Fact]
    public void The_report_shows_each_call_a_request_and_the_difference_from_the_baseline()
    {
        var cell = new CellKey("kestrel", "time", 0, 100, "socket");
        ProfiledCell Traced(string target, params SystemCallCount[] calls) => new(cell with { Target = target }, null) { SystemCalls = calls, SystemCallRequests = 1000 };
        var profile = new ProfileResult("perf", null, "profile-layers.json", Array.Empty<LayerRule>(), new[]
        {
            Traced("kestrel", new SystemCallCount("recvfrom", 2, 1), new SystemCallCount("sendto", 1, 0), new SystemCallCount("futex", 0.009, 0)),
            Traced("twin", new SystemCallCount("getppid", 50, 0), new SystemCallCount("recvfrom", 2, 1), new SystemCallCount("sendto", 1.04, 0)),
            new ProfiledCell(cell with { Target = "other" }, null) { SystemCallsNotTraced = "not traced: perf trace failed (exit 1): no permission" },
        }) { Baseline = "kestrel" };

        var section = ProfileReport.CellSections(profile, cell).Single(s => s.Title.StartsWith("System calls by call", StringComparison.Ordinal));
        var rows = section.Table!.Rows;
        Assert.Equal(new[] { "getppid", "recvfrom", "sendto" }, rows.Select(r => r[0]));
        Assert.Equal(new[] { "getppid", "0.00 (0.00)", "50.0 (0.00)", "+50.0" }, rows[0]);
        Assert.Equal(new[] { "sendto", "1.00 (0.00)", "1.04 (0.00)", "+0.04" }, rows[2]);
        Assert.Contains("other: not traced: perf trace failed (exit 1): no permission", section.Lines);
        Assert.Contains("twin: 1,000 requests in the tracing window; 3 different calls, 53.0 a request in all", section.Lines);
        Assert.Contains("kestrel: 1,000 requests in the tracing window; 3 different calls, 3.0 a request in all; 1 of them under one in a hundred requests each, not shown", section.Lines);
    }

    [SkippableFact]
    public async Task A_twin_making_50_getppid_calls_a_request_is_traced_making_them()
    {
        var sampler = SamplingProfiler.Find(null).Profiler;
        Skip.If(sampler is null, "no perf here to trace with");
        var (tracer, untraced) = SystemCallTracer.Find(sampler!.Program);
        Skip.If(tracer is null, untraced);
        var twin = BuildLayout.Discover().AssemblyPath("MisbehavingService", null, "MisbehavingService.dll");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("profile", "--targets", "kestrel", "--target", $"twin=cmd:dotnet {twin} syscalls 50 --port {{port}}",
            "--endpoints", "time", "--concurrency", "8", "--warmup", "0.3s", "--first-warmup", "0.5s", "--profile-duration", "0.5s", "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var profile = ResultStore.DeserializeProfile(File.ReadAllText(Directory.GetFiles(_out.FullName, "profile.json", SearchOption.AllDirectories).Single()));
        var key = Assert.Single(profile.CellKeys);
        // Where perf trace could not keep up it lost records and says so, and the cell has no counts rather than short ones.
        var (twinCell, kestrelCell) = (profile.Of(key, "twin")!, profile.Of(key, "kestrel")!);
        if (twinCell.SystemCallsNotTraced is string lost)
        {
            Assert.StartsWith("not traced: perf trace lost ", lost);
            Assert.Empty(twinCell.SystemCalls);
            // The behaviour under loss is checked; the 50 calls are not, and the run says so rather than passing.
            Skip.If(true, $"perf trace lost records on this machine ({lost}): the 50 getppid calls a request were not checked");
        }
        double Getppid(ProfiledCell cell) => cell.SystemCalls.FirstOrDefault(c => c.Call == "getppid")?.PerRequest ?? 0;
        Assert.InRange(Getppid(twinCell) - Getppid(kestrelCell), 49.5, 50.5);
        Assert.Contains("System calls by call", File.ReadAllText(Directory.GetFiles(_out.FullName, "profile.html", SearchOption.AllDirectories).Single()));
    }
}
