using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace Comparator.Measuring;

/// <summary>Running totals of bytes read from and written to sockets, shared by every connection of a client.</summary>
public sealed class ByteCounters
{
    private long _received;
    private long _sent;
    private long _connections;
    private long _handshakes;

    public long Received => Interlocked.Read(ref _received);
    public long Sent => Interlocked.Read(ref _sent);

    /// <summary>Connections opened: more than the concurrency means the server (or keep-alive off) closed some.</summary>
    public long Connections => Interlocked.Read(ref _connections);

    /// <summary>TLS handshakes completed: one per connection opened to an https target.</summary>
    public long Handshakes => Interlocked.Read(ref _handshakes);

    internal void AddConnection() => Interlocked.Increment(ref _connections);
    internal void AddHandshake() => Interlocked.Increment(ref _handshakes);

    internal void AddReceived(int n) => Interlocked.Add(ref _received, n);
    internal void AddSent(int n) => Interlocked.Add(ref _sent, n);
}

/// <summary>
/// Wraps a connection's stream and counts every byte that crosses it, both ways: request and
/// response heads, bodies and chunk framing, exactly as they were on the socket. Under TLS it sits
/// below the SslStream, so what it counts are the TLS records, handshakes included.
/// </summary>
public sealed class CountingStream : Stream
{
    private readonly Stream _inner;
    private readonly ByteCounters _counters;

    public CountingStream(Stream inner, ByteCounters counters)
    {
        _inner = inner;
        _counters = counters;
    }

    public override bool CanRead => _inner.CanRead;
    public override bool CanSeek => false;
    public override bool CanWrite => _inner.CanWrite;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    public override int Read(byte[] buffer, int offset, int count) => Received(_inner.Read(buffer, offset, count));
    public override int Read(Span<byte> buffer) => Received(_inner.Read(buffer));
    // Pooled: the socket driver reads through here once per answer, and an allocation per read shows in its CPU per request.
    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        Received(await _inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false));
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Write(byte[] buffer, int offset, int count)
    {
        _inner.Write(buffer, offset, count);
        _counters.AddSent(count);
    }

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        _inner.Write(buffer);
        _counters.AddSent(buffer.Length);
    }

    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder))]
    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        await _inner.WriteAsync(buffer, cancellationToken).ConfigureAwait(false);
        _counters.AddSent(buffer.Length);
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Flush() => _inner.Flush();
    public override Task FlushAsync(CancellationToken cancellationToken) => _inner.FlushAsync(cancellationToken);
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing) _inner.Dispose();
        base.Dispose(disposing);
    }

    public override ValueTask DisposeAsync() => _inner.DisposeAsync();

    private int Received(int n)
    {
        _counters.AddReceived(n);
        return n;
    }
}
