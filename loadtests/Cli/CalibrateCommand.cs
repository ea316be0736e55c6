using System.CommandLine;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Drivers;
using Comparator.Errors;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Statistics;
using Comparator.Targets;
using Comparator.Reports.Sections;

namespace Comparator.Cli;

/// <summary>
/// calibrate: the A/A test, built in. For each target, two instances of the same build (NAME.A and
/// NAME.B) are measured against each other exactly as `run` measures a pair (launches, rounds, the
/// lead rule). Any lead it claims is a false one: the rule's error on this machine, with these
/// settings. Each target's run is saved as a normal run directory, so report and diff read it.
/// Exit 0 when no lead was claimed, 1 when one was (or a target could not be measured), 2 bad arguments.
/// </summary>
public static class CalibrateCommand
{
    /// <summary>run's options that calibrate does not take: it names its own pair and baseline, and compares nothing else.</summary>
    private static readonly string[] NotTaken = { "--target", "--insecure", "--baseline-target", "--compare-to", "--threshold", "--label", "--revision" };

    public static Command Define()
    {
        var calibrate = new Command("calibrate",
            "The A/A test: two instances of each target measured against each other with run's method (default: each side of the default " +
            "pair in turn). Prints each cell's ratio, its interval and whether a lead would have been claimed; saves a run directory per target. " +
            "Exit 0 when no lead is claimed, 1 when one is.");
        foreach (var option in RunCommand.Options().Where(o => !NotTaken.Contains(o.Name)))
            calibrate.Options.Add(option.Name == "--targets"
                ? CommandLine.Many("--targets", "NAME", "Targets to calibrate, each against a second instance of itself. Default: each side of the default pair.")
                : option);
        calibrate.SetAction(parse => RunAsync(parse));
        return calibrate;
    }

    public static async Task<int> RunAsync(ParseResult parse)
    {
        var layout = BuildLayout.Discover();
        var options = RunOptionsParser.Parse(new ArgumentReader(parse), layout);
        using var stop = new StopSignals("calibrate", "stopping; what was measured will be written, marked partial");
        var drivers = DriverCatalog.Create(options.Cells.Drivers, options.Cells.Pin?.DriverCpus);
        options.Cells.Pin?.PinThisProcess();
        var launcher = new TargetLauncher(layout, cpuList: options.Cells.Pin?.ServerCpus, ports: options.Targets.Ports, cpuCounters: options.Window.CpuCounting.Set);
        foreach (var missing in options.Targets.Unavailable) Console.WriteLine($"not calibrated: {missing.Name}: {missing.UnavailableReason}");

        var claimed = 0;
        var equivalent = 0;
        var compared = 0;
        var failed = false;
        foreach (var plan in options.Targets.Plans)
        {
            if (stop.Token.IsCancellationRequested) break;
            var a = new TargetPlan(plan.Name + ".A", plan.Definition, null);
            var b = new TargetPlan(plan.Name + ".B", plan.Definition, null);
            var aa = options with { Targets = options.Targets.Pair(a, b), Judging = options.Judging with { CompareTo = null } };
            Console.WriteLine($"calibrate {plan.Name}: {b.Name} against {a.Name}, {aa.Judging.Launches} launch(es), {aa.CellsPerLaunch / 2} cells");
            // The simulated pass (--counters simulated) is calibrated as it runs: after the measured windows, in launches of its own.
            var (report, directory) = await JournaledRun.MeasureAsync(options.Output.OutDirectory, (journal, runDirectory) =>
                RunPasses.RunAsync(aa, drivers, launcher, layout, journal, runDirectory, new LineProgress(), stop.Token));
            var run = report.Run;

            // Every judged figure at every cell it is judged at, as the run's own verdicts say; a figure this machine could not read (no counters)
            // is left out, and said once.
            var verdicts = run.InReportOrder().Where(v => v.Reason?.StartsWith(PairVerdicts.NoFigure, StringComparison.Ordinal) != true).ToList();
            if (run.Spec.CpuCounters is string counters) Console.WriteLine(counters);
            Console.WriteLine();
            Console.WriteLine($"A/A {plan.Name} ({PairVerdicts.RuleOf(run.Spec).Statement}):");
            Console.Write(Table(verdicts, run).ToText());
            // The size models' parts are judgments too (fixed cost, cost per KB, B's against A's): a lead between them is as false as a cell's.
            var parts = SizeModelFit.Of(run).Comparisons
                .SelectMany(c => new[] { (Model: c, Part: ModelDiff.FixedPart, Verdict: c.Fixed), (Model: c, Part: ModelDiff.PerKbPart, Verdict: c.PerKb) }).ToList();
            if (parts.Count > 0)
            {
                Console.WriteLine($"A/A {plan.Name}, size models (cost = fixed + per KB × size, a line per launch):");
                Console.Write(new TextTable(new[] { "endpoint", "figure", "part", "ratio B/A", "interval", "launches", "outcome" }, parts.Select(p => (IReadOnlyList<string>)new[]
                {
                    p.Model.Endpoint, Metrics.ById(p.Model.Figure)?.Label ?? p.Model.Figure, p.Part, p.Verdict.Ratio is double r ? Format.Ratio(r) : "n/a",
                    p.Verdict.Low is double l && p.Verdict.High is double h ? $"{Format.Ratio(l)}–{Format.Ratio(h)}" : "none",
                    p.Verdict.Launches.ToString(CultureInfo.InvariantCulture),
                    p.Verdict.Leader is string leader ? $"FALSE LEAD: {leader}" : p.Verdict.Outcome ?? p.Verdict.Reason ?? "not judged",
                }).ToList()).ToText());
            }
            var leads = verdicts.Count(v => v.Leader is not null) + parts.Count(p => p.Verdict.Leader is not null);
            var same = verdicts.Count(v => v.Outcome == CellVerdict.Equivalent) + parts.Count(p => p.Verdict.Outcome == CellVerdict.Equivalent);
            claimed += leads;
            equivalent += same;
            compared += verdicts.Count(v => v.RatioLow is not null) + parts.Count(p => p.Verdict.Low is not null);
            // A closed-loop cell without a ratio was not measured; a fixed-rate cell without one was overloaded, a finding, not a failure.
            failed |= run.Partial || run.Targets.Any(t => !t.Measured) || run.Headline().Any(v => v.Ratio is null);
            var ended = run.Spec.Sequential is SequentialSpec q ? $", {q.LaunchesRun} launch(es), {q.LoadSeconds:0} s of load, stopped at {q.Stopped}" : "";
            foreach (var figure in verdicts.GroupBy(v => v.Metric))
                Console.WriteLine($"{plan.Name} {Figure(figure.Key)}: {figure.Count(v => v.Leader is not null)} false lead(s), {figure.Count(v => v.Outcome == CellVerdict.Equivalent)} equivalent, " +
                                  $"in {figure.Count()} judgment(s)");
            if (parts.Count > 0)
                Console.WriteLine($"{plan.Name} size model parts: {parts.Count(p => p.Verdict.Leader is not null)} false lead(s), {parts.Count(p => p.Verdict.Outcome == CellVerdict.Equivalent)} equivalent, " +
                                  $"in {parts.Count} judgment(s)");
            var judgments = verdicts.Count + parts.Count;
            Console.WriteLine($"{plan.Name}: {leads} false lead(s), {same} equivalent, {judgments - leads - same} not settled or not judged, in {judgments} judgment(s){ended}; " +
                              $"results: {directory}{(run.Partial ? " (PARTIAL)" : "")}");
            Console.WriteLine();
        }
        Console.WriteLine(claimed == 0
            ? $"calibrate: no lead claimed in {compared} judgment(s) with an interval; {equivalent} ({(compared > 0 ? Format.Percent(Math.Round((double)equivalent / compared, 3)) : "n/a")}) ended equivalent: the rule stays quiet on A/A here"
            : $"calibrate: {claimed} lead(s) claimed between identical services: on this machine the rule's settings claim false leads; use a larger --min-effect or --confidence");
        return claimed > 0 || failed ? ExitCodes.Failed : ExitCodes.Success;
    }

