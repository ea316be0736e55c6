using System;
using System.Collections.Generic;
using System.Net;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.ListenerHosting;
using Microsoft.Owin;

namespace Comparator.WebApiService
{
    /// <summary>
    /// The OWIN middleware in front of Web API: what webapi-selfhost's ListenerWebApiAdapter does around
    /// Web API, done the Katana way.
    /// The Server header: Mono's HttpListener writes "Mono-HTTPAPI/1.0" unless the response has one, so
    /// without --server-header it gets an empty one, as webapi-selfhost does.
    /// The body limit: a declared Content-Length over it is refused with 413 and Connection: close
    /// before a byte of the body is read. A body without a declared length is read through
    /// <see cref="BodyLimitStream"/>; when that trips (in the controller, or while the stream echo copies
    /// the body out) and nothing has gone out yet, the answer becomes 413 with Connection: close
    /// whatever Web API made of the failed read.
    /// </summary>
    internal static class HostMiddleware
    {
        /// <summary>The OWIN environment key under which the request's <see cref="BodyLimitStream"/> is kept.</summary>
        internal const string BodyLimitKey = "comparator.BodyLimitStream";

        public static Func<IOwinContext, Func<Task>, Task> Create(ServiceOptions options) => async (context, next) =>
        {
            var response = context.Response;
            // Not Headers.Set("Server", ""): Microsoft.Owin removes a header set to an empty or blank value. The
            // raw OWIN headers dictionary takes it, and Katana's HttpListener host passes it on as it is.
            if (!options.ServerHeader) ((IDictionary<string, string[]>)response.Headers)["Server"] = new[] { "" };

            var declared = context.Request.Headers.Get("Content-Length");
            if (declared != null && (!long.TryParse(declared, out var length) || length > options.MaxBodyBytes))
            {
                Refuse(context);
                return;
            }

            var body = new BodyLimitStream(context.Request.Body, options.MaxBodyBytes);
            context.Request.Body = body;
            context.Set(BodyLimitKey, body);
            var started = false;
            response.OnSendingHeaders(_ => started = true, null);
            try
            {
                await next().ConfigureAwait(false);
            }
            catch (Exception) when (body.Exceeded && !started)
            {
                // Web API's adapter gives up on a failed body copy with a canceled task; HostHandler throws when the
                // controller's read tripped the limit. Either way nothing is on the wire yet: answer 413 below.
            }
            if (body.Exceeded && !started) Refuse(context);
        };

        /// <summary>413, no body, and the connection closed: the unread body is still on the socket.</summary>
        private static void Refuse(IOwinContext context)
        {
            var response = context.Response;
            response.StatusCode = 413;
            response.ReasonPhrase = null;
            var headers = (IDictionary<string, string[]>)response.Headers;
            var server = headers.TryGetValue("Server", out var value) ? value : null;
            headers.Clear();
            if (server != null) headers["Server"] = server;
            // Undo what a response already being prepared may have set on the listener (chunked framing, a length).
            var listener = context.Get<HttpListenerContext>(typeof(HttpListenerContext).FullName);
            if (listener != null) listener.Response.SendChunked = false;
            response.ContentLength = 0;
            headers["Connection"] = new[] { "close" };
        }
    }
}
