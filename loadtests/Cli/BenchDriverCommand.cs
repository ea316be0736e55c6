using System.CommandLine;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;
using Comparator.Reports.Sections;

namespace Comparator.Cli;

/// <summary>
/// bench-driver: measures the drivers themselves on the cheapest request there is (the time
/// endpoint of the bare Kestrel target, the platform ceiling) with the in-process driver and wrk in
/// the same run, and prints requests/s and client CPU per request for each and their ratio, so the
/// driver's own cost is known and can be tracked over time.
/// </summary>
public static class BenchDriverCommand
{
    public static Command Define()
    {
        var bench = new Command("bench-driver",
            "Measure the load drivers themselves: the socket and httpclient drivers and wrk on the cheapest request (the kestrel target's time endpoint), " +
            "with requests/s and client CPU per request for each and their ratio.")
        {
            CommandLine.Many("--concurrency", "N", "Requests in flight. Default: 100."),
            CommandLine.One("--warmup", "DURATION", "Warm-up before each cell. Default: 2s."),
            CommandLine.One("--duration", "DURATION", "Length of one measured repeat. Default: 5s."),
            CommandLine.One("--repeat", "N", "Repeats per cell. Default: 3."),
            CommandLine.One("--pin", "SERVER:DRIVER", "CPU lists for the target and for the driver, such as 0:1."),
            CommandLine.One("--out", "DIR", "Where the run directory is written. Default: results/ in the repository."),
        };
        bench.SetAction(parse => RunAsync(new ArgumentReader(parse)));
        return bench;
    }

    private const string Target = "kestrel";

    public static async Task<int> RunAsync(ArgumentReader reader)
    {
        var runArgs = new List<string>
        {
            "--targets", Target, "--endpoints", "time", "--driver", $"{SocketDriver.DriverName},{HttpClientDriver.DriverName},{WrkDriver.DriverName}",
            "--concurrency", reader.Value("--concurrency") ?? "100", "--warmup", reader.Value("--warmup") ?? "2s",
            "--duration", reader.Value("--duration") ?? "5s", "--repeat", reader.Value("--repeat") ?? "3", "--rate", "none",
        };
        foreach (var passThrough in new[] { "--pin", "--out" })
            if (reader.Value(passThrough) is string v) runArgs.AddRange(new[] { passThrough, v });

        var layout = BuildLayout.Discover();
        layout.RequireCheckout("bench-driver");
        var options = RunOptionsParser.Parse(runArgs, layout);
        var drivers = DriverCatalog.Create(options.Cells.Drivers, options.Cells.Pin?.DriverCpus);
        options.Cells.Pin?.PinThisProcess();
        using var stop = new StopSignals("bench-driver", "stopping");
        var (report, directory) = await JournaledRun.MeasureAsync(options.Output.OutDirectory,
            journal => new RunOrchestrator(options, drivers, new TargetLauncher(layout, cpuList: options.Cells.Pin?.ServerCpus, cpuCounters: options.Window.CpuCounting.Set), new LineProgress(), Comparator.Comparing.PairVerdicts.Build).RunAsync(stop.Token, journal));
        var run = report.Run;

        Console.WriteLine();
        Console.Write(Table(run).ToText());
        Console.WriteLine($"results: {directory}");
        return RunCommand.ExitCode(run, options);
    }

    public static TextTable Table(RunResult run)
    {
        string N(double? v, string f) => v is double d ? d.ToString(f, CultureInfo.InvariantCulture) : "n/a";
        var cells = run.Cells.Where(c => c.Summary is not null).ToList();
        double? ClientUs(CellResult c) => c.Summary!.Succeeded > 0 ? c.Summary.ClientCpuSeconds * 1e6 / c.Summary.Succeeded : null;
        var wrk = cells.FirstOrDefault(c => c.Key.Driver == WrkDriver.DriverName);
        var rows = cells.Select(c => (IReadOnlyList<string>)new[]
        {
            c.Key.Driver, N(c.Summary!.RequestsPerSecond, "0"), N(ClientUs(c), "0.0"), N(c.Summary.ServerCpuUsPerRequest, "0.0"),
            N(100 * c.Summary.ClientCpuSeconds / c.Summary.ElapsedSeconds, "0"),
            wrk is null ? "n/a" : N(ClientUs(c) / ClientUs(wrk), "0.00") + "x",
            string.Join(' ', c.Flags),
        }).ToList();
        return new TextTable(new[] { "driver", "req/s", "client cpu µs/req", "server cpu µs/req", "client cpu %", "client cost vs wrk", "flags" }, rows);
    }
}
