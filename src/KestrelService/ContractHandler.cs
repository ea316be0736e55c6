using System;
using System.IO;
using System.Text;
using System.Threading.Tasks;
using Comparator.Contracts;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace Comparator.KestrelService;

/// <summary>
/// The contract as one request delegate: no routing, no MVC, no middleware. Error answers carry
/// no body, so no exception text can leak.
/// </summary>
public static class ContractHandler
{
    public static async Task HandleAsync(HttpContext context)
    {
        var request = context.Request;
        var response = context.Response;
        try
        {
            switch (request.Path.Value)
            {
                case Routes.Time when HttpMethods.IsGet(request.Method):
                    await WriteBufferedAsync(response, ContentTypes.Text, Encoding.UTF8.GetBytes(TimeText.Now()));
                    return;
                case Routes.Json when HttpMethods.IsGet(request.Method):
                    var raw = request.Query[Routes.JsonItemsParameter];
                    if (!JsonSample.TryParseItems(raw.Count == 0 ? null : raw[0], out var items))
                    {
                        response.StatusCode = StatusCodes.Status400BadRequest;
                        return;
                    }
                    await WriteBufferedAsync(response, ContentTypes.Json, Encoding.UTF8.GetBytes(JsonSample.Serialize(JsonSample.Create(items))));
                    return;
                case Routes.Echo when HttpMethods.IsPost(request.Method):
                    if (RefuseOversize(context)) return;
                    await WriteBufferedAsync(response, ContentTypes.Binary, await ReadBodyAsync(request));
                    return;
                case Routes.StreamEcho when HttpMethods.IsPut(request.Method):
                    if (RefuseOversize(context)) return;
                    await StreamEchoAsync(context);
                    return;
                case Routes.Time:
                case Routes.Json:
                case Routes.Echo:
                case Routes.StreamEcho:
                    response.StatusCode = StatusCodes.Status405MethodNotAllowed;
                    return;
                default:
                    response.StatusCode = StatusCodes.Status404NotFound;
                    return;
            }
        }
        catch (BadHttpRequestException e) when (!response.HasStarted)
        {
            // Kestrel's own verdict on the request, e.g. 413 when the body passes MaxRequestBodySize.
            response.StatusCode = e.StatusCode;
        }
    }

    private static async Task WriteBufferedAsync(HttpResponse response, string contentType, byte[] body)
    {
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = contentType;
        response.ContentLength = body.Length;
        await response.Body.WriteAsync(body);
    }

    private static async Task<byte[]> ReadBodyAsync(HttpRequest request)
    {
        if (request.ContentLength is long length)
        {
            var body = new byte[length];
            var read = 0;
            while (read < body.Length)
            {
                var n = await request.Body.ReadAsync(body.AsMemory(read));
                if (n == 0) throw new BadHttpRequestException("body shorter than Content-Length", StatusCodes.Status400BadRequest);
                read += n;
            }
            return body;
        }
        using var buffer = new MemoryStream();
        await request.Body.CopyToAsync(buffer);
        return buffer.ToArray();
    }

    /// <summary>
    /// Answers 413 for a declared Content-Length over the limit before anything is allocated or
    /// streamed (once a streamed answer has started its status is fixed). A chunked request body
    /// over the limit is stopped by Kestrel itself on read.
    /// </summary>
    private static bool RefuseOversize(HttpContext context)
    {
        var limit = context.Features.Get<IHttpMaxRequestBodySizeFeature>()?.MaxRequestBodySize;
        if (!(context.Request.ContentLength > limit)) return false;
        context.Response.StatusCode = StatusCodes.Status413PayloadTooLarge;
        // The unread body stays on the socket, so Kestrel will close this connection; say so,
        // or a client that reuses it loses its next request.
        context.Response.Headers.Connection = "close";
        return true;
    }

    private static async Task StreamEchoAsync(HttpContext context)
    {
        var request = context.Request;
        var response = context.Response;
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = ContentTypes.Binary;
        await response.StartAsync(); // no Content-Length set, so Kestrel frames the body as chunked
        await request.Body.CopyToAsync(response.Body, 16 * 1024);
    }
}
