using System;
using System.Net;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;

namespace Comparator.HttpListenerService;

public static class Program
{
    public static async Task<int> Main(string[] args)
    {
        var options = ServiceOptions.Parse(args, out var error);
        if (options == null)
        {
            Console.Error.WriteLine("HttpListenerService: " + error);
            return ServiceExitCodes.BadArguments;
        }

        using var listener = new HttpListener { IgnoreWriteExceptions = true };
        listener.Prefixes.Add(options.BaseUrl + "/");
        try
        {
            listener.Start();
        }
        catch (HttpListenerException e)
        {
            Console.Error.WriteLine("HttpListenerService: cannot listen on " + options.BaseUrl + ": " + e.Message);
            return ServiceExitCodes.CannotListen;
        }

        using var stopping = new CancellationTokenSource();
        void Stop(PosixSignalContext c) { c.Cancel = true; stopping.Cancel(); }
        using var onTerm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop);
        using var onInt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop);
        using var stopListening = stopping.Token.Register(listener.Stop);

        ParentWatch.StartIfAsked(stopping.Cancel);
        var handler = new ContractHandler(options);
        Console.WriteLine(ReadyLine.Format(options.BaseUrl));
        while (!stopping.IsCancellationRequested)
        {
            HttpListenerContext context;
            try
            {
                context = await listener.GetContextAsync();
            }
            catch (Exception) when (stopping.IsCancellationRequested)
            {
                break;
            }
            catch (HttpListenerException)
            {
                continue; // a connection that failed before a request was read; keep serving
            }
            _ = handler.HandleAsync(context); // each request on its own; the loop only accepts
        }
        return ServiceExitCodes.Stopped;
    }
}
