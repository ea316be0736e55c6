namespace Comparator.Drivers;

/// <summary>
/// The comparator's own HTTP/1.1 client on raw sockets: each request serialized once (or, with {seq} or
/// {uuid}, written per request from a template into each connection's own buffer), responses read
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
        new SocketSession(request, WireTemplate.For(request, keepAlive), concurrency, keepAlive, requestTimeout);

    /// <summary>
    /// The request's bytes: request line, Host, the request's headers, Content-Length where there is a body (or the
    /// method sends one), Connection: close without keep-alive. A request that varies is its first on a connection
    /// (seq 1, or <paramref name="seq"/>) with a fresh {uuid}.
    /// </summary>
    public static byte[] Serialize(LoadRequest request, bool keepAlive, long seq = 1) => WireTemplate.For(request, keepAlive).Expand(seq);
}
