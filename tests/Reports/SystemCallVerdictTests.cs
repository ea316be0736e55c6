using System.Collections.Generic;
using System.Linq;
using Comparator.Comparing;
using Comparator.Measuring;
using Comparator.Reports.Text;
using Comparator.Results;
using Comparator.Running;
using Comparator.Statistics;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// System calls per request through the verdicts and the verdict's line, on injected counts: a twin that makes N more a request is
/// found costlier by that figure; never a verdict where nobody counted; the tracepoint's record as the kernel reads it.
/// </summary>
public sealed class SystemCallVerdictTests
{
    /// <summary>One launch's window at <paramref name="rps"/> for a second, <paramref name="perRequest"/> system calls a request (null: not counted).</summary>
    private static Measurement W(int launch, double rps, double? perRequest) =>
        (perRequest is double n
            ? CellMeasurer.WithCounts(ResultsTests.Window(rps), new CpuCounterWindow(new Dictionary<string, double> { ["systemCalls"] = n * rps }, false))
            : ResultsTests.Window(rps)) with { Launch = launch };

    /// <summary>Five launches a side, req/s wobbling 1% as launches do; wcf-classic <paramref name="extra"/> more system calls a request than webapi-selfhost's 33.</summary>
    private static RunResult Run(double? extra) => InjectedRun.Pair(VerdictTests.WcfClassic, VerdictTests.WebApiSelfhost,
        InjectedRun.Cell("wcf-classic", "time", 0, Enumerable.Range(0, 5).Select(l => W(l, 1000 * (1 + 0.01 * l), extra is double e ? 33 * (1 + 0.01 * (l % 2)) + e : null)).ToArray()),
        InjectedRun.Cell("webapi-selfhost", "time", 0, Enumerable.Range(0, 5).Select(l => W(l, 1000 * (1 + 0.01 * ((l + 2) % 5)), extra is null ? null : 33 * (1 + 0.01 * (l % 3)))).ToArray()));

    [Fact]
    public void A_twin_that_makes_eight_more_system_calls_a_request_is_found_to_make_that_many_more()
    {
        var run = Run(extra: 8);

        var verdict = run.ClosedLoopOthers().Single(v => v.Metric == Metrics.SystemCallsPerRequest.VerdictId!);
        Assert.Equal("webapi-selfhost", verdict.Leader);
        Assert.Equal(CellVerdict.Higher, verdict.Outcome); // wcf-classic's figure against the baseline's
        // 41 against 33 is 1.24x; the launches' 1% wobble on each side leaves the interval about it.
        Assert.InRange(verdict.Ratio!.Value, 41.0 / 33 * 0.98, 41.0 / 33 * 1.02);
        var line = Verdict.Build(run).Single(l => l.Kind == VerdictLineKind.Endpoint).Text;
        Assert.Matches(@"syscalls/req 41 vs 33: webapi-selfhost lower, 1\.2\dx \(99% interval 1\.2\dx–1\.2\dx\)", line);
    }

    [Fact]
    public void Where_no_side_counted_system_calls_there_is_no_verdict_of_them()
    {
        var run = Run(extra: null);
        Assert.DoesNotContain(run.Verdicts, v => v.Metric == Metrics.SystemCallsPerRequest.VerdictId);
        Assert.DoesNotContain("syscalls", Verdict.Build(run).Single(l => l.Kind == VerdictLineKind.Endpoint).Text);
    }

    [Fact]
    public void The_system_call_tracepoint_is_opened_as_a_tracepoint_counting_every_mode()
    {
        var attr = PerfEventOpen.AttrFor(CpuCounterEvent.SystemCalls(443), inherit: true);
        // PERF_TYPE_TRACEPOINT (2), its id from tracefs as the config, inherit and exclude_hv alone: a tracepoint fires in the kernel,
        // so excluding kernel mode would count nothing.
        Assert.Equal((2u, 443UL, (1UL << 1) | (1UL << 6)), (attr.Type, attr.Config, attr.Flags));
        Assert.False(CpuCounterEvent.SystemCalls(443).NeedsPmu);
    }
}
