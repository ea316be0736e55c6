using System.CommandLine;
using System.IO;
using System.Threading.Tasks;
using Comparator.Capacity;
using Comparator.Drivers;
using Comparator.Errors;
using Comparator.Measuring;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;
using static Comparator.Cli.OptionValues;
using Comparator.Reports.Exporters;

namespace Comparator.Cli;

/// <summary>
/// capacity: for each target and cell, the highest constant arrival rate that holds the latency objectives,
/// searched per launch (<see cref="CapacityRunner"/>), with its interval over launches, the CPU it costs,
/// the cores a stated rate would take, and the verdict between targets by the lead rule. Writes
/// capacity.json, capacity.md, report.html and charts/ into a new run directory.
/// Exit 0, 1 when a target could not be measured or the run was stopped, 2 bad arguments.
/// </summary>
public static class CapacityCommand
{
    /// <summary>run's options that do not apply: the search sets the load (socket driver, open model), the rounds and the windows.</summary>
    private static readonly string[] NotTaken =
    {
        "--driver", "--rate", "--duration", "--repeat", "--max-repeat", "--precision", "--budget", "--max-launches", "--compare-to", "--threshold", "--crank", "--quick",
    };

    public static Command Define()
    {
        var capacity = new Command("capacity",
            "For each target and cell, the highest constant arrival rate (socket driver, open model) that holds every latency objective: a ramp, then a " +
            "bisection to --precision, per launch; the capacity's interval over launches, the server CPU and cores there, the cores --at's rate takes, and the " +
            "verdict between targets. Writes capacity.json, capacity.md, report.html and charts/.");
        // run's parser reads every option of run: those that do not apply stay defined, hidden, and refused when given.
        foreach (var option in RunCommand.Options().Where(o => NotTaken.Contains(o.Name) && o.Name != "--precision"))
        {
            option.Hidden = true;
            capacity.Options.Add(option);
        }
        foreach (var option in RunCommand.Options().Where(o => !NotTaken.Contains(o.Name)))
            capacity.Options.Add(option.Name switch
            {
                "--endpoints" => CommandLine.Many("--endpoints", "NAME", $"Contract endpoints to search (time, json, echo-post, echo-put, echo-stream). Default: {CapacityOptions.DefaultEndpoints}."),
                "--sizes" => CommandLine.Many("--sizes", "SIZE", $"Body sizes of the echo endpoints. Default: {CapacityOptions.DefaultSizes}."),
                "--launches" => CommandLine.One("--launches", "N", $"Fresh starts of every target, each a search per cell: the capacity's interval is over them (1 to 50). Default: {CapacityOptions.DefaultLaunches}."),
                _ => option,
            });
        capacity.Options.Add(CommandLine.Many("--objective", "pP<=BOUND", $"A latency objective every step must hold, such as p90<=20ms or p99.9<=1s (from the intended send). Default: {CapacityOptions.DefaultObjective}."));
        capacity.Options.Add(CommandLine.One("--precision", "PERCENT", $"The search stops when the lowest rate that broke is within this share of the highest that held (0.5% to 50%). Default: {CapacityOptions.DefaultPrecision * 100:0}%."));
        capacity.Options.Add(CommandLine.One("--at", "REQ/S", "A rate whose cores each target would need, from its server CPU per request at capacity."));
        capacity.Options.Add(CommandLine.Flag("--aa", "The A/A test: the one target of --targets against a second instance of itself (NAME.A, NAME.B), searched alike; any lead claimed is a false one."));
        capacity.Options.Add(CommandLine.One("--step", "DURATION", $"The measured window of each step. Default: {CapacityOptions.DefaultStep.TotalSeconds:0.#}s."));
        capacity.Options.Add(CommandLine.One("--step-warmup", "DURATION", $"Fixed-rate load before each step's window, not measured. Default: {CapacityOptions.DefaultStepWarmup.TotalSeconds:0.#}s."));
        capacity.SetAction(parse => RunAsync(parse));
        return capacity;
    }

    public static CapacityOptions Parse(ArgumentReader a, BuildLayout layout) => ParseWithOutput(a, layout).Options;

