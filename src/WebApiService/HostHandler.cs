using System;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using System.Web.Http;
using Comparator.ListenerHosting;

namespace Comparator.WebApiService
{
    /// <summary>
    /// Sits between Web API's OWIN adapter (HttpMessageHandlerAdapter) and Web API's HttpServer, where
    /// both the HttpResponseMessage and the OWIN response are in reach.
    /// A body cut off at the limit: the controller's read failed and Web API made a 500 of it; that is
    /// dropped, and HostMiddleware answers 413 with Connection: close instead.
    /// A response marked Transfer-Encoding: chunked: the adapter drops that header and leaves the framing
    /// to the host; Katana's HttpListener host then gives a response that writes no body bytes
    /// Content-Length: 0. Telling the host "chunked" up front (Katana maps the OWIN Transfer-Encoding
    /// header to HttpListenerResponse.SendChunked) keeps an empty stream echo chunked, as its contract says.
    /// </summary>
    internal sealed class HostHandler : DelegatingHandler
    {
        public HostHandler(HttpServer server) : base(server) { }

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            var response = await base.SendAsync(request, cancellationToken).ConfigureAwait(false);
            var owin = request.GetOwinContext();
            if (owin == null) return response;

            if (owin.Get<BodyLimitStream>(HostMiddleware.BodyLimitKey)?.Exceeded == true)
            {
                // Whatever Web API made of the failed read (a 500), the answer is HostMiddleware's 413.
                response.Dispose();
                throw new OperationCanceledException("request body over the limit");
            }

            if (response.Headers.TransferEncodingChunked == true && response.Content != null)
                owin.Response.Headers.Set("Transfer-Encoding", "chunked");
            return response;
        }
    }
}
