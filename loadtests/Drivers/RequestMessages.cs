using System.Net;
using System.Net.Http;

namespace Comparator.Drivers;

/// <summary>
/// One HttpRequestMessage from a method, URL, headers and body, for the httpclient driver (verify
/// sends the socket driver's bytes, <see cref="SocketDriver.Serialize"/>). HttpClient keeps content headers
/// (Content-Type, ...) apart from request headers; each header goes where HttpClient takes it.
/// </summary>
public static class RequestMessages
{
    public static HttpRequestMessage Build(string method, Uri url, IReadOnlyList<KeyValuePair<string, string>> headers, byte[]? body, bool keepAlive = true)
    {
        var message = new HttpRequestMessage(new HttpMethod(method), url) { Version = HttpVersion.Version11, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        if (body is not null) message.Content = new ByteArrayContent(body);
        foreach (var (name, value) in headers)
            if (!message.Headers.TryAddWithoutValidation(name, value))
            {
                message.Content ??= new ByteArrayContent(Array.Empty<byte>());
                message.Content.Headers.TryAddWithoutValidation(name, value);
            }
        if (!keepAlive) message.Headers.ConnectionClose = true;
        return message;
    }
}
