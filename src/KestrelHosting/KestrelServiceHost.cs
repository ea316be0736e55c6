using System;
using System.IO;
using System.Net;
using System.Threading.Tasks;
using Comparator.Contracts;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Comparator.KestrelHosting;

/// <summary>
/// Runs one Kestrel-hosted target the way the launcher expects: parse the service options, start
/// Kestrel on the address and port with the body limit and Server header asked for (on HTTPS with
/// --certificate, <see cref="HttpsCertificate"/>), print the ready line, stop on stdin's end (when asked), SIGTERM, Ctrl+C or the
/// comparator's death. Exit 2 for bad options, 3 when the port cannot be bound. The stack only adds
/// its services and maps its endpoints.
/// </summary>
public static class KestrelServiceHost
{
    /// <param name="configureKestrel">
    /// A stack's own Kestrel setting on top of the shared ones, or null; CoreWCF's streamed mode, for
    /// one, writes synchronously and needs AllowSynchronousIO, which no other target gets.
    /// </param>
    public static Task<int> RunAsync(string serviceName, string[] args, Action<IServiceCollection> addServices, Action<WebApplication> mapEndpoints,
        Action<Microsoft.AspNetCore.Server.Kestrel.Core.KestrelServerOptions>? configureKestrel = null) =>
        RunAsync(serviceName, args, addServices, (app, _) => mapEndpoints(app), configureKestrel);

    /// <summary>The same, for a stack whose endpoints need the parsed options (CoreWCF's bindings take the body limit).</summary>
    public static async Task<int> RunAsync(string serviceName, string[] args, Action<IServiceCollection> addServices, Action<WebApplication, ServiceOptions> mapEndpoints,
        Action<Microsoft.AspNetCore.Server.Kestrel.Core.KestrelServerOptions>? configureKestrel = null)
    {
        if (!HttpsCertificate.TryTake(args, out var serviceArgs, out var certificate, out var error))
        {
            Console.Error.WriteLine(serviceName + ": " + error);
            return ServiceExitCodes.BadArguments;
        }
        var options = ServiceOptions.Parse(serviceArgs, out error);
        if (options == null)
        {
            Console.Error.WriteLine(serviceName + ": " + error + (error.StartsWith("unknown option", StringComparison.Ordinal) ? "; " + HttpsCertificate.Usage : ""));
            return ServiceExitCodes.BadArguments;
        }
        var baseUrl = HttpsCertificate.BaseUrl(options.BaseUrl, certificate);
        if (!options.ApplyMinThreads())
        {
            Console.Error.WriteLine(serviceName + ": --min-threads " + options.MinThreads + " is above the thread pool's maximum");
            return ServiceExitCodes.BadArguments;
        }

        // The empty builder: no configuration files, no default middleware, nothing a stack did not ask for.
        var builder = WebApplication.CreateEmptyBuilder(new WebApplicationOptions());
        builder.Logging.ClearProviders(); // logging off: it would be measured as server cost
        builder.Services.Configure<ConsoleLifetimeOptions>(o => o.SuppressStatusMessages = true);
        builder.WebHost.UseKestrelCore().ConfigureKestrel(k =>
        {
            k.AddServerHeader = options.ServerHeader;
            k.Limits.MaxRequestBodySize = options.MaxBodyBytes;
            k.Listen(IPAddress.Parse(options.Address), options.Port, listen =>
            {
                if (certificate is not null) listen.UseHttps(certificate);
            });
            configureKestrel?.Invoke(k);
        });
        // Kestrel sets NoDelay on every socket it accepts unless told otherwise; --tcp-nodelay off tells it.
        builder.Services.Configure<SocketTransportOptions>(o => o.NoDelay = options.TcpNoDelay);
        addServices(builder.Services);

        var app = builder.Build();
        mapEndpoints(app, options);

        try
        {
            await app.StartAsync();
        }
        catch (IOException e)
        {
            Console.Error.WriteLine(serviceName + ": cannot listen on " + baseUrl + ": " + e.Message);
            return ServiceExitCodes.CannotListen;
        }

        ParentWatch.StartIfAsked(app.Lifetime.StopApplication);
        Console.WriteLine(SocketFact.Format(options.TcpNoDelay
            ? "on: Kestrel's SocketTransportOptions.NoDelay (its default), set on every accepted socket"
            : "off: Kestrel's SocketTransportOptions.NoDelay = false, Nagle's algorithm on every accepted socket"));
        Console.WriteLine(ReadyLine.Format(baseUrl));
        using var stdinWatch = StdinWatch.Start(options.StopOnStdinClose, app.Lifetime.StopApplication); // after the ready line: Console.Out is set up
        await app.WaitForShutdownAsync(); // ConsoleLifetime stops on SIGTERM and Ctrl+C
        return ServiceExitCodes.Stopped;
    }
}
