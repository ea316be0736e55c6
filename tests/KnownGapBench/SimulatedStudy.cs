using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Cli;
using Comparator.Comparing;
using Comparator.Drivers;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Statistics;
using Comparator.Targets;

namespace Comparator.KnownGapBench;

/// <summary>
/// `dotnet run --project tests/KnownGapBench -c Release -- simulated [ROUNDS] [run options]`: the known gap in simulated instructions. For each
/// count of rounds (default 100,200,400,800), FixedWorkService (httplistener-mono's handler under Mono; `simulated-dotnet`: httplistener's
/// under .NET 10, as --simulated-dotnet runs it) against its twin doing that many
/// rounds of fixed arithmetic a request, at /api/time, judged as a default run judges the simulated count (its pass's three launches, the
/// default rule unless run options say otherwise). Prints each launch's count, the extra work in percent of the base's, and the verdict:
/// the smallest extra the rule settles as a lead is the gap the simulated figure resolves.
/// </summary>
public static class SimulatedStudy
{
    public static async Task<int> RunAsync(string[] args, HostRuntime host)
    {
        var rounds = (args.Length > 0 && !args[0].StartsWith('-') ? args[0] : "100,200,400,800").Split(',')
            .Select(s => int.Parse(s, CultureInfo.InvariantCulture)).ToList();
        var extra = args.Length > 0 && !args[0].StartsWith('-') ? args[1..] : args;
        Console.WriteLine("rounds | base instr/req per launch | twin instr/req per launch | extra | verdict");
        foreach (var n in rounds)
        {
            var run = await PairAsync(n, extra, new Program.QuietProgress(), System.IO.Path.GetTempPath(), host);
            double[] PerLaunch(string target) => run.Cells.Single(c => c.Key.Target == target).WindowsOf(Metrics.SimulatedInstructionsPerRequest)
                .Select(m => Metrics.SimulatedInstructionsPerRequest.Of(m) ?? double.NaN).ToArray();
            var (a, b) = (PerLaunch("base"), PerLaunch("twin"));
            var verdict = run.ClosedLoopOthers().FirstOrDefault(v => v.Metric == Metrics.SimulatedInstructionsPerRequest.VerdictId);
            var said = verdict is null ? run.Spec.SimulatedCounters
                : $"{verdict.Said()} {(verdict.RatioLow is double l && verdict.RatioHigh is double h ? $"{Format.Ratio(verdict.Ratio!.Value)} ({Format.Ratio(l)}–{Format.Ratio(h)})" : verdict.Reason)}";
            string List(double[] v) => string.Join(", ", v.Select(x => x.ToString("0", CultureInfo.InvariantCulture)));
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{n} | {List(a)} | {List(b)} | {(a.Length > 0 && b.Length > 0 ? $"{(b.Average() / a.Average() - 1) * 100:0.00}%" : "-")} | {said}"));
        }
        return 0;
    }

    /// <summary>
    /// FixedWorkService with no extra work (the baseline, "base") against its twin doing <paramref name="rounds"/> rounds a request ("twin"), at
    /// /api/time: the measured windows cut to the least, then the simulated pass (<paramref name="extra"/> may set its launches: --simulated-launches).
    /// With <paramref name="twinByCommand"/> the twin is the same build given as a user gives a service, a targets file's command (`dotnet
    /// X.dll ...` or `mono X.exe ...`, ready on its ready line, so no probe waits for it), and the pass must find its runtime from the command alone.
    /// </summary>
    public static Task<RunResult> PairAsync(int rounds, IReadOnlyList<string> extra, IRunProgress progress, string outDirectory,
        HostRuntime host = HostRuntime.NetFramework, bool twinByCommand = false) =>
        PairAsync("0", rounds.ToString(CultureInfo.InvariantCulture), new[] { "--endpoints", "time" }.Concat(extra).ToList(), progress, outDirectory, host, twinByCommand);

    /// <summary>
    /// The same with each side's work as FixedWorkService reads it ("N", "N:K", "N:K:S@B": fixed rounds, rounds per KB of a declared body, a step
    /// from a size on); <paramref name="extra"/> names the endpoints (and sizes) besides the pass's settings.
    /// </summary>
    public static async Task<RunResult> PairAsync(string baseWork, string twinWork, IReadOnlyList<string> extra, IRunProgress progress, string outDirectory,
        HostRuntime host = HostRuntime.NetFramework, bool twinByCommand = false)
    {
        var layout = BuildLayout.Discover();
        var twinDefinition = FixedWork("twin", twinWork, host);
        var command = Array.Empty<string>();
        if (twinByCommand)
        {
            var file = System.IO.Path.Combine(outDirectory, "twin-targets.json");
            System.IO.File.WriteAllText(file, System.Text.Json.JsonSerializer.Serialize(new
            {
                targets = new[]
                {
                    new
                    {
                        name = "twin", program = host == HostRuntime.DotNet ? "dotnet" : "mono",
                        arguments = new[] { layout.AssemblyPath(twinDefinition), twinWork, "--port", "{port}" },
                        ready = new { outputLine = "^COMPARATOR-READY " },
                    },
                },
            }));
            command = new[] { "--targets-file", file };
        }
        var options = RunOptionsParser.Parse(new[]
        {
            "--counters", "simulated", "--launches", "1", "--rate", "none", "--warmup", "0", "--first-warmup", "0",
            "--duration", "0.3s", "--repeat", "1", "--steady-bound", "0", "--out", outDirectory,
        }.Concat(command).Concat(extra).ToArray(), layout);
        var twin = twinByCommand ? options.Targets.Plans.Single(p => p.Name == "twin") : new TargetPlan("twin", twinDefinition, null);
        options = options with
        {
            Targets = options.Targets.Only(new[] { new TargetPlan("base", FixedWork("base", baseWork, host), null), twin }, "base"),
        };
        var drivers = DriverCatalog.Create(options.Cells.Drivers, null);
        var measured = await new RunOrchestrator(options, drivers, new TargetLauncher(layout), progress, PairVerdicts.Build).RunAsync(CancellationToken.None);
        return await RunPasses.SimulatedAsync(measured, options, drivers, layout, outDirectory, journal: null, progress, CancellationToken.None);
    }

    /// <summary>A FixedWorkService target: one program for both sides, the rounds its first argument; under Mono (net472) or .NET 10.</summary>
    public static TargetDefinition FixedWork(string name, int rounds, HostRuntime host = HostRuntime.NetFramework) =>
        FixedWork(name, rounds.ToString(CultureInfo.InvariantCulture), host);

    /// <summary>A FixedWorkService target doing <paramref name="work"/> ("N", "N:K", "N:K:S@B").</summary>
    public static TargetDefinition FixedWork(string name, string work, HostRuntime host = HostRuntime.NetFramework) => host == HostRuntime.DotNet
        ? new(name, "test double", ".NET 10", "managed HttpListener", "FixedWorkService", "FixedWorkService.dll", HostRuntime.DotNet, "")
        {
            TargetFramework = "net10.0",
            VariantArguments = new[] { work },
        }
        : new(name, "test double", "Mono (net472)", "Mono's HttpListener", "FixedWorkService", "FixedWorkService.exe", HostRuntime.NetFramework, "")
        {
            TargetFramework = "net472",
            UnavailableReason = MonoRuntime.MissingReason,
            VariantArguments = new[] { work },
        };
}
