using System.IO;
using System.IO.Pipelines;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;
using Comparator.Wire;

namespace Comparator.Drivers;

/// <summary>
/// One kept-alive connection: reconnects when the server closed it, and resends a request the server
/// never began to answer on a reused connection. No cancellation token rides on each send and receive
/// (registering one per operation costs more CPU than the exchange's own parsing): the session's
/// watchdog aborts a connection whose exchange outlived the timeout, or every one when the run stops.
/// An https target's connection is an SslStream over the counted stream (one handshake per connection);
/// a plain one sends on the socket itself, as fast as before TLS was known here.
/// </summary>
internal sealed class SocketConnection : IDisposable
{
    private readonly DnsEndPoint _endpoint;
    private readonly ByteCounters _counters;
    private readonly AnswerMatcher _matcher;
    private readonly string _method;
    private readonly Uri _url;
    private readonly bool _insecure;
    private Socket? _socket;
    private SslStream? _tls; // https only: what requests are written to
    private PipeReader? _reader;
    private long _exchanges;
    private long _inFlightSince; // Stopwatch timestamp of the exchange under way, 0 when idle
    private volatile bool _aborted;

    /// <summary>
    /// The requests the server serves on one connection before it closes it, where its Keep-Alive field announces it (Mono's HttpListener:
    /// 101, then Connection: close), else null. A window of whole multiples of it holds the same number of reconnects wherever it starts.
    /// </summary>
    public long? ServerLimit { get; private set; }

    public SocketConnection(DnsEndPoint endpoint, ByteCounters counters, LoadRequest request)
    {
        _endpoint = endpoint;
        _counters = counters;
        _matcher = new AnswerMatcher(request);
        _method = request.Method;
        _url = request.Url;
        _insecure = request.Insecure;
    }

    /// <summary>Aborts the exchange under way when it started more than <paramref name="limit"/> Stopwatch ticks before <paramref name="now"/>.</summary>
    public void AbortIfStuck(long now, long limit)
    {
        var since = Interlocked.Read(ref _inFlightSince);
        if (since != 0 && now - since > limit) Abort();
    }

    /// <summary>Ends the exchange under way (its socket is closed under it); the exchange then reports a timeout.</summary>
    public void Abort()
    {
        _aborted = true;
        try { _socket?.Dispose(); } catch (ObjectDisposedException) { }
    }

    // Pooled state machines: one exchange per request, allocation-free in the steady state.
    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<SocketSession.Outcome> ExchangeAsync(ReadOnlyMemory<byte> request, bool keepAlive)
    {
        Interlocked.Exchange(ref _inFlightSince, System.Diagnostics.Stopwatch.GetTimestamp());
        var cancellationToken = CancellationToken.None;
        try
        {
            for (var attempt = 0; ; attempt++)
            {
                var reused = _socket is not null && _exchanges > 0;
                if (_socket is null) await ConnectAsync(cancellationToken);
                if (_tls is not null) await _tls.WriteAsync(request, cancellationToken); // counted below the SslStream, as TLS records
                else
                {
                    await _socket!.SendAsync(request, SocketFlags.None, cancellationToken);
                    _counters.AddSent(request.Length);
                }
                var head = await ResponseReader.ReadHeadAsync(_reader!, _method, cancellationToken);
                if (head is not ResponseHead h)
                {
                    // The server ended a kept-alive connection before this request reached it: not its answer to give.
                    Close();
                    if (reused && attempt == 0) continue;
                    return new SocketSession.Outcome(null, false, 0, "the server closed the connection without answering");
                }
                if (h.KeepAliveMax is int more) ServerLimit = _exchanges + 1 + more;
                _matcher.Start(h.Status);
                await ResponseReader.ReadBodyAsync(_reader!, h, new Sink(_matcher), cancellationToken);
                _exchanges++;
                if (!h.KeepsConnection || !keepAlive) Close();
                var problem = _matcher.Finish(out var non2xx);
                return new SocketSession.Outcome(problem, non2xx, _matcher.Length, null);
            }
        }
        catch (Exception e) when (e is SocketException or IOException or InvalidDataException or ObjectDisposedException or OperationCanceledException or AuthenticationException)
        {
            Close(); // the connection is mid-answer: unusable
            if (!_aborted) return new SocketSession.Outcome(null, false, 0, e.Message);
            _aborted = false;
            return new SocketSession.Outcome(null, false, 0, null, Timeout: true);
        }
        finally
        {
            Interlocked.Exchange(ref _inFlightSince, 0);
        }
    }

    private async ValueTask ConnectAsync(CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        _socket = socket; // reachable by Abort while connecting
        try
        {
            await socket.ConnectAsync(_endpoint, cancellationToken);
        }
        catch
        {
            socket.Dispose();
            _socket = null;
            throw;
        }
        _counters.AddConnection();
        _socket = socket;
        _exchanges = 0;
        Stream stream = new CountingStream(new NetworkStream(socket, ownsSocket: true), _counters);
        if (Wire.TlsClient.IsHttps(_url))
        {
            // The SslStream over the CountingStream: the bytes counted stay the wire's, TLS records and handshake included.
            try
            {
                stream = _tls = await Wire.TlsClient.AuthenticateAsync(stream, _url, _insecure, cancellationToken);
            }
            catch
            {
                socket.Dispose();
                _socket = null;
                throw;
            }
            _counters.AddHandshake();
        }
        _reader = PipeReader.Create(stream, new StreamPipeReaderOptions(bufferSize: 16 * 1024, minimumReadSize: 4 * 1024));
    }

    private void Close()
    {
        try { _reader?.Complete(); } catch (InvalidOperationException) { }
        _socket?.Dispose();
        _tls?.Dispose();
        _reader = null;
        _tls = null;
        _socket = null;
    }

    public void Dispose() => Close();

    private readonly struct Sink(AnswerMatcher matcher) : IBodySink
    {
        public void Feed(ReadOnlySpan<byte> piece) => matcher.Feed(piece);
    }
}
