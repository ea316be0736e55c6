using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Drivers;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;

namespace Comparator.Cli;

/// <summary>
/// run: verify, then measure every cell on every target, then write results.json, results.csv and
/// report.md into a new run directory and print the side-by-side table. Ctrl+C or SIGTERM stops
/// the load, stops the targets and still writes what was measured, marked partial.
/// </summary>
public static class RunCommand
{
    public const string Usage =
        "run [--targets all|NAME,NAME | --target NAME=URL] [--endpoints time,json,echo-post,echo-put] [--sizes 500,4KB,64KB|FILE]\n" +
        "      [--concurrency 100[,N...]] [--keep-alive true|false] [--warmup 2s] [--duration 4s] [--repeat 3] [--json-items 3]\n" +
        "      [--baseline-target webapi] [--out results/] [--timeout 30s] [--driver httpclient|ab|wrk|all] [--pin 0:1] [--server-header on|off] [--quick]\n" +
        "      [--compare-to BASE.json [--threshold 5%]]";

    public static async Task<int> RunAsync(IReadOnlyList<string> args)
    {
        var layout = BuildLayout.Discover();
        var options = RunOptionsParser.Parse(args, layout);
        // Read the baseline before any load: an unreadable or foreign file must not cost a run.
        var compareTo = options.CompareTo is string basePath ? DiffCommand.Load(basePath) : null;
        IRunProgress progress = new LineProgress();

        using var stop = new StopSignals("run", "stopping; what was measured will be written, marked partial");

        var drivers = DriverCatalog.Create(options.Drivers, options.Pin?.DriverCpus);
        options.Pin?.PinThisProcess();
        progress.Message($"run: {options.CellCount} cells, about {options.LoadSeconds:0} s of load, driver {string.Join(", ", options.Drivers)}" +
                         (options.Pin is null ? "" : $", {options.Pin}"));
        var launcher = new TargetLauncher(layout, cpuList: options.Pin?.ServerCpus);
        Task<RunResult> Run(IRunProgress p) => new RunOrchestrator(options, drivers, launcher, p).RunAsync(stop.Token);
        var run = SpectreProgress.Usable ? await SpectreProgress.RunAsync(options.CellCount, Run) : await Run(progress);
        var directory = RunDirectory.Write(run, options.OutDirectory);

        Console.WriteLine();
        var targetCount = run.Cells.Select(c => c.Key.Target).Distinct().Count();
        Console.Write((targetCount > 2 ? SideBySide.BuildLong(run) : SideBySide.Build(run)).ToText());
        Console.WriteLine();
        if (Attribution.Build(run) is TextTable attribution)
        {
            Console.WriteLine("where the difference comes from (server CPU µs per request; steps are differences):");
            Console.Write(attribution.ToText());
            Console.WriteLine();
        }
        foreach (var t in run.Targets.Where(t => !t.Measured)) Console.WriteLine($"not measured: {t.Name}: {t.NotMeasuredReason}");
        foreach (var hint in run.Cells.SelectMany(c => c.Flags).Distinct().Select(CellFlags.Hint).OfType<string>())
            Console.WriteLine("hint: " + hint);
        if (run.Spec.Drivers.Count > 1)
        {
            Console.WriteLine();
            Console.Write(DriversView.Build(run).ToText());
        }
        foreach (var d in run.Spec.Drivers) Console.WriteLine($"driver {d.Name}: {d.Description}");
        Console.WriteLine($"results: {directory}{(run.Partial ? " (PARTIAL)" : "")}");
        if (compareTo is null) return ExitCode(run, options);

        var diff = RunDiff.BetweenRuns(compareTo, run, options.Threshold, "base", "this run");
        if (diff.Cells.Count == 0) throw new IncomparableException("run --compare-to: no measured cell in common with the baseline");
        var markdown = DiffReport.Render(diff);
        File.WriteAllText(Path.Combine(directory, "diff.md"), markdown);
        Console.WriteLine();
        Console.Write(markdown);
        return diff.HasRegression ? ExitCodes.Failed : ExitCodes.Success;
    }

    /// <summary>1 when a target that was asked for failed to start or verify, or any cell had failed requests.</summary>
    public static int ExitCode(RunResult run, RunOptions options)
    {
        var asked = options.Targets.Select(t => t.Name).ToHashSet();
        var targetFailed = run.Targets.Any(t => asked.Contains(t.Name) && !t.Measured);
        var cellFailed = run.Cells.Any(c => c.FailedTotal > 0 ||
            (c.NotMeasuredReason is not null && asked.Contains(c.Key.Target) && !c.Flags.Contains(CellFlags.NotApplicable)));
        return targetFailed || cellFailed || run.Partial ? ExitCodes.Failed : ExitCodes.Success;
    }
}
