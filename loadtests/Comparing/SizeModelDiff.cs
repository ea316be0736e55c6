using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Comparing;

/// <summary>
/// One size model compared between two sides (two runs, or two targets of one run): its fixed cost a request and its cost per KB, each
/// judged by the diff's rule like any gated figure, new against base. <see cref="Label"/> names it as the diff's table does a cell.
/// </summary>
public sealed record ModelDiff(string Label, Comparison Fixed, Comparison PerKb)
{
    public IEnumerable<(string Part, Comparison Change)> Parts => new[] { (FixedPart, Fixed), (PerKbPart, PerKb) };

    public const string FixedPart = "fixed cost a request";
    public const string PerKbPart = "cost per KB";
}

/// <summary>
/// The size models of two sides, matched by figure, endpoint, concurrency and driver (and target between runs) and fitted over the same
/// sizes (a line over other sizes is another line: its fixed part an extrapolation from elsewhere), each part judged from the launches'
/// lines: Welch's t over each run's per-launch parts between two runs, paired by launch between two targets of one run.
/// </summary>
public static class SizeModelDiff
{
    public static IReadOnlyList<ModelDiff> BetweenRuns(RunResult baseRun, RunResult newRun, LeadRule rule)
    {
        var news = SizeModelFit.Build(newRun).Models;
        return SizeModelFit.Build(baseRun).Models
            .Select(b => (Base: b, New: news.FirstOrDefault(n => n.Target == b.Target && Same(b, n))))
            .Where(p => p.New is not null)
            .Select(p => Judge(p.Base, p.New!, rule, paired: false, $"{p.Base.Target} {p.Base.Endpoint} c={p.Base.Concurrency} {p.Base.Driver}"))
            .ToList();
    }

    public static IReadOnlyList<ModelDiff> BetweenTargets(RunResult run, string from, string to, LeadRule rule)
    {
        var models = SizeModelFit.Build(run).Models;
        return models.Where(b => b.Target == from)
            .Select(b => (Base: b, New: models.FirstOrDefault(n => n.Target == to && Same(b, n))))
            .Where(p => p.New is not null)
            .Select(p => Judge(p.Base, p.New!, rule, paired: true, $"{p.Base.Endpoint} c={p.Base.Concurrency} {p.Base.Driver}"))
            .ToList();
    }

    private static bool Same(SizeModel a, SizeModel b) =>
        a.Figure == b.Figure && a.Endpoint == b.Endpoint && a.Concurrency == b.Concurrency && a.Driver == b.Driver &&
        a.Points.Select(p => p.SizeBytes).SequenceEqual(b.Points.Select(p => p.SizeBytes));

    private static ModelDiff Judge(SizeModel b, SizeModel n, LeadRule rule, bool paired, string label)
    {
        var figure = Metrics.ById(b.Figure)!;
        Comparison Part(Func<LaunchLine, double> part, double baseMean, double newMean, string name)
        {
            if (b.Launches.Concat(n.Launches).Any(l => part(l) <= 0))
                return new Comparison(figure, baseMean, newMean, null, $"a launch's {name} is zero or less: no ratio", null, rule);
            if (!paired)
                return MetricJudge.FromIndependentLogs(rule, figure, b.Launches.Select(l => Math.Log(part(l))).ToList(),
                    n.Launches.Select(l => Math.Log(part(l))).ToList(), baseMean, newMean);
            var logRatios = b.Launches.Join(n.Launches, x => x.Launch, y => y.Launch, (x, y) => Math.Log(part(y) / part(x))).ToList();
            return MetricJudge.FromLogRatios(rule, figure, logRatios, baseMean, newMean);
        }
        return new ModelDiff(label + $" ({figure.Label})",
            Part(l => l.Fixed, b.Fixed.Value, n.Fixed.Value, ModelDiff.FixedPart), Part(l => l.PerKb, b.PerKb.Value, n.PerKb.Value, ModelDiff.PerKbPart));
    }
}
