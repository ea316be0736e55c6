using System.Text;

namespace Comparator.Drivers;

/// <summary>
/// The comparator's own HTTP/1.1 client on raw sockets: each request serialized once, responses read
/// through System.IO.Pipelines and parsed for Content-Length and chunked framing, every byte counted
/// on the socket both ways, every answer verified as it streams in (status, length, echo and json
/// bytes, or a scenario's rule), latency in an HDR histogram. No HttpClient machinery per request,
/// so its CPU per request is close to wrk's while it checks what wrk does not.
/// </summary>
public sealed class SocketDriver : ILoadDriver
{
    public const string DriverName = "socket";

    public string Name => DriverName;

    public string Description =>
        "closed-loop HTTP/1.1 on raw sockets in the comparator's own process (System.IO.Pipelines), one connection per worker, " +
        "every answer verified, bytes counted on each socket, latency in an HDR histogram; socket completions inline on the runtime's epoll thread " +
        "(the comparator's process only)";

    public string? CannotMeasure(LoadRequest request, bool keepAlive) => null;

    public bool HoldsRate => true;

    public IDriverSession Open(LoadRequest request, int concurrency, bool keepAlive, TimeSpan requestTimeout) =>
        new SocketSession(request, Serialize(request, keepAlive), concurrency, keepAlive, requestTimeout);

    /// <summary>The request's bytes, once: request line, Host, the request's headers, Content-Length where there is a body (or the method sends one), Connection: close without keep-alive.</summary>
    public static byte[] Serialize(LoadRequest request, bool keepAlive)
    {
        var head = new StringBuilder();
        head.Append(request.Method).Append(' ').Append(request.Url.PathAndQuery).Append(" HTTP/1.1\r\n");
        head.Append("Host: ").Append(request.Url.Authority).Append("\r\n");
        foreach (var (name, value) in request.Headers) head.Append(name).Append(": ").Append(value).Append("\r\n");
        var body = request.Body ?? Array.Empty<byte>();
        if (request.Body is not null || request.Method is "POST" or "PUT" or "PATCH")
            head.Append("Content-Length: ").Append(body.Length.ToString(CultureInfo.InvariantCulture)).Append("\r\n");
        if (!keepAlive) head.Append("Connection: close\r\n");
        head.Append("\r\n");
        var bytes = new List<byte>(Encoding.ASCII.GetBytes(head.ToString()));
        bytes.AddRange(body);
        return bytes.ToArray();
    }
}
