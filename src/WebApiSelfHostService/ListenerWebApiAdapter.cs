using System;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using System.Web.Http;
using Comparator.Contracts;
using Comparator.ListenerHosting;

namespace Comparator.WebApiSelfHostService
{
    /// <summary>
    /// Hands an HttpListener request to Web API 2's HttpServer as an HttpRequestMessage and writes the
    /// HttpResponseMessage back, doing what Web API's OWIN adapter (HttpMessageHandlerAdapter with
    /// OwinBufferPolicySelector) does under Katana's HttpListener host: the request body is streamed,
    /// not buffered; a response whose length is unknown is buffered to get a Content-Length, except
    /// StreamContent and PushStreamContent and a response marked Transfer-Encoding: chunked, which go
    /// out chunked. webapi-kestrel's bridge follows the same policy, so the two differ in runtime and
    /// server only. Error details are off in the configuration: no exception text reaches the wire.
    /// </summary>
    public sealed class ListenerWebApiAdapter : IDisposable
    {
        private readonly HttpMessageInvoker _server;
        private readonly ServiceOptions _options;

        public ListenerWebApiAdapter(HttpConfiguration configuration, ServiceOptions options)
        {
            _server = new HttpMessageInvoker(new HttpServer(configuration), disposeHandler: true);
            _options = options;
        }

        public async Task HandleAsync(HttpListenerContext context)
        {
            var response = context.Response;
            // The listener writes its own name unless a Server header is set; empty is the closest to none.
            if (!_options.ServerHeader) response.Headers.Set(HttpResponseHeader.Server, "");
            // The body limit is the host's, as it is Katana's: refused before a byte of the body is read.
            if (context.Request.ContentLength64 > _options.MaxBodyBytes)
            {
                Refuse(response);
                return;
            }

            var body = new BodyLimitStream(context.Request.InputStream, _options.MaxBodyBytes);
            using (var request = ToRequestMessage(context.Request, body))
            using (var answer = await _server.SendAsync(request, CancellationToken.None).ConfigureAwait(false))
            {
                if (body.Exceeded) Refuse(response);
                else await WriteAsync(answer, response, IsHead(context.Request)).ConfigureAwait(false);
            }
        }

        /// <summary>413, and the connection closed: the unread body is still on the socket.</summary>
        private static void Refuse(HttpListenerResponse response)
        {
            response.StatusCode = (int)HttpStatusCode.RequestEntityTooLarge;
            response.KeepAlive = false;
            response.ContentLength64 = 0;
            response.Close();
        }

        private static HttpRequestMessage ToRequestMessage(HttpListenerRequest source, BodyLimitStream body)
        {
            var request = new HttpRequestMessage(new HttpMethod(source.HttpMethod), source.Url) { Content = new StreamContent(body) };
            foreach (var name in source.Headers.AllKeys)
            {
                var values = source.Headers.GetValues(name);
                if (values == null) continue;
                if (!request.Headers.TryAddWithoutValidation(name, values))
                    request.Content.Headers.TryAddWithoutValidation(name, values);
            }
            return request;
        }

        /// <summary>
        /// An answer to HEAD has a head and no body (RFC 9110 §9.3.2). Mono's listener sends whatever is
        /// written, so the adapter writes none: a body after it would be read as the next answer on the
        /// connection. (.NET Framework's http.sys drops it on its own.)
        /// </summary>
        private static bool IsHead(HttpListenerRequest request) => string.Equals(request.HttpMethod, "HEAD", StringComparison.OrdinalIgnoreCase);

        private static async Task WriteAsync(HttpResponseMessage source, HttpListenerResponse response, bool head)
        {
            response.StatusCode = (int)source.StatusCode;
            foreach (var header in source.Headers)
            {
                if (string.Equals(header.Key, "Transfer-Encoding", StringComparison.OrdinalIgnoreCase)) continue; // the listener frames the body
                foreach (var value in header.Value) response.Headers.Add(header.Key, value);
            }
            var content = source.Content;
            if (content == null)
            {
                response.ContentLength64 = 0;
                response.Close();
                return;
            }

            var chunked = source.Headers.TransferEncodingChunked == true;
            if (!chunked && content.Headers.ContentLength == null && !(content is StreamContent || content is PushStreamContent))
                await content.LoadIntoBufferAsync().ConfigureAwait(false);
            foreach (var header in content.Headers)
            {
                if (string.Equals(header.Key, "Content-Length", StringComparison.OrdinalIgnoreCase)) continue;
                if (string.Equals(header.Key, "Content-Type", StringComparison.OrdinalIgnoreCase)) { response.ContentType = header.Value.First(); continue; }
                foreach (var value in header.Value) response.Headers.Add(header.Key, value);
            }
            // A response that says it is chunked is sent chunked, whatever length its content could tell.
            if (!chunked && content.Headers.ContentLength is long length) response.ContentLength64 = length;
            else if (head) response.ContentLength64 = 0; // no length to announce, and nothing follows
            else response.SendChunked = true;
            if (!head) await content.CopyToAsync(response.OutputStream).ConfigureAwait(false);
            response.Close();
        }

        public void Dispose() => _server.Dispose();
    }
}
