using System;
using System.Net;
using System.Threading.Tasks;
using Comparator.Contracts;

namespace Comparator.ListenerHosting
{
    /// <summary>
    /// A System.Net.HttpListener on the service's address and port with <see cref="OutstandingAccepts"/>
    /// accept loops, each handing every request to the handler without waiting for it. The same code
    /// runs on .NET 10 (managed listener), Mono (Mono's listener) and .NET Framework (HTTP.sys), so
    /// targets built on it differ only in what the handler does and in the runtime under it.
    /// </summary>
    public sealed class ListenerService : IDisposable
    {
        private readonly HttpListener _listener;
        private volatile bool _stopping;

        private ListenerService(HttpListener listener) => _listener = listener;

        public static ListenerService Start(ServiceOptions options, Func<HttpListenerContext, Task> handle)
        {
            var listener = new HttpListener { IgnoreWriteExceptions = true };
            listener.Prefixes.Add(options.BaseUrl + "/");
            try
            {
                listener.Start();
            }
            catch (Exception e) when (e is HttpListenerException || e is System.Net.Sockets.SocketException)
            {
                listener.Close();
                throw new CannotListenException(e.Message, e);
            }
            var service = new ListenerService(listener);
            for (var i = 0; i < OutstandingAccepts; i++) _ = Task.Run(() => service.AcceptLoopAsync(handle));
            return service;
        }

        /// <summary>
        /// GetContext calls kept outstanding: 5 per core, as Katana's OwinHttpListener (Microsoft.Owin.Host.HttpListener)
        /// keeps by default. A handler runs inline on its loop until its first real await (Web API's pipeline
        /// does all its work before the response write), so with one loop only one request at a time could
        /// be taken in while the others waited: on two cores each request then woke the loop from the other core.
        /// </summary>
        public static readonly int OutstandingAccepts = 5 * Environment.ProcessorCount;

        private async Task AcceptLoopAsync(Func<HttpListenerContext, Task> handle)
        {
            while (!_stopping)
            {
                HttpListenerContext context;
                try
                {
                    context = await _listener.GetContextAsync().ConfigureAwait(false);
                }
                catch (Exception) when (_stopping)
                {
                    return;
                }
                catch (Exception e) when (e is HttpListenerException || e is InvalidOperationException)
                {
                    continue; // a connection that failed before a request was read; keep serving
                }
                _ = HandleOneAsync(handle, context); // each request on its own; the loop only accepts
            }
        }

        private static async Task HandleOneAsync(Func<HttpListenerContext, Task> handle, HttpListenerContext context)
        {
            try
            {
                await handle(context).ConfigureAwait(false);
            }
            catch (Exception)
            {
                // A client that went away mid-request: drop that connection, keep the service up.
                try { context.Response.Abort(); } catch (Exception) { }
            }
        }

        public void Dispose()
        {
            _stopping = true;
            try { _listener.Stop(); } catch (ObjectDisposedException) { }
            _listener.Close();
        }
    }
}
