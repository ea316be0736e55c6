using System.CommandLine;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Errors;
using Comparator.Targets;

namespace Comparator.Cli;

/// <summary>
/// serve [--targets a,b] [--server-header on|off] [--max-body-bytes N] [--ports FIRST-LAST]: starts the targets, prints
/// "NAME BASE_URL" per target and then "ready", keeps them up until Ctrl+C or SIGTERM.
/// </summary>
public static class ServeCommand
{
    public static Command Define()
    {
        var serve = new Command("serve",
            "Start the targets, print \"NAME BASE_URL\" per target and then \"ready\", and keep them up until Ctrl+C or SIGTERM.")
        {
            CommandLine.Many("--targets", "all|NAME", "Targets to start, by name (see `comparator targets`). Default: all that run here."),
            CommandLine.One("--server-header", "on|off", "Whether the targets send a Server header. Default: off."),
            CommandLine.One("--tcp-nodelay", "on|off", "TCP_NODELAY on every target's sockets: on sends each answer without Nagle's delay, as Kestrel does by default; " +
                "off leaves each host's stock setting (the HttpListener targets then hold a chunked answer's end for the client's delayed ACK). Default: on."),
            CommandLine.One("--max-body-bytes", "N", "The largest request body the targets accept. Default: the services' 16 MiB."),
            CommandLine.Ports(),
        };
        serve.SetAction(parse => RunAsync(new ArgumentReader(parse)));
        return serve;
    }

    public static async Task<int> RunAsync(ArgumentReader options)
    {
        BuildLayout.Discover().RequireCheckout("serve");
        var targets = TargetCatalog.Resolve(options.Value("--targets"), out var error);
        if (error.Length > 0) throw new UsageException("serve: " + error);
        var ports = options.Ports();
        if (options.Value("--targets") is null)
            foreach (var missing in TargetCatalog.All.Where(t => !t.IsAvailable))
                Console.Error.WriteLine($"note: {missing.Name} not started: {missing.UnavailableReason}");
        var switches = new ServiceSwitches(options.OnOff("--server-header"), options.PositiveLong("--max-body-bytes"),
            options.OnOff("--tcp-nodelay", absent: true));

        using var stop = new StopSignals("serve", "stopping the targets");

        var launcher = new TargetLauncher(BuildLayout.Discover(), ports: ports);
        var running = new List<RunningTarget>();
        try
        {
            foreach (var target in targets)
            {
                var started = await launcher.StartAsync(target, switches, stop.Token);
                running.Add(started);
                Console.WriteLine($"{target.Name} {started.BaseUrl.ToString().TrimEnd('/')}");
                if (started.TcpNoDelay is string fact) Console.Error.WriteLine($"{target.Name}: tcp-nodelay {fact}");
            }
            Console.WriteLine("ready");
            await WaitForStopOrDeath(running, stop.Token);
            var dead = running.Where(r => r.HasExited).ToList();
            foreach (var d in dead) Console.Error.WriteLine($"serve: target '{d.Definition.Name}' stopped on its own");
            return dead.Count == 0 ? ExitCodes.Success : ExitCodes.Failed;
        }
        catch (LaunchException e)
        {
            Console.Error.WriteLine("serve: " + e.Message);
            return ExitCodes.Failed;
        }
        finally
        {
            await Task.WhenAll(running.Select(r => r.DisposeAsync().AsTask()));
        }
    }

    /// <summary>Returns on a stop signal, or as soon as any target dies (a dead target must not look served).</summary>
    private static async Task WaitForStopOrDeath(IReadOnlyList<RunningTarget> running, CancellationToken stop)
    {
        while (!stop.IsCancellationRequested && running.All(r => !r.HasExited))
        {
            try { await Task.Delay(250, stop); } catch (OperationCanceledException) { }
        }
    }
}
