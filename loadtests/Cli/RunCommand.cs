using System.CommandLine;
using System.IO;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Drivers;
using Comparator.Errors;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;
using Comparator.Statistics;
using Comparator.Reports.Exporters;
using Comparator.Reports.Text;

namespace Comparator.Cli;

/// <summary>
/// run: verify, then measure every cell on every target, each window appended to the new run directory's
/// journal.jsonl as it is measured, then write results.json, results.csv and report.md there and print the
/// side-by-side table. Ctrl+C or SIGTERM stops the load, stops the targets and still writes what was
/// measured, marked partial; after a kill, `report RUN_DIR` rebuilds it from the journal.
/// </summary>
public static class RunCommand
{
    public static Command Define()
    {
        var run = new Command("run",
            "Verify the targets, measure every cell (target x endpoint x size x concurrency x driver), write results.json, results.csv, " +
            "report.md and report.html into a new run directory, and end with the verdict's table, the answer and the report's path (--verbose: every table). The default command.");
        foreach (var option in Options().Concat(ProfileCommand.PassOptions()).Concat(CiOutputs.Options())) run.Options.Add(option);
        run.Options.Add(CommandLine.Flag("--verbose", "Print every table and the whole verdict (its rule, noise floor, per-cell lines and cautions) at the end, " +
            "as report.md has them; without it a run ends with the verdict's table, the answer and the report's path."));
        run.SetAction(parse => RunAsync(parse));
        return run;
    }

