using System;
using System.IO;
using System.Net;
using System.Threading.Tasks;
using Comparator.Contracts;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Comparator.KestrelService;

public static class Program
{
    public static async Task<int> Main(string[] args)
    {
        var options = ServiceOptions.Parse(args, out var error);
        if (options == null)
        {
            Console.Error.WriteLine("KestrelService: " + error);
            return ServiceExitCodes.BadArguments;
        }

        var builder = WebApplication.CreateEmptyBuilder(new WebApplicationOptions());
        builder.Logging.ClearProviders(); // logging off: it would be measured as server cost
        builder.Services.Configure<ConsoleLifetimeOptions>(o => o.SuppressStatusMessages = true);
        builder.WebHost.UseKestrelCore().ConfigureKestrel(k =>
        {
            k.AddServerHeader = options.ServerHeader;
            k.Limits.MaxRequestBodySize = options.MaxBodyBytes;
            k.Listen(IPAddress.Parse(options.Address), options.Port);
        });

        var app = builder.Build();
        app.Run(ContractHandler.HandleAsync);

        try
        {
            await app.StartAsync();
        }
        catch (IOException e)
        {
            Console.Error.WriteLine("KestrelService: cannot listen on " + options.BaseUrl + ": " + e.Message);
            return ServiceExitCodes.CannotListen;
        }

        Console.WriteLine(ReadyLine.Format(options.BaseUrl));
        await app.WaitForShutdownAsync(); // ConsoleLifetime stops on SIGTERM and Ctrl+C
        return ServiceExitCodes.Stopped;
    }
}
