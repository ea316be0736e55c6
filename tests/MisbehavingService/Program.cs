using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.KestrelHosting;
using Comparator.KestrelService;
using Microsoft.AspNetCore.Builder;

namespace Comparator.MisbehavingService;

/// <summary>
/// `MisbehavingService delay|block MS [service options]`: answers the contract like KestrelService,
/// each request first waiting MS milliseconds, asynchronously (delay: nothing busy, a timer sets
/// the pace) or by blocking the thread-pool thread it runs on (block: the pool runs out of threads
/// and injects more, slowly, as sync-over-async or synchronous I/O makes it do).
/// </summary>
public static class Program
{
    public static Task<int> Main(string[] args)
    {
        if (args.Length < 2 || args[0] is not ("delay" or "block") || !int.TryParse(args[1], out var ms) || ms < 0)
        {
            Console.Error.WriteLine("MisbehavingService: usage: MisbehavingService delay|block MS [--port N ...]");
            return Task.FromResult(2);
        }
        var block = args[0] == "block";
        return KestrelServiceHost.RunAsync("MisbehavingService", args.Skip(2).ToArray(), _ => { }, app =>
        {
            app.Use(async (context, next) =>
            {
                if (block) Thread.Sleep(ms);
                else await Task.Delay(ms);
                await next(context);
            });
            app.Run(ContractHandler.HandleAsync);
        });
    }
}
