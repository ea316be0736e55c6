using System;
using System.IO;
using System.Net;
using System.Text;
using System.Threading.Tasks;
using Comparator.Contracts;

namespace Comparator.HttpListenerService;

/// <summary>The contract on a bare HttpListener. Error answers carry no body, so no exception text can leak.</summary>
public sealed class ContractHandler
{
    /// <summary>
    /// .NET's managed HttpListener writes "Server: Microsoft-NetCore/2.0", and Mono's
    /// "Server: Mono-HTTPAPI/1.0", unless the response sets a Server header itself, and neither can be
    /// made to send none: the closest they get to "no Server header" is an empty one (8 bytes plus
    /// CRLF), which hides the stack. The target catalogue declares this, and the conformance suite checks it.
    /// </summary>
    private const string EmptyServerHeader = "";

    private readonly ServiceOptions _options;

    public ContractHandler(ServiceOptions options) => _options = options;

    public async Task HandleAsync(HttpListenerContext context)
    {
        var request = context.Request;
        var response = context.Response;
        if (!_options.ServerHeader) response.Headers.Set(HttpResponseHeader.Server, EmptyServerHeader);
        try
        {
            switch (request.Url?.AbsolutePath)
            {
                case Routes.Time when request.HttpMethod == "GET":
                    await WriteBufferedAsync(response, ContentTypes.Text, Encoding.UTF8.GetBytes(TimeText.Now()));
                    break;
                case Routes.Json when request.HttpMethod == "GET":
                    if (!JsonSample.TryParseItems(request.QueryString[Routes.JsonItemsParameter], out var items))
                        Finish(response, HttpStatusCode.BadRequest);
                    else
                        await WriteBufferedAsync(response, ContentTypes.Json, Encoding.UTF8.GetBytes(JsonSample.Serialize(JsonSample.Create(items))));
                    break;
                case Routes.Echo when request.HttpMethod == "POST":
                    if (RefuseOversize(request, response)) break;
                    await WriteBufferedAsync(response, ContentTypes.Binary, await ReadBodyAsync(request));
                    break;
                case Routes.StreamEcho when request.HttpMethod == "PUT":
                    if (RefuseOversize(request, response)) break;
                    response.StatusCode = 200;
                    response.ContentType = ContentTypes.Binary;
                    response.SendChunked = true;
                    // Stream.CopyTo's default buffer (81,920 bytes), as the framework targets copy: every
                    // write becomes a chunk, and on Mono's listener a write costs far more than its bytes.
                    await request.InputStream.CopyToAsync(response.OutputStream);
                    response.Close();
                    break;
                case Routes.Time:
                case Routes.Json:
                case Routes.Echo:
                case Routes.StreamEcho:
                    Finish(response, HttpStatusCode.MethodNotAllowed);
                    break;
                default:
                    Finish(response, HttpStatusCode.NotFound);
                    break;
            }
        }
        catch (Exception)
        {
            // A client that went away mid-request, or a body shorter than its Content-Length:
            // drop this connection, keep the service up.
            response.Abort();
        }
    }

    private bool RefuseOversize(HttpListenerRequest request, HttpListenerResponse response)
    {
        if (request.ContentLength64 <= _options.MaxBodyBytes) return false;
        // The unread body stays on the socket, so this connection cannot be reused.
        response.KeepAlive = false;
        Finish(response, HttpStatusCode.RequestEntityTooLarge);
        return true;
    }

    private static void Finish(HttpListenerResponse response, HttpStatusCode status)
    {
        response.StatusCode = (int)status;
        response.ContentLength64 = 0;
        response.Close();
    }

    private static async Task WriteBufferedAsync(HttpListenerResponse response, string contentType, byte[] body)
    {
        response.StatusCode = 200;
        response.ContentType = contentType;
        response.ContentLength64 = body.Length;
        await response.OutputStream.WriteAsync(body, 0, body.Length);
        response.Close();
    }

    private async Task<byte[]> ReadBodyAsync(HttpListenerRequest request)
    {
        using var buffer = request.ContentLength64 > 0 ? new MemoryStream((int)request.ContentLength64) : new MemoryStream();
        await request.InputStream.CopyToAsync(buffer);
        if (buffer.Length > _options.MaxBodyBytes) throw new InvalidDataException("chunked body over the limit");
        return buffer.ToArray();
    }
}
