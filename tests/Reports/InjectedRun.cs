using System.Collections.Generic;
using System.Linq;
using Comparator.Comparing;
using Comparator.Results;
using Comparator.Running;

namespace Comparator.Tests;

/// <summary>A run made of injected windows, judged as a run's are: how the verdict tests of one figure each build their pair.</summary>
internal static class InjectedRun
{
    /// <summary>One cell of <paramref name="target"/> at an endpoint and size, its summary the median window as a measured cell's is.</summary>
    public static CellResult Cell(string target, string endpoint, int sizeBytes, params Measurement[] repeats)
    {
        var template = ResultsTests.Sample().Cells[0];
        var rates = repeats.Select(r => r.RequestsPerSecond).ToList();
        return template with
        {
            Key = template.Key with { Target = target, Endpoint = endpoint, SizeBytes = sizeBytes },
            Repeats = repeats, Summary = CellMeasurer.MedianRepeat(repeats), RpsMin = rates.Min(), RpsMax = rates.Max(), Flags = new List<string>(),
        };
    }

    /// <summary>The run of these cells between two targets, <paramref name="baseline"/> the base, with its verdicts built.</summary>
    public static RunResult Pair(TargetInfo other, TargetInfo baseline, params CellResult[] cells)
    {
        var sample = ResultsTests.Sample();
        var run = sample with
        {
            Spec = sample.Spec with { BaselineTarget = baseline.Name, Targets = new[] { other.Name, baseline.Name } },
            Targets = new[] { other, baseline },
            Cells = cells,
        };
        return run with { Verdicts = PairVerdicts.Build(run) };
    }
}