    /// <summary>Every option of run, defined once; calibrate takes the ones that shape a measurement.</summary>
    public static IReadOnlyList<Option> Options() => new Option[]
        {
            CommandLine.Many("--targets", "all|NAME", "Targets the comparator starts, by name (see `comparator targets`); all: every target that runs here. " +
                "Default: the WCF/Web API pair, or every target that runs here when no pair can."),
            CommandLine.Many("--target", "NAME=URL|NAME=cmd:COMMAND", "A service already running at http://HOST:PORT or https://HOST:PORT, measured as it is, next to the --targets ones; " +
                "or one the comparator starts by command every launch, as it starts its own: 'old=cmd:dotnet out/Old.dll --port {port}' ({port}: a free port; " +
                "ready when http://127.0.0.1:{port}/ answers). Alone, only these are measured. On loopback, the process listening on a URL target's port is found and its CPU read like a started target's."),
            CommandLine.One("--targets-file", "FILE", "Services started by command (JSON: name, program, arguments, workingDirectory, environment, url, ready, readyTimeout, stopGrace), " +
                "measured as --target NAME=cmd: ones are; see docs/migration.md."),
            CommandLine.Flag("--insecure", "Accept an https --target's certificate that does not validate (self-signed); without it such a target is refused."),
            CommandLine.Many("--target-pid", "NAME=PID", "The process of a --target service, for its CPU and memory figures (when it is not found by its port)."),
            CommandLine.Many("--endpoints", "NAME", "Endpoints to measure: time, json, echo-post, echo-put. Default: all four."),
            CommandLine.One("--scenario", "FILE", "A scenario file (scenarios/*.json): its operations, asked of each target in its own way and checked by the file's rules, are the cells instead of the contract's endpoints."),
            CommandLine.Many("--sizes", "SIZE|FILE", $"Request body sizes of the echo endpoints: 0, 500, 4KB, 1MB (binary units), or a file in payloads/; " +
                $"sweep: 64B to 4MB in x4 steps. Default: {RunOptionsParser.DefaultSizes}."),
            CommandLine.Many("--concurrency", "N", "Requests in flight, 1 to 10000; one cell per value. Default: 100."),
            CommandLine.One("--keep-alive", "true|false", "Reuse connections. Default: true."),
            CommandLine.One("--rate", "R|PERCENT|auto|none", "Fixed-rate passes after each closed-loop cell (socket driver): requests/s sent at a constant arrival rate, " +
                "latency counted from each request's intended send time. A number (a list allowed), a share of the lower closed-loop capacity of the compared targets (50%), " +
                $"auto (25%, 50%, 75%) or none. Default: {RunOptionsParser.DefaultRate} (--quick: none)."),
            CommandLine.One("--warmup", "DURATION", $"Load before every cell's measured repeats, not measured (2s, 500ms, 1m). Default: {RunOptionsParser.DefaultWarmup}."),
            CommandLine.One("--first-warmup", "DURATION", $"Warm-up of each target's first, cold cell. Default: {RunOptionsParser.DefaultFirstWarmup}, or --warmup when given alone."),
            CommandLine.One("--duration", "DURATION", $"Length of one measured repeat. Default: {RunOptionsParser.DefaultDuration}."),
            CommandLine.One("--launches", "N", "A fixed number of fresh starts of every target (1 to 50), each measuring every cell: the unit of evidence of a judgment. " +
                "Default: launches are added to the cells not yet settled until every cell is, --max-launches is reached or --budget runs out (--quick: 1)."),
            CommandLine.One("--budget", "DURATION", $"Load the added launches may spend in all, counted as warm-ups plus measured windows (5m, 300s). Default: {RunOptionsParser.DefaultBudget}."),
            CommandLine.One("--max-launches", "N", "The most launches the design plans for (4 to 50): its horizon, where the error rate is all spent, is the launches of every cell " +
                $"the budget buys, at least 4 and at most this. Default: {Statistics.SequentialDesign.DefaultMaxLaunches}."),
            CommandLine.One("--repeat", "N", $"Exactly N rounds (one window per target) per cell in each launch (1 to 100). Default: {RepeatRule.DefaultRounds}."),
            CommandLine.One("--max-repeat", "N", "Instead of --repeat: rounds in each launch until every target's CV of req/s is at most --precision, at least 3 and at most N."),
            CommandLine.One("--precision", "PERCENT", "The CV of req/s above which a cell is flagged noisy, and that ends --max-repeat's rounds (5% or 2.5). Default: 5%."),
            CommandLine.One("--confidence", "PERCENT", "Confidence of the interval of each ratio (above 50 to 99.99). Default: 99%."),
            CommandLine.One("--min-effect", "PERCENT", "The smallest difference claimed as a lead: the interval must lie wholly beyond it (0 to 50). Default: 3%."),
            CommandLine.One("--equivalence", "PERCENT", "The margin within which two figures are called equivalent: the 90% interval (two one-sided tests at 5%) must lie wholly inside it (0 to 50). Default: 5%."),
            CommandLine.One("--json-items", "N", $"Items in the json endpoint's response, 0 to {Contracts.JsonSample.MaxItems}. Default: {Contracts.JsonSample.DefaultItems}."),
            CommandLine.One("--baseline-target", "NAME", "The target the ratios divide by. Default: webapi, else webapi-selfhost, else the first target."),
            CommandLine.One("--out", "DIR", "Where the run directory is written. Default: results/ in the repository, or in the current directory outside one (installed as a .NET tool)."),
            CommandLine.One("--timeout", "DURATION", "Timeout of one request. Default: 30s."),
            CommandLine.Many("--driver", "NAME", "Load drivers: socket, httpclient, ab, wrk, or all; every cell is measured with each. Default: socket."),
            CommandLine.One("--pin", "SERVER:DRIVER", "CPU lists for the targets and for the driver, such as 0:1 or 0-1:2-3."),
            CommandLine.One("--server-cores", "LIST", "Cores the targets get, each value its own set of cells: N (the last N CPUs, the driver on the others), " +
                "shared (targets and driver on every core), or all (1, 2, 4 ... while a core is left for the driver, then shared); such as 1,shared. " +
                "Linux (taskset). Default: shared."),
            CommandLine.One("--server-header", "on|off", "Whether the targets send a Server header. Default: off."),
            CommandLine.Ports(),
            CommandLine.One("--tcp-nodelay", "on|off", "TCP_NODELAY on every target's sockets: on sends each answer without Nagle's delay, as Kestrel does by default; " +
                "off leaves each host's stock setting (the HttpListener targets then hold a chunked answer's end for the client's delayed ACK). Default: on."),
            CommandLine.One("--counters", "hardware|simulated|both|off|auto", "Which counts of work a request takes: hardware counts each target's instructions, cycles, " +
                "branch and cache misses with the CPU's own counters (Linux perf_event_open, every thread); simulated adds a pass after the measured windows " +
                "that runs each target afresh under valgrind's callgrind and judges its user-mode instructions per request (no PMU needed); both; off. " +
                "Unless off, each target's system calls are counted too (the kernel's raw_syscalls tracepoint, no PMU needed) and judged per request. " +
                "Where a machine cannot count, one line says why and the run goes on. Default: auto (hardware where the CPU counts; where it does not, the simulated pass, " +
                "unless the run claims nothing: --quick or --launches 1)."),
            CommandLine.One("--simulated-launches", "N", "A fixed count of launches for the simulated pass (2 to 20), each target started afresh under the simulator in each, " +
                "judged once at the end. Default: none: 3 launches, then launches added to the cells whose simulated judgment is not settled, within --simulated-budget."),
            CommandLine.One("--simulated-budget", "DURATION", "How long the simulated pass may run, starts included, before it adds no more launches to unsettled cells " +
                "(its first 3 launches always run; 0 adds none). Default: 270s: the default pair's three launches take 250-290 s on 2 cores, so a default run stays within 10 minutes and adds a launch only on a fast day; give more to settle more (docs/method.md)."),
            CommandLine.One("--simulated-dotnet", "SETTING", "How a .NET target runs under the simulator: one-compile (tiered compilation off, ReadyToRun code unused: " +
                "every method compiled once, fully optimized, without PGO), no-tiering (tiering off, the framework's precompiled code kept), tiered (the runtime's " +
                "defaults) or tiered-no-pgo; each told it has one processor (valgrind runs one thread at a time), with one thread-pool worker that does not spin, and in a pass with a " +
                ".NET target every request sent 2 ms after the answer before it, on every target alike. The spec line names " +
                "the variables. Default: one-compile: of the settings whose launches agree (not the tiered ones, which never stop compiling on the simulator's clock), the one " +
                "whose count does not move with the warm-up: fully optimized code, without what tiering's PGO adds (docs/method.md, \"A .NET service under the simulator\")."),
            CommandLine.One("--simulated-warmup", "DURATION", "Each cell's warm-up under the simulator with counting off, before its counted windows (a launch's first cell " +
                "gets 1.5 s more: it compiles the path every cell shares). Default: 0.5s."),
            CommandLine.One("--steady-bound", "DURATION", "How much longer a .NET target's warm-up may go on while its runtime still compiles (tiered JIT); " +
                "a window measured before it stopped is marked. 0 turns the wait off. Default: 20s."),
            CommandLine.Flag("--duet", "Measure every target of a cell in the same windows, side by side (duet measurement), instead of in turn: " +
                "a swing of the machine hits both sides alike, while each side has half the machine. See docs/method.md for its A/A spread here."),
            CommandLine.One("--label", "TEXT", "What to call this run in its results and reports (a build, a configuration): kept in results.json beside the machine's fingerprint."),
            CommandLine.Many("--revision", "REV|NAME=REV", "The revision of what is measured (a commit, a build number), kept in results.json; NAME=REV gives one target's own " +
                "(a target of the run by name), REV alone every target's."),
            CommandLine.One("--compare-to", "BASE.json", "After the run, diff it against this saved results.json; exit 1 on a regression, 3 when it cannot judge (as diff)."),
            CommandLine.One("--threshold", "PERCENT", "The change --compare-to counts as a regression. Default: the runs' recorded minimum effect; given, a side with one launch is gated on medians."),
            CommandLine.Flag("--crank", "Also print the results for crank's agent, when the comparator runs as crank's load job (crank/comparator.yml): " +
                "a #StartJobStatistics block that crank keeps in its --json file, for `comparator import-crank`."),
            CommandLine.Flag("--profile", "After the measured windows, sample every target in a pass of its own (see `comparator profile`): " +
                "where each stack's work goes, by layer; profile.html in the run directory. No judged figure comes from it."),
            CommandLine.Flag("--quick", "A short run: 1 launch, 1 round, warm-up 0.5s (cold cell 1s), duration 1s, no hold for a steady JIT: no lead is claimed; explicit options win."),
        };

