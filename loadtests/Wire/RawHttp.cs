using System.Buffers;
using System.IO;
using System.IO.Pipelines;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;

namespace Comparator.Wire;

/// <summary>
/// HTTP/1.1 over a plain socket (TLS in between for an https target, <see cref="TlsClient"/>), nothing else: the request bytes are exactly the ones
/// built here (the same for every target but the Host header), and the answer is read and de-framed
/// by <see cref="ResponseReader"/>, the reader the socket driver uses under load, so Content-Length
/// and chunk framing are seen as they are on the wire and judged by the same rules.
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

    /// <summary>
    /// Opens a connection, sends the request, reads one answer through <see cref="ResponseReader"/>
    /// (the method in the request line decides whether it may have a body), closes. Malformed framing
    /// is an <see cref="InvalidDataException"/> ("framing: ..."); an answer cut short an <see cref="IOException"/>;
    /// an https target's certificate that does not validate (without <paramref name="insecure"/>) an <see cref="UntrustedCertificateException"/>.
    /// </summary>
    public static async Task<RawResponse> SendAsync(Uri baseUrl, byte[] request, TimeSpan timeout, CancellationToken cancellationToken = default,
        bool insecure = false)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        using var client = new TcpClient { NoDelay = true };
        try
        {
            await client.ConnectAsync(baseUrl.Host, baseUrl.Port, deadline.Token);
            // An https target's bytes go through TLS; writing and reading stay as they are.
            await using var tls = TlsClient.IsHttps(baseUrl) ? await TlsClient.AuthenticateAsync(client.GetStream(), baseUrl, insecure, deadline.Token) : null;
            Stream stream = tls ?? (Stream)client.GetStream();
            await stream.WriteAsync(request, deadline.Token);
            return await ReadResponseAsync(stream, RequestMethod(request), deadline.Token);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutException($"no complete response from {baseUrl} within {timeout.TotalSeconds:0.#} s");
        }
    }

    /// <summary>The method of a request, from its request line.</summary>
    public static string RequestMethod(byte[] request)
    {
        var space = Array.IndexOf(request, (byte)' ');
        return space > 0 ? Encoding.ASCII.GetString(request, 0, space) : throw new ArgumentException("a request without a request line", nameof(request));
    }

    /// <summary>Reads one answer to a request of <paramref name="method"/> from a stream, whole, through <see cref="ResponseReader"/>.</summary>
    public static async Task<RawResponse> ReadResponseAsync(Stream stream, string method, CancellationToken cancellationToken)
    {
        var reader = PipeReader.Create(stream, new StreamPipeReaderOptions(leaveOpen: true));
        try
        {
            var headers = new List<KeyValuePair<string, string>>();
            var head = await ResponseReader.ReadHeadAsync(reader, method, cancellationToken, headers)
                       ?? throw new EndOfStreamException("the connection closed before a status line");
            var body = new BodyCollector();
            var bodyBytes = await ResponseReader.ReadBodyAsync(reader, head, body, cancellationToken);
            return new RawResponse(head, headers, body.Bytes.WrittenSpan.ToArray(), head.HeadBytes + bodyBytes);
        }
        finally
        {
            await reader.CompleteAsync();
        }
    }

    /// <summary>Keeps a whole body, for checks that need all of it.</summary>
    private sealed class BodyCollector : IBodySink
    {
        public readonly ArrayBufferWriter<byte> Bytes = new();

        public void Feed(ReadOnlySpan<byte> piece)
        {
            if (Bytes.WrittenCount + (long)piece.Length > Array.MaxLength) throw new InvalidDataException($"a body over {Array.MaxLength} bytes: too long to keep for checking");
            Bytes.Write(piece);
        }
    }
}
