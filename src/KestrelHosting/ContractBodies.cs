using System;
using System.IO;
using System.Threading.Tasks;
using Comparator.Contracts;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace Comparator.KestrelHosting;

/// <summary>
/// The byte-level parts of the contract on an ASP.NET Core HttpContext, shared by every Kestrel
/// target so that their differences are the framework's, not these few lines'.
/// </summary>
public static class ContractBodies
{
    /// <summary>
    /// Answers 413 for a declared Content-Length over the limit before anything is allocated or
    /// streamed (once a streamed answer has started its status is fixed). A chunked request body
    /// over the limit is stopped by Kestrel itself on read.
    /// </summary>
    public static bool RefuseOversize(HttpContext context)
    {
        var limit = context.Features.Get<IHttpMaxRequestBodySizeFeature>()?.MaxRequestBodySize;
        if (!(context.Request.ContentLength > limit)) return false;
        context.Response.StatusCode = StatusCodes.Status413PayloadTooLarge;
        // The unread body stays on the socket, so Kestrel will close this connection; say so,
        // or a client that reuses it loses its next request.
        context.Response.Headers.Connection = "close";
        return true;
    }

    /// <summary>The whole request body; a body that ends before its Content-Length is a 400.</summary>
    public static async Task<byte[]> ReadAsync(HttpRequest request)
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

    /// <summary>200 with the bytes and an explicit Content-Length (never chunked).</summary>
    public static async Task WriteBufferedAsync(HttpResponse response, string contentType, byte[] body)
    {
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = contentType;
        response.ContentLength = body.Length;
        await response.Body.WriteAsync(body);
    }

    /// <summary>200, chunked: the request body copied to the response as it arrives.</summary>
    public static async Task StreamEchoAsync(HttpContext context)
    {
        var response = context.Response;
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = ContentTypes.Binary;
        await response.StartAsync(); // no Content-Length set, so Kestrel frames the body as chunked
        await context.Request.Body.CopyToAsync(response.Body, 16 * 1024);
    }
}