    public static async Task<int> RunAsync(ParseResult parse)
    {
        var layout = BuildLayout.Discover();
        var options = RunOptionsParser.Parse(new ArgumentReader(parse), layout);
        var reader = new ArgumentReader(parse);
        if ((reader.Value("--junit") ?? reader.Value("--summary")) is not null && options.Judging.CompareTo is null)
            throw new UsageException("run: --junit and --summary write the diff of --compare-to; add --compare-to BASE.json");
        // Read the baseline before any load: an unreadable or foreign file must not cost a run.
        var compareTo = options.Judging.CompareTo is string basePath ? DiffCommand.Load(basePath) : null;
        // An https target's certificate too: one that does not validate is refused before any target starts.
        options = options with { Targets = (await TargetCheck.WithTlsAsync(options.Targets)).OrUsage() };
        IRunProgress progress = new LineProgress();

        using var stop = new StopSignals("run", "stopping; what was measured will be written, marked partial");

        var drivers = DriverCatalog.Create(options.Cells.Drivers, options.Cells.Pin?.DriverCpus);
        options.Cells.Pin?.PinThisProcess();
        var (cells, judging) = (options.Cells, options.Judging);
        progress.Message($"run: {options.CellsPerLaunch} cells, " + (judging.Rule.Design is Statistics.SequentialDesign design
                             ? $"launches added until every cell is settled, at most {design.MaxLaunches}, within {judging.BudgetSeconds:0} s of load"
                             : $"{options.LoadSeconds:0} to {options.MaxLoadSeconds:0} s of load") + $", driver {string.Join(", ", cells.Drivers)}" +
                         (cells.Pin is null ? "" : $", {cells.Pin}") +
                         (cells.ServerCores is null ? "" : ", the targets " + string.Join("; then ", cells.Allotments.Select(a => a.Phrase))));
        if (judging.Rule.Design is Statistics.SequentialDesign first && judging.BudgetSeconds < first.FirstLook * options.LaunchLoadSeconds(options.CellsPerLaunch))
            progress.Message($"run: warning: --budget {judging.BudgetSeconds:0}s buys fewer than {first.FirstLook} launches of every cell " +
                             $"({options.LaunchLoadSeconds(options.CellsPerLaunch):0} s each), and the rule first judges at {first.FirstLook}: no cell will be settled");
        var launcher = new TargetLauncher(layout, cpuList: cells.Pin?.ServerCpus, ports: options.Targets.Ports, cpuCounters: options.Window.CpuCounting.Set);
        var (report, directory) = await JournaledRun.MeasureAsync(options.Output.OutDirectory, (journal, runDirectory) =>
            RunPasses.RunAsync(options, drivers, launcher, layout, journal, runDirectory, progress, stop.Token,
                run => SpectreProgress.Usable ? SpectreProgress.RunAsync(options.CellsPerLaunch * judging.Launches, run) : run(progress)));

        var run = report.Run;
        var verbose = reader.Defines("--verbose") && reader.Flag("--verbose");
        var crank = options.Output.Crank;
        if (verbose)
        {
            Console.WriteLine();
            Console.Write(new ConsoleReport().Render(report));
            foreach (var t in run.Targets.Where(t => t.External))
                Console.WriteLine($"external target {t.Name}: {t.BaseUrl} " + (run.Cells.Any(c => c.Key.Target == t.Name && c.Summary?.ServerCpuSeconds is not null) ? "(CPU read from its process)"
                    : crank ? "(no server CPU here: `comparator import-crank` adds it from crank's agent)" : "(no server CPU)"));
            foreach (var t in run.Targets.Where(t => !t.Measured)) Console.WriteLine($"not measured: {t.Name}: {t.NotMeasuredReason}");
            foreach (var d in run.Spec.Drivers) Console.WriteLine($"driver {d.Name}: {d.Description}");
        }
        // Briefly, the report's path (the last line) names the run's directory.
        if (verbose || crank || compareTo is not null || run.Partial) Console.WriteLine($"results: {directory}{(run.Partial ? " (PARTIAL)" : "")}");
        if (crank) Crank.CrankStatistics.Write(run, Console.Out);
        if (compareTo is null)
        {
            PrintVerdict(report, directory, verbose);
            return ExitCode(run, options);
        }

        var thresholdGiven = judging.Threshold is not null;
        var diff = RunDiff.BetweenRuns(compareTo, run, judging.Threshold ?? DiffCommand.RecordedMinEffect(compareTo, run), "base", "this run",
            judging.Rule.Confidence, thresholdGiven);
        if (diff.Cells.Count == 0) throw new IncomparableException("run --compare-to: no measured cell in common with the baseline");
        var markdown = DiffReport.Render(diff);
        File.WriteAllText(Path.Combine(directory, "diff.md"), markdown);
        Console.WriteLine();
        Console.Write(markdown);
        PrintVerdict(report, directory, verbose);
        CiOutputs.Write(reader, diff, markdown, DiffCommand.ExitCode(diff));
        return DiffCommand.ExitCode(diff);
    }