    /// <summary>A verdict's figure as the tables name it ("req/s", "instructions/req").</summary>
    private static string Figure(string metric) => Metrics.ByVerdictId(metric)?.Label ?? metric;

    /// <summary>Per cell: the A/A ratio, its interval, and whether a lead would have been claimed; with the cores of each under several allotments.</summary>
    private static TextTable Table(IReadOnlyList<CellVerdict> verdicts, RunResult run)
    {
        var cores = run.HasSeveralCores();
        var header = new[] { "endpoint", "size" }.Concat(cores ? new[] { "cores" } : Array.Empty<string>())
            .Concat(new[] { "figure", "ratio B/A", "interval", "90% interval", "launches", "outcome" }).ToList();
        return new(header, verdicts.Select(v => (IReadOnlyList<string>)new[]
            {
                v.Endpoint,
                Contracts.Endpoints.Find(v.Endpoint)?.SendsBody == true ? run.Cells.First(c => c.Key.SizeBytes == v.SizeBytes).SizeLabel : "-",
            }.Concat(cores ? new[] { CoreParts.Short(run.Spec, run.Spec.Cores!.First(c => c.Label == v.Cores)) } : Array.Empty<string>())
            .Concat(new[]
            {
                Figure(v.Metric) + (v.Rate is double rate ? string.Create(CultureInfo.InvariantCulture, $" @{rate:0}/s") : ""),
                v.Ratio is double r ? Format.Ratio(r) : "n/a",
                v.RatioLow is double l && v.RatioHigh is double h ? $"{Format.Ratio(l)}–{Format.Ratio(h)}" : "none",
                v.EquivalenceLow is double el && v.EquivalenceHigh is double eh ? $"{Format.Ratio(el)}–{Format.Ratio(eh)}" : "none",
                v.Launches?.ToString(CultureInfo.InvariantCulture) ?? "-",
                v.Leader is string leader ? $"FALSE LEAD: {leader}" : v.Said(),
            }).ToList()).ToList());
    }
}
