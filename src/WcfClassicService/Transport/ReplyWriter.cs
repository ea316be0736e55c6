using System;
using System.Globalization;
using System.IO;
using System.Net;
using System.ServiceModel;
using System.ServiceModel.Channels;

namespace Comparator.WcfClassicService.Transport
{
    /// <summary>
    /// Writes a WCF reply onto the HttpListenerResponse. Framing rule: a reply whose length the
    /// operation declared (HttpResponseMessageProperty's Content-Length header, i.e.
    /// WebOperationContext.OutgoingResponse.ContentLength) is encoded into a buffer and sent with
    /// Content-Length; a reply with a body and no declared length is a stream of unknown length and is
    /// encoded straight onto the socket with Transfer-Encoding: chunked; an empty or body-suppressed
    /// reply is Content-Length: 0. A fault is a bare 500: no exception text reaches the wire.
    /// SOAP (an encoder with an envelope) differs: every reply is buffered and sent with Content-Length
    /// as WCF's buffered HTTP transport does, and a fault is a SOAP fault with status 500, as SOAP 1.1
    /// over HTTP requires.
    /// </summary>
    internal static class ReplyWriter
    {
        /// <summary>Stream.CopyTo's default buffer: what webapi-selfhost and httplistener-mono write a streamed body in.</summary>
        private const int StreamCopyBufferSize = 81920;

        public static void Write(HttpListenerContext context, Message reply, MessageEncoder encoder)
        {
            var response = context.Response;
            try
            {
                var soap = IsSoap(encoder);
                if (reply.IsFault && !soap) { Finish(response, HttpStatusCode.InternalServerError); return; }
                var property = reply.Properties.TryGetValue(HttpResponseMessageProperty.Name, out var p) ? p as HttpResponseMessageProperty : null;
                response.StatusCode = property != null && property.StatusCode != 0 ? (int)property.StatusCode : 200; // Mono leaves an untouched StatusCode at 0
                if (soap)
                {
                    response.ContentType = encoder.ContentType;
                    if (reply.IsFault) response.StatusCode = (int)HttpStatusCode.InternalServerError;
                }
                long? declaredLength = null;
                if (property != null)
                {
                    foreach (var name in property.Headers.AllKeys)
                    {
                        var value = property.Headers[name];
                        if (Is(name, "Content-Length")) declaredLength = long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var n) ? n : (long?)null;
                        else if (Is(name, "Content-Type")) response.ContentType = value;
                        else if (Is(name, "Transfer-Encoding") || Is(name, "Connection")) { } // framing is this writer's job
                        else response.Headers.Set(name, value);
                    }
                }
                if (reply.IsEmpty || (property != null && property.SuppressEntityBody)) { response.ContentLength64 = 0; response.Close(); return; }

                if (declaredLength != null || soap)
                {
                    var buffer = new MemoryStream(declaredLength is long length && length <= int.MaxValue ? (int)length : 0);
                    encoder.WriteMessage(reply, buffer);
                    response.ContentLength64 = buffer.Length; // what was encoded, whatever was declared
                    response.OutputStream.Write(buffer.GetBuffer(), 0, (int)buffer.Length);
                }
                else
                {
                    response.SendChunked = true;
                    // The listener makes every write a chunk, and the encoder writes a raw body in small
                    // pieces; gather them as Stream.CopyTo does for the other Mono targets (81,920 bytes),
                    // so the chunk framing is the framework's choice of content, not this transport's.
                    var gathered = new BufferedStream(response.OutputStream, StreamCopyBufferSize); // not disposed: Close ends the response
                    encoder.WriteMessage(reply, gathered);
                    gathered.Flush();
                }
                response.Close();
            }
            catch (Exception)
            {
                Abort(response); // the client went away, or the reply could not be encoded: drop this connection
            }
        }

        /// <summary>
        /// A request the dispatcher took but never answered: Mono's dispatcher, on a duplex channel, builds
        /// the fault for an error outside the operation (a body the formatter cannot read, say) and drops
        /// it. SOAP gets WCF's generic internal-error fault through the encoder; the rest a bare 500.
        /// </summary>
        public static void Unanswered(HttpListenerContext context, MessageEncoder encoder)
        {
            if (!IsSoap(encoder)) { Finish(context.Response, HttpStatusCode.InternalServerError); return; }
            var code = new FaultCode("InternalServiceFault", InternalFaultNamespace);
            var fault = Message.CreateMessage(encoder.MessageVersion, MessageFault.CreateFault(code, InternalFaultReason), (string?)null);
            Write(context, fault, encoder);
        }

        /// <summary>The code's namespace and the text .NET Framework's dispatcher sends for an internal error without details.</summary>
        private const string InternalFaultNamespace = "http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher";
        private const string InternalFaultReason = "The server was unable to process the request due to an internal error.";

        private static bool IsSoap(MessageEncoder encoder) => encoder.MessageVersion.Envelope != EnvelopeVersion.None;

        /// <summary>A published document (the WSDL at ?wsdl, a schema at ?xsd=xsd0): XML, with a Content-Length, as WCF serves them.</summary>
        public static void Document(HttpListenerResponse response, byte[] document)
        {
            try
            {
                response.StatusCode = (int)HttpStatusCode.OK;
                response.ContentType = "text/xml; charset=UTF-8";
                response.ContentLength64 = document.Length;
                response.OutputStream.Write(document, 0, document.Length);
                response.Close();
            }
            catch (Exception)
            {
                Abort(response);
            }
        }

        /// <summary>413 before the body is read; the unread body stays on the socket, so the connection closes.</summary>
        public static void RefuseTooLarge(HttpListenerResponse response)
        {
            response.KeepAlive = false;
            Finish(response, HttpStatusCode.RequestEntityTooLarge);
        }

        public static void Finish(HttpListenerResponse response, HttpStatusCode status)
        {
            try
            {
                response.StatusCode = (int)status;
                response.ContentLength64 = 0;
                response.Close();
            }
            catch (Exception)
            {
                Abort(response);
            }
        }

        public static void Abort(HttpListenerResponse response)
        {
            try { response.Abort(); } catch (Exception) { }
        }

        private static bool Is(string name, string header) => string.Equals(name, header, StringComparison.OrdinalIgnoreCase);
    }
}
