using System.Net.Http;
using System.Net.Sockets;

namespace Comparator.Drivers;

/// <summary>
/// The in-process driver: HttpClient on SocketsHttpHandler, one connection per worker at most,
/// every connection's stream wrapped in a <see cref="Measuring.CountingStream"/> (under the handler's TLS
/// for an https target, so the TLS records are what it counts). It stands in for
/// NBomber, which is not in this machine's NuGet source; it is named "httpclient" in every output
/// so no figure is mistaken for NBomber's.
/// </summary>
public sealed class HttpClientDriver : ILoadDriver
{
    public const string DriverName = "httpclient";

    public string Name => DriverName;

    public string Description =>
        "closed-loop HttpClient (SocketsHttpHandler) in the comparator's own process, bytes counted on each socket; " +
        "stands in for NBomber, which is not in this machine's NuGet source";

    public string? CannotMeasure(LoadRequest request, bool keepAlive) => null;

    public IDriverSession Open(LoadRequest request, int concurrency, bool keepAlive, TimeSpan requestTimeout)
    {
        var counters = new Measuring.ByteCounters();
        var handler = new SocketsHttpHandler
        {
            MaxConnectionsPerServer = concurrency,
            UseCookies = false,
            UseProxy = false,
            AllowAutoRedirect = false,
            AutomaticDecompression = System.Net.DecompressionMethods.None,
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(5),
            // https: the handler's SslStream sits over the stream ConnectCallback gives, so bytes stay counted below TLS;
            // the validation runs once per handshake, where the handshakes are counted.
            SslOptions = new System.Net.Security.SslClientAuthenticationOptions
            {
                RemoteCertificateValidationCallback = (sender, certificate, chain, errors) =>
                {
                    var accepted = Wire.TlsClient.Validation(request.Insecure)(sender, certificate, chain, errors);
                    if (accepted) counters.AddHandshake();
                    return accepted;
                },
            },
            ConnectCallback = async (context, cancellationToken) =>
            {
                var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
                try
                {
                    await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
                    counters.AddConnection();
                    return new Measuring.CountingStream(new NetworkStream(socket, ownsSocket: true), counters);
                }
                catch
                {
                    socket.Dispose();
                    throw;
                }
            },
        };
        var client = new HttpClient(handler) { Timeout = requestTimeout };
        return new HttpClientSession(client, counters, request, concurrency, keepAlive);
    }
}
