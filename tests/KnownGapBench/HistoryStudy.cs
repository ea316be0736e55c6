using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Cli;
using Comparator.Drivers;
using Comparator.Reports;
using Comparator.Running;
using Comparator.Targets;
using Comparator.Reports.Exporters;

namespace Comparator.KnownGapBench;

/// <summary>
/// `dotnet run --project tests/KnownGapBench -c Release -- history OUT [run options]`: the history study. Twelve runs of kestrel against
/// a twin that spins a known time per request, written as `run` writes them, into OUT/step (the spin steps up once, at the seventh run)
/// and OUT/aa (the same spin all along). `comparator history OUT/step` must then name one change point, between runs 6 and 7, and
/// `comparator history OUT/aa` none. Spins: SPIN_BEFORE and SPIN_AFTER µs (default 50 and 100), set with --spins 50,100.
/// </summary>
public static class HistoryStudy
{
    public const int Runs = 12;
    public const int StepAt = 7;

    public static async Task<int> RunAsync(string[] args)
    {
        if (args.Length < 1 || args[0].StartsWith('-')) { Console.Error.WriteLine("usage: KnownGapBench history OUT [--spins BEFORE,AFTER] [run options]"); return 2; }
        var outDirectory = args[0];
        var rest = args[1..].ToList();
        var spins = new[] { 50, 100 };
        var at = rest.IndexOf("--spins");
        if (at >= 0)
        {
            spins = rest[at + 1].Split(',').Select(s => int.Parse(s, CultureInfo.InvariantCulture)).ToArray();
            rest.RemoveRange(at, 2);
        }
        var layout = BuildLayout.Discover();
        foreach (var (series, stepped) in new[] { ("step", true), ("aa", false) })
        for (var n = 1; n <= Runs; n++)
        {
            var spin = stepped && n >= StepAt ? spins[1] : spins[0];
            var options = RunOptionsParser.Parse(new[] { "--targets", "kestrel", "--endpoints", "time", "--out", outDirectory,
                "--label", $"{series} run {n}", "--revision", $"spin={spin}" }.Concat(rest).ToArray(), layout);
            var spinning = new TargetDefinition("spinning", "test double", ".NET 10", "Kestrel", "MisbehavingService", "MisbehavingService.dll", HostRuntime.DotNet, null)
            {
                VariantArguments = new[] { "spin", spin.ToString(CultureInfo.InvariantCulture) },
            };
            options = options with { Targets = options.Targets.Only(new[] { new TargetPlan("kestrel", TargetCatalog.Find("kestrel")!, null), new TargetPlan("spinning", spinning, null) }, "kestrel") };
            var drivers = DriverCatalog.Create(options.Cells.Drivers, options.Cells.Pin?.DriverCpus);
            var run = await new RunOrchestrator(options, drivers, new TargetLauncher(layout, cpuList: options.Cells.Pin?.ServerCpus, cpuCounters: options.Window.CpuCounting.Set),
                new Program.QuietProgress(), Comparator.Comparing.PairVerdicts.Build).RunAsync(CancellationToken.None);
            var directory = RunDirectory.Write(run, Path.Combine(outDirectory, series));
            var cell = run.Cells.First(c => c.Key.Target == "spinning" && c.Key.Rate is null).Summary;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{series} {n,2} spin {spin,4} µs: spinning {cell?.RequestsPerSecond:0} req/s, {cell?.ServerCpuUsPerRequest:0.0} µs/req · {directory}"));
        }
        return 0;
    }
}
