using System;
using System.IO;
using System.IO.Pipelines;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;
using Comparator.Wire;

namespace Comparator.Drivers;

/// <summary>One kept-alive connection: reconnects when the server closed it, and resends a request the server never began to answer on a reused connection.</summary>
internal sealed class SocketConnection : IDisposable
{
    private readonly DnsEndPoint _endpoint;
    private readonly ByteCounters _counters;
    private readonly AnswerMatcher _matcher;
    private Socket? _socket;
    private PipeReader? _reader;
    private long _exchanges;

    public SocketConnection(DnsEndPoint endpoint, ByteCounters counters, LoadRequest request)
    {
        _endpoint = endpoint;
        _counters = counters;
        _matcher = new AnswerMatcher(request);
    }

    public async ValueTask<SocketSession.Outcome> ExchangeAsync(byte[] request, bool keepAlive, CancellationToken cancellationToken)
    {
        try
        {
            for (var attempt = 0; ; attempt++)
            {
                var reused = _socket is not null && _exchanges > 0;
                if (_socket is null) await ConnectAsync(cancellationToken);
                await _socket!.SendAsync(request, SocketFlags.None, cancellationToken);
                _counters.AddSent(request.Length);
                var head = await ResponseReader.ReadHeadAsync(_reader!, cancellationToken);
                if (head is not ResponseHead h)
                {
                    // The server ended a kept-alive connection before this request reached it: not its answer to give.
                    Close();
                    if (reused && attempt == 0) continue;
                    return new SocketSession.Outcome(null, false, 0, "the server closed the connection without answering");
                }
                _matcher.Start(h.Status);
                await ResponseReader.ReadBodyAsync(_reader!, h, new Sink(_matcher), cancellationToken);
                _exchanges++;
                if (h.Close || !keepAlive || (h.ContentLength is null && !h.Chunked)) Close();
                var problem = _matcher.Finish(out var non2xx);
                return new SocketSession.Outcome(problem, non2xx, _matcher.Length, null);
            }
        }
        catch (OperationCanceledException)
        {
            Close(); // the connection is mid-answer: unusable
            return new SocketSession.Outcome(null, false, 0, null, Timeout: true);
        }
        catch (Exception e) when (e is SocketException or IOException or InvalidDataException or ObjectDisposedException)
        {
            Close();
            return new SocketSession.Outcome(null, false, 0, e.Message);
        }
    }

    private async ValueTask ConnectAsync(CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(_endpoint, cancellationToken);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
        _counters.AddConnection();
        _socket = socket;
        _exchanges = 0;
        _reader = PipeReader.Create(new CountingStream(new NetworkStream(socket, ownsSocket: true), _counters),
            new StreamPipeReaderOptions(bufferSize: 16 * 1024, minimumReadSize: 4 * 1024));
    }

    private void Close()
    {
        try { _reader?.Complete(); } catch (InvalidOperationException) { }
        _socket?.Dispose();
        _reader = null;
        _socket = null;
    }

    public void Dispose() => Close();

    private readonly struct Sink(AnswerMatcher matcher) : IBodySink
    {
        public void Feed(ReadOnlySpan<byte> piece) => matcher.Feed(piece);
    }
}
