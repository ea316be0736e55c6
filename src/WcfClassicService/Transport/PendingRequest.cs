using System;
using System.IO;
using System.Net;
using System.ServiceModel.Channels;
using System.Threading.Tasks;

namespace Comparator.WcfClassicService.Transport
{
    /// <summary>One HTTP request with its body read, waiting for (or being served by) a channel.</summary>
    internal sealed class PendingRequest
    {
        private const int MaxHeaderBytes = 64 * 1024;
        private const string DefaultContentType = "application/octet-stream";

        public PendingRequest(HttpListenerContext context, byte[] body)
        {
            Context = context;
            Body = body;
        }

        public HttpListenerContext Context { get; }
        public byte[] Body { get; }

        /// <summary>
        /// Reads the whole body, or returns null when it is over the limit: a declared length is refused
        /// before a byte is read, a chunked body as soon as it passes the limit. A body that ends before
        /// its Content-Length throws.
        /// </summary>
        public static async Task<byte[]?> ReadBodyAsync(HttpListenerContext context, long maxBytes)
        {
            var request = context.Request;
            var declared = request.ContentLength64;
            if (declared > maxBytes) return null;
            if (!request.HasEntityBody) return new byte[0];
            var input = request.InputStream;
            if (declared >= 0)
            {
                var body = new byte[declared];
                var filled = 0;
                while (filled < body.Length)
                {
                    var read = await input.ReadAsync(body, filled, body.Length - filled).ConfigureAwait(false);
                    if (read == 0) throw new EndOfStreamException("body shorter than its Content-Length");
                    filled += read;
                }
                return body;
            }
            var buffer = new MemoryStream();
            var chunk = new byte[16 * 1024];
            int n;
            while ((n = await input.ReadAsync(chunk, 0, chunk.Length).ConfigureAwait(false)) > 0)
            {
                if (buffer.Length + n > maxBytes) return null;
                buffer.Write(chunk, 0, n);
            }
            return buffer.ToArray();
        }

        /// <summary>
        /// The request as WebHttp's dispatch expects it: the body through the binding's encoder (raw bytes
        /// here), the method, query and headers in HttpRequestMessageProperty, the request URI as To.
        /// </summary>
        public Message ToMessage(MessageEncoder encoder)
        {
            var request = Context.Request;
            var message = encoder.ReadMessage(new MemoryStream(Body, writable: false), MaxHeaderBytes, request.ContentType ?? DefaultContentType);
            var property = new HttpRequestMessageProperty
            {
                Method = request.HttpMethod,
                QueryString = request.Url.Query.TrimStart('?'),
            };
            property.Headers.Add(request.Headers);
            message.Properties[HttpRequestMessageProperty.Name] = property;
            message.Headers.To = request.Url;
            message.Properties.Via = request.Url;
            return message;
        }
    }
}