    /// <summary>The search's options, and where the command writes them (the capacity runner reads no output).</summary>
    private static (CapacityOptions Options, RunOutput Output) ParseWithOutput(ArgumentReader a, BuildLayout layout)
    {
        foreach (var name in NotTaken.Where(n => n != "--precision"))
            if (name == "--quick" || name == "--crank" ? a.Flag(name) : a.Value(name) is not null)
                throw new UsageException($"capacity: {name} does not apply here: each step is a fixed-rate window of the socket driver (--step, --step-warmup), " +
                                         "and the search sets the rates (--objective, --precision)");
        var objectiveTexts = a.Values("--objective").DefaultIfEmpty(CapacityOptions.DefaultObjective).Distinct().ToList();
        var objectives = objectiveTexts.Select(o => LatencyObjective.Parse(o).OrUsage()).ToList();
        var precision = a.Value("--precision") is string p ? Percent("capacity", "--precision", p, 0.5, 50, allowZero: true, example: "5%") : CapacityOptions.DefaultPrecision;
        double? at = a.Value("--at") is string r
            ? double.TryParse(r, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var rate) && rate > 0 && rate <= 10_000_000 ? rate
              : throw new UsageException($"capacity: --at takes a rate in requests/s such as 2000, not '{r}'")
            : null;
        var step = Duration("--step", a.Value("--step") ?? $"{CapacityOptions.DefaultStep.TotalSeconds}s", allowZero: false, "capacity");
        var stepWarmup = Duration("--step-warmup", a.Value("--step-warmup") ?? $"{CapacityOptions.DefaultStepWarmup.TotalSeconds}s", allowZero: true, "capacity");
        var run = RunOptionsParser.Parse(a, layout);
        var launches = a.Value("--launches") is string l ? PositiveInt("--launches", l, 50, "capacity") : CapacityOptions.DefaultLaunches;
        var cells = run.Cells with
        {
            Endpoints = a.Value("--endpoints") is null && run.Cells.Scenario is null
                ? List(CapacityOptions.DefaultEndpoints).Select(e => Contracts.Endpoints.Find(e)!).ToList() : run.Cells.Endpoints,
            Sizes = a.Value("--sizes") is null ? new[] { ReadPayload(CapacityOptions.DefaultSizes, layout.PayloadDirectory, "capacity") } : run.Cells.Sizes,
            Drivers = new[] { SocketDriver.DriverName },
            Rates = Array.Empty<RateSpec>(),
        };
        var judging = new JudgingPlan(run.Judging.Rule with { Design = null }, launches);
        var targets = a.Flag("--aa") ? AgainstItself(run.Targets) : run.Targets;
        return (new CapacityOptions(targets, cells, run.Window with { Duration = step }, judging, objectives, objectiveTexts, precision, at, stepWarmup, step, run.Output.Label),
            run.Output);
    }

    /// <summary>--aa: one built target as two instances, NAME.A the baseline, NAME.B against it (as calibrate pairs them for run).</summary>
    private static TargetSet AgainstItself(TargetSet targets)
    {
        if (targets.Plans is not [{ Definition: not null } one])
            throw new UsageException($"capacity: --aa takes one built target (--targets NAME), not {string.Join(", ", targets.Plans.Select(t => t.Name))}");
        return targets.Pair(one with { Name = one.Name + ".A" }, one with { Name = one.Name + ".B" });
    }

    public static async Task<int> RunAsync(ParseResult parse)
    {
        var layout = BuildLayout.Discover();
        var (options, output) = ParseWithOutput(new ArgumentReader(parse), layout);
        var (targets, cells) = (options.Targets, options.Cells);
        using var stop = new StopSignals("capacity", "stopping; the searches that ended will be written, marked partial");
        var driver = DriverCatalog.Create(cells.Drivers, cells.Pin?.DriverCpus).Single();
        cells.Pin?.PinThisProcess();
        var progress = new LineProgress();
        progress.Message($"capacity: {cells.PerTarget} cell(s) x {targets.Plans.Count} target(s) x {options.Judging.Launches} launch(es), objectives {string.Join(", ", options.ObjectiveTexts)}, " +
                         $"precision {options.Precision * 100:0.#}%, steps of {options.StepWarmup.TotalSeconds:0.#} + {options.Step.TotalSeconds:0.#} s");
        var directory = OutputFiles.CreateNewDirectory(output.OutDirectory, "capacity-", DateTimeOffset.UtcNow);
        var launcher = new TargetLauncher(layout, cpuList: cells.Pin?.ServerCpus, ports: targets.Ports, cpuCounters: options.Window.CpuCounting.Set);
        var result = await new CapacityRunner(options, driver, launcher, progress).RunAsync(stop.Token);
        CapacityReport.WriteInto(result, directory);

        Console.WriteLine();
        Console.Write(CapacityReport.Table(result).ToText());
        Console.WriteLine();
        foreach (var t in result.Targets.Where(t => !t.Measured)) Console.WriteLine($"not measured: {t.Name}: {t.NotMeasuredReason}");
        Console.WriteLine($"results: {directory}{(result.Partial ? " (PARTIAL)" : "")}");
        Console.WriteLine();
        foreach (var line in CapacityReport.VerdictLines(result)) Console.WriteLine(line);
        var asked = targets.Plans.Select(t => t.Name).ToHashSet();
        return result.Partial || result.Targets.Any(t => asked.Contains(t.Name) && !t.Measured) ? ExitCodes.Failed : ExitCodes.Success;
    }
}