    /// <summary>
    /// The last lines a run prints: with --verbose the verdict and the answer in full, then always the first screen (the headline and the
    /// table of every judged figure by cell, within 120 columns) and where the report is.
    /// </summary>
    private static void PrintVerdict(RunReport report, string directory, bool verbose)
    {
        Console.WriteLine();
        if (verbose)
        {
            Console.Write(VerdictRenderer.ToText(report.Verdict));
            Console.WriteLine();
            foreach (var paragraph in report.AnswerParagraphs) Console.WriteLine("details: " + string.Join(" ", paragraph));
            Console.WriteLine();
        }
        Console.Write(FirstScreen.ToText(report.Headline, report.Tables));
        Console.WriteLine($"report: {Path.Combine(directory, "report.html")}");
    }

    /// <summary>1 when a target that was asked for failed to start or verify, or any cell had failed requests.</summary>
    public static int ExitCode(RunResult run, RunOptions options)
    {
        var asked = options.Targets.Plans.Select(t => t.Name).ToHashSet();
        var targetFailed = run.Targets.Any(t => asked.Contains(t.Name) && !t.Measured);
        var cellFailed = run.Cells.Any(c => c.FailedTotal > 0 ||
            (c.NotMeasuredReason is not null && asked.Contains(c.Key.Target) && !c.Flags.Contains(CellFlags.NotApplicable)));
        return targetFailed || cellFailed || run.Partial ? ExitCodes.Failed : ExitCodes.Success;
    }
}
