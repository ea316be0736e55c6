using System;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.KnownGapBench;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;
using Xunit;
using Xunit.Abstractions;

namespace Comparator.Tests;

/// <summary>
/// The simulated count on real processes under valgrind, against a gap of known size: FixedWorkService (httplistener-mono's handler
/// under Mono) with no extra work, against its twin doing <see cref="Rounds"/> rounds of fixed arithmetic a request, about 3% of the
/// request's own instructions at /api/time. A count, not a time: the same instructions on any machine and at any load, so what is
/// asserted is what the count shows, not the machine's luck: in every launch the twin counts more than the base beside it (the paired
/// gap was 4.5k-9.7k a request, while a launch's median moved by up to 5k between launches), the extra count is 2-4.5% of the base's,
/// and the rule, asked as a user asks with --min-effect 1% --equivalence 1% (at the defaults, 3% and 5%, a gap of 3% is at most a lead
/// within the margin), never calls the twin cheaper or the same. That it settles the gap as costlier is measured, not asserted: 5 runs
/// in 5 did (docs/method.md), with the interval's low end 0.7-1.6% clear of the effect asked, a margin one wide launch could take.
/// </summary>
public sealed class SimulatedKnownGapTests : IDisposable
{
    /// <summary>Rounds of the twin's extra work: about 3% of the base's instructions per request at /api/time on one connection (320 rounds measured 2.5-2.9% of 217-221k in five runs, 18.4 instructions a round), docs/method.md.</summary>
    public const int Rounds = 370;

    /// <summary>
    /// Six launches, not the pass's three: a launch's median moves by 0.3-0.8% here, and Student's t at two degrees of freedom (9.9 at 99%)
    /// widens a 3% gap's interval past the 1% effect asked; at five launches (t 4.6) two runs in five still reached down to 1.010, at six (4.0)
    /// the interval is some 15% narrower.
    /// </summary>
    public const int Launches = 6;

    private readonly ITestOutputHelper _output;
    private readonly DirectoryInfo _out = Directory.CreateTempSubdirectory("comparator-known-gap-simulated-");

    public SimulatedKnownGapTests(ITestOutputHelper output) => _output = output;

    public void Dispose() => _out.Delete(recursive: true);

    [SkippableFact]
    public async Task The_twin_with_3_percent_more_work_a_request_counts_more_in_every_launch_and_is_never_judged_cheaper()
    {
        var (simulator, why) = await CallgrindSimulator.FindAsync();
        Skip.If(simulator is null, why);
        Skip.If(MonoRuntime.MissingReason is not null, MonoRuntime.MissingReason);

        var run = await SimulatedStudy.PairAsync(Rounds,
            new[] { "--min-effect", "1%", "--equivalence", "1%", "--simulated-launches", Launches.ToString(CultureInfo.InvariantCulture) }, new LineProgress(), _out.FullName);

        double[] PerLaunch(string target) => run.Cells.Single(c => c.Key.Target == target).WindowsOf(Metrics.SimulatedInstructionsPerRequest)
            .OrderBy(m => m.Launch).Select(m => Metrics.SimulatedInstructionsPerRequest.Of(m)!.Value).ToArray();
        var baseCounts = PerLaunch("base");
        var twinCounts = PerLaunch("twin");
        _output.WriteLine(run.Spec.SimulatedCounters);
        _output.WriteLine($"base: {string.Join(", ", baseCounts.Select(v => v.ToString("0", CultureInfo.InvariantCulture)))}");
        _output.WriteLine($"twin: {string.Join(", ", twinCounts.Select(v => v.ToString("0", CultureInfo.InvariantCulture)))}");
        foreach (var c in run.Cells)
            _output.WriteLine($"{c.Key.Target} windows: {string.Join(" ", (c.Simulated ?? Array.Empty<Measurement>()).Select(w => $"{w.Launch}:{Metrics.SimulatedInstructionsPerRequest.Of(w):0}"))}");
        Assert.Equal(Launches, baseCounts.Length);
        Assert.Equal(Launches, twinCounts.Length);

        Assert.All(Enumerable.Range(0, Launches), launch => Assert.True(twinCounts[launch] > baseCounts[launch],
            $"launch {launch + 1}: the twin counted {twinCounts[launch]:0}, the base beside it {baseCounts[launch]:0}"));
        var extra = twinCounts.Average() / baseCounts.Average() - 1;
        _output.WriteLine($"extra: {extra:P2}");
        Assert.InRange(extra, 0.02, 0.045);

        var verdict = run.ClosedLoopOthers().Single(v => v.Metric == Metrics.SimulatedInstructionsPerRequest.VerdictId);
        _output.WriteLine($"{verdict.Said()} {verdict.Ratio:0.000} ({verdict.RatioLow:0.000}-{verdict.RatioHigh:0.000})");
        Assert.NotNull(verdict.RatioLow);
        Assert.DoesNotContain(verdict.Outcome, new[] { CellVerdict.Lower, CellVerdict.Equivalent });
    }
}
