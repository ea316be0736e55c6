using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;

namespace Comparator.Wire;

/// <summary>
/// HTTP/1.1 over a plain socket, with nothing in between: the request bytes are exactly the ones
/// built here (the same for every target but the Host header), and the response is read and
/// de-framed by hand, so Content-Length and chunk framing are seen as they are on the wire.
/// </summary>
public static class RawHttp
{
    /// <summary>The request for one endpoint of the contract, byte for byte.</summary>
    public static byte[] BuildRequest(EndpointSpec endpoint, Uri baseUrl, string query, byte[]? body) =>
        BuildRequest(endpoint.Method, endpoint.Path + query, baseUrl, endpoint.SendsBody ? body ?? Array.Empty<byte>() : null);

    /// <summary>A request; a non-null body is sent with Content-Length, never chunked.</summary>
    public static byte[] BuildRequest(string method, string pathAndQuery, Uri baseUrl, byte[]? body, IEnumerable<string>? extraHeaderLines = null)
    {
        var head = new StringBuilder();
        head.Append(method).Append(' ').Append(pathAndQuery).Append(" HTTP/1.1\r\n");
        head.Append("Host: ").Append(baseUrl.Authority).Append("\r\n");
        if (body != null)
        {
            head.Append("Content-Type: ").Append(ContentTypes.Binary).Append("\r\n");
            head.Append("Content-Length: ").Append(body.Length.ToString(CultureInfo.InvariantCulture)).Append("\r\n");
        }
        if (extraHeaderLines != null)
            foreach (var line in extraHeaderLines) head.Append(line).Append("\r\n");
        head.Append("\r\n");
        var headBytes = Encoding.ASCII.GetBytes(head.ToString());
        if (body == null || body.Length == 0) return headBytes;
        var all = new byte[headBytes.Length + body.Length];
        headBytes.CopyTo(all, 0);
        body.CopyTo(all, headBytes.Length);
        return all;
    }

    /// <summary>Opens a connection, sends the request, reads one response, closes.</summary>
    public static async Task<RawResponse> SendAsync(Uri baseUrl, byte[] request, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        using var client = new TcpClient { NoDelay = true };
        try
        {
            await client.ConnectAsync(baseUrl.Host, baseUrl.Port, deadline.Token);
            var stream = client.GetStream();
            await stream.WriteAsync(request, deadline.Token);
            return await ReadResponseAsync(stream, deadline.Token);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutException($"no complete response from {baseUrl} within {timeout.TotalSeconds:0.#} s");
        }
    }

    /// <summary>Reads one HTTP/1.1 response from a stream and de-frames its body.</summary>
    public static async Task<RawResponse> ReadResponseAsync(Stream stream, CancellationToken cancellationToken)
    {
        var reader = new ByteReader(stream);
        var statusLine = await reader.ReadLineAsync(cancellationToken) ?? throw new IOException("connection closed before a status line");
        var parts = statusLine.Split(' ', 3);
        if (parts.Length < 2 || !parts[0].StartsWith("HTTP/1.", StringComparison.Ordinal) || !int.TryParse(parts[1], out var status))
            throw new IOException("not an HTTP/1.x status line: " + statusLine);

        var headers = new List<KeyValuePair<string, string>>();
        while (true)
        {
            var line = await reader.ReadLineAsync(cancellationToken) ?? throw new IOException("connection closed inside the headers");
            if (line.Length == 0) break;
            var colon = line.IndexOf(':');
            if (colon <= 0) throw new IOException("malformed header line: " + line);
            headers.Add(new(line[..colon].Trim(), line[(colon + 1)..].Trim()));
        }
        var headBytes = reader.Consumed;
        var response = new RawResponse(status, headers, Array.Empty<byte>(), headBytes, headBytes);

        byte[] body;
        if (status is (>= 100 and < 200) or 204 or 304) body = Array.Empty<byte>();
        else if (response.IsChunked) body = await ReadChunkedAsync(reader, cancellationToken);
        else if (response.ContentLength is long length) body = await reader.ReadExactlyAsync(checked((int)length), cancellationToken);
        else body = await reader.ReadToEndAsync(cancellationToken);
        return response with { Body = body, WireBytes = reader.Consumed };
    }

    private static async Task<byte[]> ReadChunkedAsync(ByteReader reader, CancellationToken cancellationToken)
    {
        using var body = new MemoryStream();
        while (true)
        {
            var sizeLine = await reader.ReadLineAsync(cancellationToken) ?? throw new IOException("connection closed inside a chunked body");
            var semicolon = sizeLine.IndexOf(';');
            var hex = semicolon >= 0 ? sizeLine[..semicolon] : sizeLine;
            if (!int.TryParse(hex.Trim(), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var size) || size < 0)
                throw new IOException("bad chunk size line: " + sizeLine);
            if (size == 0)
            {
                while ((await reader.ReadLineAsync(cancellationToken) ?? "").Length > 0) { } // trailers, then the empty line
                return body.ToArray();
            }
            body.Write(await reader.ReadExactlyAsync(size, cancellationToken));
            if ((await reader.ReadLineAsync(cancellationToken)) != "") throw new IOException("chunk not followed by CRLF");
        }
    }
}
