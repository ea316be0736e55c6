using System;
using System.IO;
using System.Net;
using System.ServiceModel;
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
            // SOAP 1.1 carries the action in the SOAPAction header, not in the envelope, and the encoder
            // never sees HTTP headers: WCF's HTTP transports copy it into the message (.NET's for
            // AddressingVersion.None, Mono's HttpReplyChannel for SOAP 1.1), and the dispatcher picks
            // the operation by it. No header leaves Action null, which no operation has: a fault.
            if (message.Version.Envelope == EnvelopeVersion.Soap11 && message.Headers.Action == null)
            {
                var action = Unquote(request.Headers["SOAPAction"]);
                if (action != null) message.Headers.Action = action;
            }
            return message;
        }

        /// <summary>
        /// The status a request to a SOAP endpoint gets before it reaches WCF, or null to go on: SOAP over
        /// HTTP is a POST of an envelope (405 otherwise), in a media type the encoder reads (415 otherwise,
        /// as WCF's own transport answers). A body-less request would reach the dispatcher as a message
        /// with no envelope at all.
        /// </summary>
        public HttpStatusCode? SoapRefusal(MessageEncoder encoder)
        {
            if (encoder.MessageVersion.Envelope == EnvelopeVersion.None) return null;
            if (Context.Request.HttpMethod != "POST") return HttpStatusCode.MethodNotAllowed;
            var type = Context.Request.ContentType;
            if (string.IsNullOrEmpty(type) || !encoder.IsContentTypeSupported(type)) return HttpStatusCode.UnsupportedMediaType;
            if (Body.Length == 0) return HttpStatusCode.BadRequest;
            return null;
        }

        /// <summary>
        /// The query of a GET for a published document, as WCF's metadata addresses have it ("wsdl",
        /// "wsdl=wsdl0", "xsd=xsd0", any case), or null for any other request.
        /// </summary>
        public string? DocumentQuery()
        {
            if (Context.Request.HttpMethod != "GET") return null;
            var query = Context.Request.Url.Query.TrimStart('?');
            return query.Equals("wsdl", StringComparison.OrdinalIgnoreCase)
                   || query.StartsWith("wsdl=", StringComparison.OrdinalIgnoreCase)
                   || query.StartsWith("xsd=", StringComparison.OrdinalIgnoreCase) ? query : null;
        }

        /// <summary>SOAPAction is a quoted string ("urn:x/y"); some clients send it bare.</summary>
        private static string? Unquote(string? value)
        {
            if (value == null) return null;
            value = value.Trim();
            return value.Length >= 2 && value[0] == '"' && value[value.Length - 1] == '"' ? value.Substring(1, value.Length - 2) : value;
        }
    }
}
