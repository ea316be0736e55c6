using System;
using System.Linq;
using System.Net.Http;
using System.Threading.Tasks;
using System.Web.Http;
using Comparator.KestrelHosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Extensions;

namespace Comparator.WebApiKestrelService;

/// <summary>
/// Hands an ASP.NET Core request to Web API 2's HttpServer as an HttpRequestMessage and writes the
/// HttpResponseMessage back, doing what Web API's OWIN adapter (HttpMessageHandlerAdapter) does:
/// the request body is streamed, not buffered; a response whose length is unknown is buffered to
/// get a Content-Length, except StreamContent and PushStreamContent, which go out chunked
/// (OwinBufferPolicySelector), as does a response marked Transfer-Encoding: chunked. Error details are off in the configuration, so no exception text
/// reaches the wire.
/// </summary>
public sealed class WebApiBridge
{
    private readonly HttpMessageInvoker _server;

    public WebApiBridge(HttpConfiguration configuration) =>
        _server = new HttpMessageInvoker(new HttpServer(configuration), disposeHandler: true);

    public async Task HandleAsync(HttpContext context)
    {
        // The body limit is the host's, as it is Katana's and HttpListener's for the webapi twin.
        if (ContractBodies.RefuseOversize(context)) return;
        using var request = ToRequestMessage(context.Request);
        using var response = await _server.SendAsync(request, context.RequestAborted);
        await WriteAsync(response, context.Response);
    }

    private static HttpRequestMessage ToRequestMessage(HttpRequest source)
    {
        var request = new HttpRequestMessage(new HttpMethod(source.Method), new Uri(source.GetEncodedUrl()))
        {
            Content = new StreamContent(source.Body),
        };
        foreach (var (name, values) in source.Headers)
        {
            if (!request.Headers.TryAddWithoutValidation(name, (string?[])values))
                request.Content.Headers.TryAddWithoutValidation(name, (string?[])values);
        }
        return request;
    }

    private static async Task WriteAsync(HttpResponseMessage source, HttpResponse response)
    {
        response.StatusCode = (int)source.StatusCode;
        foreach (var (name, values) in source.Headers)
        {
            if (string.Equals(name, "Transfer-Encoding", StringComparison.OrdinalIgnoreCase)) continue; // Kestrel frames the body itself
            response.Headers.Append(name, values.ToArray());
        }
        if (source.Content is not HttpContent content) return;

        if (content.Headers.ContentLength is null && !(content is StreamContent || content is PushStreamContent))
            await content.LoadIntoBufferAsync();
        foreach (var (name, values) in content.Headers)
        {
            if (string.Equals(name, "Content-Length", StringComparison.OrdinalIgnoreCase)) continue;
            response.Headers.Append(name, values.ToArray());
        }
        // A response that says it is chunked is sent chunked, whatever length its content could tell.
        if (source.Headers.TransferEncodingChunked != true && content.Headers.ContentLength is long length) response.ContentLength = length;
        else await response.StartAsync(); // headers out now, no length: chunked, even if no byte follows
        await content.CopyToAsync(response.Body);
    }
}
