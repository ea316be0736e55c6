using System.Linq;
using Comparator.Comparing;
using Comparator.Measuring;
using Comparator.Reports.Text;
using Comparator.Results;
using Comparator.Running;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// Bytes allocated per request through the verdicts and the verdict's line, on injected GC figures: a twin that allocates N more
/// bytes a request is found costlier by that figure; never a verdict where no side's runtime gave one; collections per thousand
/// requests shown, not judged.
/// </summary>
public sealed class AllocationVerdictTests
{
    /// <summary>One launch's window at <paramref name="rps"/> for a second, <paramref name="perRequest"/> bytes allocated a request (null: not read).</summary>
    private static Measurement W(int launch, double rps, double? perRequest) =>
        TargetRuntimeCounters.WithCollector(ResultsTests.Window(rps), perRequest is double b ? new CollectorWork((long)(b * rps), (int)(rps / 100)) : null)
            with { Launch = launch };

    /// <summary>Five launches a side, req/s wobbling 1% as launches do; aspnetcore <paramref name="extra"/> more bytes a request than kestrel's 2,900.</summary>
    private static RunResult Run(double? extra) => InjectedRun.Pair(VerdictTests.AspNetCore, VerdictTests.Kestrel,
        InjectedRun.Cell("aspnetcore", "json", 0, Enumerable.Range(0, 5).Select(l => W(l, 1000 * (1 + 0.01 * l), extra is double e ? 2900 * (1 + 0.001 * (l % 2)) + e : null)).ToArray()),
        InjectedRun.Cell("kestrel", "json", 0, Enumerable.Range(0, 5).Select(l => W(l, 1000 * (1 + 0.01 * ((l + 2) % 5)), extra is null ? null : 2900 * (1 + 0.001 * (l % 3)))).ToArray()));

    [Fact]
    public void A_twin_that_allocates_1600_more_bytes_a_request_is_found_to_allocate_that_much_more()
    {
        var run = Run(extra: 1600);

        var verdict = run.ClosedLoopOthers().Single(v => v.Metric == Metrics.AllocatedBytesPerRequest.VerdictId!);
        Assert.Equal("kestrel", verdict.Leader);
        Assert.Equal(CellVerdict.Higher, verdict.Outcome);
        // 4,500 against 2,900 is 1.55x; the 0.1% wobble on each side leaves the interval about it.
        Assert.InRange(verdict.Ratio!.Value, 4500.0 / 2900 * 0.995, 4500.0 / 2900 * 1.005);
        var line = Verdict.Build(run).Single(l => l.Kind == VerdictLineKind.Endpoint).Text;
        Assert.Matches(@"alloc B/req 4[,.]?50\d vs 2[,.]?90\d: kestrel lower, 1\.55x", line);
        Assert.Equal(10, Metrics.CollectionsPerThousandRequests.Of(run.Cells[0].Repeats[0])!.Value, 6);
        Assert.Null(Metrics.CollectionsPerThousandRequests.Judging);
    }

    [Fact]
    public void Where_no_side_read_its_allocation_there_is_no_verdict_of_it()
    {
        var run = Run(extra: null);
        Assert.DoesNotContain(run.Verdicts, v => v.Metric == Metrics.AllocatedBytesPerRequest.VerdictId);
        Assert.DoesNotContain("alloc", Verdict.Build(run).Single(l => l.Kind == VerdictLineKind.Endpoint).Text);
        Assert.False(run.Cells[0].Repeats[0].Figures.ContainsKey(Metrics.AllocatedBytes.Id));
    }
}
