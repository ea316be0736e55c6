using System.CommandLine;
using System.IO;
using System.Threading.Tasks;
using Comparator.Errors;
using Comparator.Reports;
using Comparator.Running;
using Comparator.Soak;
using Comparator.Targets;
using Comparator.Reports.Exporters;

namespace Comparator.Cli;

/// <summary>
/// soak --duration D [--concurrency 256]: every target under verified load at once for D; reports
/// the failed requests (must be 0) and each target's RSS from start to end, and flags growth.
/// Exit 0 when every target ran clean, 1 otherwise. Ctrl+C writes what was seen, marked partial.
/// </summary>
public static class SoakCommand
{
    public static Command Define()
    {
        var soak = new Command("soak",
            "Put every target under verified load at once for a long time; report failed requests (must be 0) and each target's memory " +
            "from start to end, and flag growth. Exit 0 when every target ran clean, 1 otherwise.")
        {
            CommandLine.One("--duration", "DURATION", "How long the load lasts (10m, 90s). Default: 10m."),
            CommandLine.One("--concurrency", "N", "Requests in flight per target, 1 to 10000. Default: 256."),
            CommandLine.Many("--targets", "all|NAME", "Targets to soak, by name. Default: all that run here except measurement variants."),
            CommandLine.Many("--sizes", "SIZE|FILE", $"Request body sizes of the echo requests: 500, 4KB, 1MB, or a file in payloads/. Default: {RunOptionsParser.DefaultSizes}."),
            CommandLine.One("--out", "DIR", "Where the soak directory is written. Default: results/ in the repository."),
            CommandLine.One("--tcp-nodelay", "on|off", "TCP_NODELAY on every target's sockets: on sends each answer without Nagle's delay, as Kestrel does by default; " +
                "off leaves each host's stock setting (the HttpListener targets then hold a chunked answer's end for the client's delayed ACK). Default: on."),
        };
        soak.SetAction(parse => RunAsync(new ArgumentReader(parse)));
        return soak;
    }

    public static async Task<int> RunAsync(ArgumentReader options)
    {
        var layout = BuildLayout.Discover();
        layout.RequireCheckout("soak");
        var duration = OptionValues.Duration("--duration", options.Value("--duration") ?? "10m", allowZero: false, command: "soak");
        var asked = options.PositiveLong("--concurrency") ?? 256;
        if (asked > 10_000) throw new UsageException($"soak: --concurrency takes a whole number from 1 to 10000, not '{asked}'");
        var concurrency = (int)asked;
        var targets = TargetCatalog.Resolve(options.Value("--targets"), out var error);
        if (error.Length > 0) throw new UsageException("soak: " + error);
        // A measurement variant (the stock WCF transport, 10 requests/s by design) is soaked only when named.
        if (options.Value("--targets") is null) targets = targets.Where(t => t.VariantOf is null).ToList();
        var sizes = (options.Value("--sizes") ?? RunOptionsParser.DefaultSizes)
            .Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(s => OptionValues.ReadPayload(s, layout.PayloadDirectory, command: "soak")).ToList();
        var outDirectory = options.Value("--out") ?? layout.ResultsDirectory;
        var tcpNoDelay = options.OnOff("--tcp-nodelay", absent: true);
        if (options.Value("--targets") is null)
            foreach (var missing in TargetCatalog.All.Where(t => !t.IsAvailable))
                Console.Error.WriteLine($"note: {missing.Name} not soaked: {missing.UnavailableReason}");

        using var stop = new StopSignals("soak", "stopping; what was seen will be written, marked partial");
        var runner = new SoakRunner(targets, new TargetLauncher(layout), duration, concurrency, sizes, Console.Error.WriteLine)
        {
            Switches = ServiceSwitches.Default with { TcpNoDelay = tcpNoDelay },
        };
        var soak = await runner.RunAsync(stop.Token);
        var directory = SoakReport.Write(soak, outDirectory);

        Console.WriteLine();
        Console.Write(SoakReport.Table(soak));
        Console.WriteLine($"results: {directory}{(soak.Partial ? " (PARTIAL)" : "")}");
        return !soak.Partial && soak.Targets.Count > 0 && soak.Targets.All(MemoryGrowth.IsClean) ? ExitCodes.Success : ExitCodes.Failed;
    }
}
