using System;
using System.Buffers;
using System.Buffers.Text;
using System.Text;
using System.IO;
using System.IO.Pipelines;
using System.Threading;
using System.Threading.Tasks;

namespace Comparator.Wire;

/// <summary>What a response's head says about the connection and the body that follows.</summary>
public readonly record struct ResponseHead(int Status, long? ContentLength, bool Chunked, bool Close);

/// <summary>
/// Reads HTTP/1.1 responses from a connection's <see cref="PipeReader"/>: the head, then a body
/// framed by Content-Length or chunked transfer coding, handing every piece of the body to a sink as
/// it arrives (nothing is copied unless the sink copies it). Malformed framing is an
/// <see cref="InvalidDataException"/>; a connection that ends early is an <see cref="EndOfStreamException"/>.
/// </summary>
public static class ResponseReader
{
    private static ReadOnlySpan<byte> HeadEnd => "\r\n\r\n"u8;
    private static ReadOnlySpan<byte> Crlf => "\r\n"u8;

    /// <summary>The longest head accepted: a server that sends more is not speaking HTTP to us.</summary>
    private const int MaxHeadBytes = 64 * 1024;

    /// <returns>the head, or null when the connection ended before any byte of it (a kept-alive connection the server closed)</returns>
    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
    public static async ValueTask<ResponseHead?> ReadHeadAsync(PipeReader reader, CancellationToken cancellationToken)
    {
        while (true)
        {
            var result = await reader.ReadAsync(cancellationToken);
            var buffer = result.Buffer;
            var sequence = new SequenceReader<byte>(buffer);
            if (sequence.TryReadTo(out ReadOnlySequence<byte> head, HeadEnd))
            {
                var parsed = ParseHead(head.IsSingleSegment ? head.FirstSpan : head.ToArray());
                reader.AdvanceTo(sequence.Position);
                return parsed;
            }
            if (buffer.Length > MaxHeadBytes) throw new InvalidDataException($"a response head over {MaxHeadBytes} bytes");
            if (result.IsCompleted)
            {
                var empty = buffer.IsEmpty;
                reader.AdvanceTo(buffer.End);
                if (empty) return null;
                throw new EndOfStreamException("the connection ended inside a response head");
            }
            reader.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    /// <summary>Reads the body the head announced, piece by piece into <paramref name="sink"/>.</summary>
    public static ValueTask ReadBodyAsync<TSink>(PipeReader reader, ResponseHead head, TSink sink, CancellationToken cancellationToken) where TSink : IBodySink =>
        head.Chunked ? ReadChunkedAsync(reader, sink, cancellationToken)
        : head.ContentLength is long length ? ReadLengthAsync(reader, length, sink, cancellationToken)
        : head.Status is 204 or 304 || head.Status < 200 ? ValueTask.CompletedTask
        : ReadToEndAsync(reader, sink, cancellationToken);

    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder))]
    private static async ValueTask ReadLengthAsync<TSink>(PipeReader reader, long remaining, TSink sink, CancellationToken cancellationToken) where TSink : IBodySink
    {
        while (remaining > 0)
        {
            var result = await reader.ReadAsync(cancellationToken);
            var buffer = result.Buffer;
            var take = buffer.Slice(0, Math.Min(remaining, buffer.Length));
            foreach (var segment in take) sink.Feed(segment.Span);
            remaining -= take.Length;
            reader.AdvanceTo(take.End);
            if (remaining > 0 && result.IsCompleted) throw new EndOfStreamException($"the connection ended {remaining} bytes before the body's Content-Length");
        }
    }

    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder))]
    private static async ValueTask ReadToEndAsync<TSink>(PipeReader reader, TSink sink, CancellationToken cancellationToken) where TSink : IBodySink
    {
        while (true)
        {
            var result = await reader.ReadAsync(cancellationToken);
            foreach (var segment in result.Buffer) sink.Feed(segment.Span);
            reader.AdvanceTo(result.Buffer.End);
            if (result.IsCompleted) return;
        }
    }

    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder))]
    private static async ValueTask ReadChunkedAsync<TSink>(PipeReader reader, TSink sink, CancellationToken cancellationToken) where TSink : IBodySink
    {
        while (true)
        {
            var size = await ReadLineAsync(reader, ParseChunkSize, cancellationToken);
            if (size == 0)
            {
                // Trailers, if any, then the empty line that ends the message.
                while (await ReadLineAsync(reader, line => (long)line.Length, cancellationToken) > 0) { }
                return;
            }
            await ReadLengthAsync(reader, size, sink, cancellationToken);
            if (await ReadLineAsync(reader, line => (long)line.Length, cancellationToken) != 0)
                throw new InvalidDataException("a chunk's data is not followed by CRLF");
        }
    }

    private delegate long LineParser(ReadOnlySpan<byte> line);

    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<long> ReadLineAsync(PipeReader reader, LineParser parse, CancellationToken cancellationToken)
    {
        while (true)
        {
            var result = await reader.ReadAsync(cancellationToken);
            var sequence = new SequenceReader<byte>(result.Buffer);
            if (sequence.TryReadTo(out ReadOnlySequence<byte> line, Crlf))
            {
                var value = parse(line.IsSingleSegment ? line.FirstSpan : line.ToArray());
                reader.AdvanceTo(sequence.Position);
                return value;
            }
            if (result.IsCompleted) throw new EndOfStreamException("the connection ended inside chunked framing");
            if (result.Buffer.Length > 4096) throw new InvalidDataException("a chunk-size line over 4096 bytes");
            reader.AdvanceTo(result.Buffer.Start, result.Buffer.End);
        }
    }

    private static long ParseChunkSize(ReadOnlySpan<byte> line)
    {
        var semicolon = line.IndexOf((byte)';');
        var hex = (semicolon >= 0 ? line[..semicolon] : line).Trim((byte)' ');
        return Utf8Parser.TryParse(hex, out long size, out var used, 'x') && used == hex.Length && size >= 0
            ? size
            : throw new InvalidDataException("a chunk size that is not hexadecimal");
    }

    /// <summary>Parses "HTTP/1.1 200 OK" and the header lines this client acts on.</summary>
    public static ResponseHead ParseHead(ReadOnlySpan<byte> head)
    {
        var lineEnd = head.IndexOf(Crlf);
        var statusLine = lineEnd >= 0 ? head[..lineEnd] : head;
        if (statusLine.Length < 12 || !statusLine.StartsWith("HTTP/1."u8) || !Utf8Parser.TryParse(statusLine.Slice(9, 3), out int status, out _))
            throw new InvalidDataException("not an HTTP/1.x status line");
        var http10 = statusLine[7] == (byte)'0';
        long? length = null;
        bool chunked = false, close = http10, keepAlive = false;
        var rest = lineEnd >= 0 ? head[(lineEnd + 2)..] : ReadOnlySpan<byte>.Empty;
        while (!rest.IsEmpty)
        {
            var end = rest.IndexOf(Crlf);
            var line = end >= 0 ? rest[..end] : rest;
            rest = end >= 0 ? rest[(end + 2)..] : ReadOnlySpan<byte>.Empty;
            var colon = line.IndexOf((byte)':');
            if (colon <= 0) continue;
            var name = line[..colon];
            var value = line[(colon + 1)..].Trim((byte)' ');
            if (Ascii.EqualsIgnoreCase(name, "Content-Length"u8))
                length = Utf8Parser.TryParse(value, out long n, out var used) && used == value.Length && n >= 0 ? n : throw new InvalidDataException("a bad Content-Length");
            else if (Ascii.EqualsIgnoreCase(name, "Transfer-Encoding"u8))
                chunked = ContainsToken(value, "chunked"u8);
            else if (Ascii.EqualsIgnoreCase(name, "Connection"u8))
            {
                close |= ContainsToken(value, "close"u8);
                keepAlive |= ContainsToken(value, "keep-alive"u8);
            }
        }
        if (http10 && keepAlive) close = false;
        return new ResponseHead(status, chunked ? null : length, chunked, close);
    }

    private static bool ContainsToken(ReadOnlySpan<byte> value, ReadOnlySpan<byte> token)
    {
        foreach (var range in value.Split((byte)','))
            if (Ascii.EqualsIgnoreCase(value[range].Trim((byte)' '), token)) return true;
        return false;
    }
}

/// <summary>Takes a body's pieces as they arrive (a struct or a sealed class, so the reader's calls need no virtual dispatch where it can).</summary>
public interface IBodySink
{
    void Feed(ReadOnlySpan<byte> piece);
}
