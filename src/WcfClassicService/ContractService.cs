using System;
using System.IO;
using System.Net;
using System.ServiceModel;
using System.ServiceModel.Web;
using System.Text;
using Comparator.Contracts;

namespace Comparator.WcfClassicService
{
    /// <summary>
    /// The operations. Buffered answers declare their length (OutgoingResponse.ContentLength): the
    /// listener transport sends those with Content-Length and streams (chunks) every reply without
    /// one, which is how the stream echo's reply goes out chunked (see Transport/ReplyWriter.cs).
    /// </summary>
    /// <remarks>
    /// PerCall, not a singleton: Mono 6.8's PostReceiveRequestHandler.EnsureInstanceContextOpen opens a
    /// shared InstanceContext without a lock, so the first concurrent requests race ("is not at created
    /// state but at Opened state"), fail, and Mono prints the exception with its stack to stdout.
    /// </remarks>
    [ServiceBehavior(InstanceContextMode = InstanceContextMode.PerCall, ConcurrencyMode = ConcurrencyMode.Multiple)]
    public sealed partial class ContractService : IContractService
    {
        private static readonly UTF8Encoding Utf8 = new UTF8Encoding(false);

        public Stream Time() => Buffered(ContentTypes.Text, Utf8.GetBytes(TimeText.Now()));

        public Stream Json()
        {
            var raw = QueryMatch()?.QueryParameters[Routes.JsonItemsParameter];
            if (!JsonSample.TryParseItems(raw, out var items))
            {
                var response = WebOperationContext.Current.OutgoingResponse;
                response.StatusCode = HttpStatusCode.BadRequest;
                response.SuppressEntityBody = true; // a bare 400: no body, so no text to leak
                return new MemoryStream(new byte[0], writable: false);
            }
            return Buffered(ContentTypes.Json, Utf8.GetBytes(JsonSample.Serialize(JsonSample.Create(items))));
        }

        public Stream Echo(Stream body)
        {
            var copy = new MemoryStream();
            body.CopyTo(copy);
            return Buffered(ContentTypes.Binary, copy.ToArray());
        }

        /// <summary>The request stream goes back as the reply, with no declared length: streamed.</summary>
        public Stream StreamEcho(Stream body)
        {
            WebOperationContext.Current.OutgoingResponse.ContentType = ContentTypes.Binary;
            return body;
        }

        /// <summary>
        /// The selector's UriTemplateMatch. .NET Framework hands it out as IncomingRequest.UriTemplateMatch;
        /// Mono 6.8 returns null there even with the message property set, so read the property too.
        /// </summary>
        private static UriTemplateMatch? QueryMatch() =>
            WebOperationContext.Current.IncomingRequest.UriTemplateMatch
            ?? (OperationContext.Current.IncomingMessageProperties.TryGetValue(Hosting.MethodAwareOperationSelector.UriTemplateMatchProperty, out var match) ? match as UriTemplateMatch : null);

        private static Stream Buffered(string contentType, byte[] body)
        {
            var response = WebOperationContext.Current.OutgoingResponse;
            response.ContentType = contentType;
            response.ContentLength = body.Length;
            // Mono 6.8 drops a ContentLength of 0 (no header is set), which would read as "length
            // unknown"; an empty buffered reply is declared body-less instead: Content-Length: 0.
            if (body.Length == 0) response.SuppressEntityBody = true;
            return new MemoryStream(body, writable: false);
        }
    }
}
