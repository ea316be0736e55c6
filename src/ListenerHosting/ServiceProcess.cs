using System;
using System.Net;
using System.Threading;
using Comparator.Contracts;

namespace Comparator.ListenerHosting
{
    /// <summary>
    /// Runs one service process the way the launcher expects, whatever hosts it: parse the service
    /// options, start, set TCP_NODELAY as asked (<see cref="ListenerSockets"/>), print what it did and the ready line, wait for stdin's end (when asked), SIGTERM, Ctrl+C or the comparator's death,
    /// stop, and end the process (<see cref="ProcessEnd"/>: under Mono without Mono's own shutdown). Exit 0 after a clean stop, 2 for bad options, 3 when the port cannot be bound, 4 when HTTP.sys
    /// refuses the URL (<see cref="UrlReservation"/>).
    /// </summary>
    public static class ServiceProcess
    {
        /// <param name="start">Starts listening and returns what stops the service; throws CannotListenException when it cannot bind.</param>
        public static int Run(string serviceName, string[] args, Func<ServiceOptions, IDisposable> start)
        {
            var options = ServiceOptions.Parse(args, out var error);
            if (options == null)
            {
                Console.Error.WriteLine(serviceName + ": " + error);
                return ServiceExitCodes.BadArguments;
            }
            if (!options.ApplyMinThreads())
            {
                Console.Error.WriteLine(serviceName + ": --min-threads " + options.MinThreads + " is above the thread pool's maximum");
                return ServiceExitCodes.BadArguments;
            }

            using (var stopRequested = new ManualResetEventSlim())
            using (StopSignals.Register(stopRequested.Set))
            {
                IDisposable service;
                try
                {
                    service = start(options);
                }
                catch (Exception e) when (UrlReservation.IsAccessDenied(e))
                {
                    Console.Error.WriteLine(serviceName + ": " + UrlReservation.Message(options));
                    return ServiceExitCodes.AccessDenied;
                }
                catch (Exception e) when (e is CannotListenException || e is HttpListenerException)
                {
                    Console.Error.WriteLine(serviceName + ": cannot listen on " + options.BaseUrl + ": " + e.Message);
                    return ServiceExitCodes.CannotListen;
                }

                string noDelay;
                try
                {
                    noDelay = ListenerSockets.ApplyNoDelay(options.Port, options.TcpNoDelay);
                }
                catch (InvalidOperationException e)
                {
                    Console.Error.WriteLine(serviceName + ": " + e.Message);
                    service.Dispose();
                    return ServiceExitCodes.CannotListen;
                }

                ParentWatch.StartIfAsked(stopRequested.Set);
                Console.WriteLine(SocketFact.Format(noDelay));
                Console.WriteLine(ReadyLine.Format(options.BaseUrl));
                Console.Out.Flush();
                using (StdinWatch.Start(options.StopOnStdinClose, stopRequested.Set)) // disposed before stopRequested is
                    stopRequested.Wait();
                service.Dispose();
            }
            return ProcessEnd.AfterStop(ServiceExitCodes.Stopped); // under Mono the process ends here, not in Mono's shutdown
        }
    }
}
