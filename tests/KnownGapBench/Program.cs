using System;
using System.Globalization;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Drivers;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Cli;
using Comparator.Running;
using Comparator.Statistics;
using Comparator.Targets;

namespace Comparator.KnownGapBench;

/// <summary>
/// `dotnet run --project tests/KnownGapBench -c Release -- [SPINS_US] [run options]`: for each spin
/// (default 2,4,8,16,32 µs), kestrel against kestrel plus that spin per request on the time endpoint,
/// measured as `run` measures by default (launches added until settled, the default budget), then the
/// outcome of req/s, of instructions per request (where the CPU's counters are read; the run's line says
/// why not elsewhere) and of server CPU at the fixed rate. The smallest spin each settles as a lead is the
/// gap this machine resolves within the budget in that figure. `history`, `simulated` and `size-model` are studies of their own (HistoryStudy, SimulatedStudy, SizeModelStudy).
/// </summary>
public static class Program
{
    public static async Task<int> Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "history") return await HistoryStudy.RunAsync(args[1..]);
        if (args.Length > 0 && args[0] == "simulated") return await SimulatedStudy.RunAsync(args[1..], HostRuntime.NetFramework);
        if (args.Length > 0 && args[0] == "simulated-dotnet") return await SimulatedStudy.RunAsync(args[1..], HostRuntime.DotNet);
        if (args.Length > 0 && args[0] == "size-model") return await SizeModelStudy.RunAsync(args[1..], HostRuntime.NetFramework);
        if (args.Length > 0 && args[0] == "size-model-dotnet") return await SizeModelStudy.RunAsync(args[1..], HostRuntime.DotNet);
        var spins = (args.Length > 0 && !args[0].StartsWith('-') ? args[0] : "2,4,8,16,32").Split(',')
            .Select(s => int.Parse(s, CultureInfo.InvariantCulture)).ToList();
        var extra = args.Length > 0 && !args[0].StartsWith('-') ? args[1..] : args;
        var layout = BuildLayout.Discover();
        Console.WriteLine(CpuCounting.Resolve(asked: true).Line);
        Console.WriteLine("spin µs | kestrel cpu µs/req | spin cpu µs/req | kestrel instr/req | spin instr/req | req/s verdict | instructions verdict | server cpu verdict | launches | load s");
        foreach (var spin in spins)
        {
            var options = RunOptionsParser.Parse(new[] { "--targets", "kestrel", "--endpoints", "time", "--out", System.IO.Path.GetTempPath() }.Concat(extra).ToArray(), layout);
            var spinning = new TargetDefinition("spin", "test double", ".NET 10", "Kestrel", "MisbehavingService", "MisbehavingService.dll", HostRuntime.DotNet, null)
            {
                VariantArguments = new[] { "spin", spin.ToString(CultureInfo.InvariantCulture) },
            };
            options = options with { Targets = options.Targets.Only(new[] { new TargetPlan("kestrel", TargetCatalog.Find("kestrel")!, null), new TargetPlan("spin", spinning, null) }, "kestrel") };
            var drivers = DriverCatalog.Create(options.Cells.Drivers, options.Cells.Pin?.DriverCpus);
            var run = await new RunOrchestrator(options, drivers, new TargetLauncher(layout, cpuList: options.Cells.Pin?.ServerCpus, cpuCounters: options.Window.CpuCounting.Set), new QuietProgress(), Comparator.Comparing.PairVerdicts.Build).RunAsync(CancellationToken.None);
            var rps = run.Headline().Single();
            var cpu = run.AtFixedRate().Single(v => v.Metric == Metrics.ServerCpuUsPerRequest.VerdictId!);
            double? Cpu(string target) => run.Cells.FirstOrDefault(c => c.Key.Target == target && c.Key.Rate is not null)?.Summary?.ServerCpuUsPerRequest;
            string Instructions(string target) => Metrics.InstructionsPerRequest.Show(run.Cells.FirstOrDefault(c => c.Key.Target == target && c.Key.Rate is null)?.Summary is Measurement m
                ? Metrics.InstructionsPerRequest.Of(m) : null);
            var instructions = run.ClosedLoopOthers().FirstOrDefault(v => v.Metric == Metrics.InstructionsPerRequest.VerdictId!);
            string Said(CellVerdict v) => $"{v.Said()} {(v.RatioLow is double l && v.RatioHigh is double h ? $"{Format.Ratio(v.Ratio!.Value)} ({Format.Ratio(l)}–{Format.Ratio(h)})" : "")}";
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{spin} | {Cpu("kestrel"):0.0} | {Cpu("spin"):0.0} | {Instructions("kestrel")} | {Instructions("spin")} | {Said(rps)} | {(instructions is null ? "not counted" : Said(instructions))} | {Said(cpu)} | {run.Spec.Sequential?.LaunchesRun ?? run.Spec.Launches} | {run.Spec.Sequential?.LoadSeconds:0}"));
        }
        return 0;
    }

    internal sealed class QuietProgress : IRunProgress
    {
        public void Message(string text) { }
        public void CellStarted(int index, int total, string label, double secondsLeft) { }
        public void RoundFinished(string label, int rounds, string detail) { }
        public void CellFinished(string label, string outcome) { }
    }
}
