using System.Buffers;
using System.Buffers.Text;
using System.IO;
using System.IO.Pipelines;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Comparator.Wire;

/// <summary>
/// The one reader of HTTP/1.1 responses in the comparator: the socket driver, both verifiers and the
/// tests read every answer through it, so they frame every answer alike. It reads from a
/// <see cref="PipeReader"/>: the head, then the body, handing every piece of the body to a sink as it
/// arrives (nothing is copied unless the sink copies it).
/// <para>The rules, after RFC 9112:</para>
/// <list type="bullet">
/// <item>Line ends: a line ends at LF, and one CR before it is dropped, in the status line, header
/// lines, chunk-size lines, after chunk data and in trailers alike (RFC 9112 §2.2 lets a recipient
/// take a bare LF as a line end; HttpClient, browsers and wrk's parser do, so an answer one client
/// reads is not a failure here). A CR elsewhere is part of the line.</item>
/// <item>No body (§6.3): the answer to a HEAD request (the request's method decides), and every 1xx,
/// 204 and 304, end at their head whatever Content-Length or Transfer-Encoding they carry. An interim
/// 1xx (100 Continue, 103 Early Hints; not 101) is skipped and the final answer read after it; 101 is
/// final and closes the connection (it no longer speaks HTTP/1.1).</item>
/// <item>Chunked: the last coding of Transfer-Encoding (all its field lines, comma lists, tokens
/// compared case-insensitively) is "chunked". Any Transfer-Encoding overrides Content-Length; one
/// whose last coding is not chunked runs until the server closes. Transfer-Encoding on an HTTP/1.0
/// answer is a framing error.</item>
/// <item>Content-Length: one or more field lines and list members, each 1*DIGIT, all the same value
/// that fits a long; anything else (empty, signed, spaced digits, differing values) is a bad
/// Content-Length, a framing error, wherever there is no Transfer-Encoding (on a
/// HEAD, 204 or 304 answer too: the field is then wrong, not merely unused).</item>
/// <item>Chunk sizes: 1 to 16 hexadecimal digits, as a long, at most <see cref="MaxChunkBytes"/>; chunk
/// extensions are ignored; trailer fields are read and dropped.</item>
/// <item>Neither Content-Length nor Transfer-Encoding: the body runs until the server closes.</item>
/// </list>
/// Malformed framing is a <see cref="InvalidDataException"/> whose message starts "framing: "; a
/// connection that ends early is an <see cref="EndOfStreamException"/>. Plain TCP only: an https
/// target would be read through the same reader over an SslStream (where the connection is opened:
/// <see cref="RawHttp.SendAsync"/> and the socket driver's connection).
/// </summary>
public static partial class ResponseReader
{
    /// <summary>The longest head (and trailer section) accepted: a server that sends more is not speaking HTTP to us.</summary>
    public const int MaxHeadBytes = 64 * 1024;

    /// <summary>The largest chunk accepted; a bigger size is a framing error, not a wait for bytes that will not come.</summary>
    public const long MaxChunkBytes = 1L << 30;

    /// <summary>The longest chunk-size line (size and extensions).</summary>
    private const int MaxChunkLineBytes = 4096;

    /// <summary>Interim 1xx answers skipped before the final one; more is a server that never answers.</summary>
    private const int MaxInterimAnswers = 8;

    /// <summary>An answer whose framing cannot be trusted: one line that says why. A failed response (or check), never a wait.</summary>
    public static InvalidDataException FramingError(string reason) => new("framing: " + reason);

    /// <summary>Whether an answer to this request method has no body, whatever its head says.</summary>
    public static bool BodilessMethod(string method) => method == "HEAD";

    /// <param name="method">the request's method: the answer to HEAD has no body</param>
    /// <param name="headers">when given, every field line of the final head is added to it (values trimmed, folded lines joined)</param>
    /// <returns>the final head, or null when the connection ended before any byte of it (a kept-alive connection the server closed)</returns>
    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
    public static async ValueTask<ResponseHead?> ReadHeadAsync(PipeReader reader, string method, CancellationToken cancellationToken,
        List<KeyValuePair<string, string>>? headers = null)
    {
        long headBytes = 0;
        var interim = 0;
        while (true)
        {
            var result = await reader.ReadAsync(cancellationToken);
            var buffer = result.Buffer;
            if (FindHeadEnd(buffer) is SequencePosition end)
            {
                var raw = buffer.Slice(0, end);
                headBytes += raw.Length;
                headers?.Clear();
                ResponseHead head;
                try { head = ParseHead(raw.IsSingleSegment ? raw.FirstSpan : raw.ToArray(), method, headers); }
                finally { reader.AdvanceTo(end); }
                if (head.Status is >= 100 and < 200 and not 101)
                {
                    if (++interim > MaxInterimAnswers) throw FramingError($"more than {MaxInterimAnswers} interim 1xx answers");
                    continue;
                }
                return head with { HeadBytes = headBytes };
            }
            if (buffer.Length > MaxHeadBytes) throw FramingError($"a response head over {MaxHeadBytes} bytes");
            if (result.IsCompleted)
            {
                var empty = buffer.IsEmpty;
                reader.AdvanceTo(buffer.End);
                if (empty && headBytes == 0) return null;
                throw new EndOfStreamException("the connection ended inside a response head");
            }
            reader.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    /// <summary>Where the head ends: just past the empty line after the status and field lines.</summary>
    private static SequencePosition? FindHeadEnd(in ReadOnlySequence<byte> buffer)
    {
        var sequence = new SequenceReader<byte>(buffer);
        while (sequence.TryAdvanceTo((byte)'\n'))
            if (sequence.IsNext((byte)'\n', advancePast: true) || sequence.IsNext("\r\n"u8, advancePast: true))
                return sequence.Position;
        return null;
    }

    /// <summary>Reads the body the head announced, piece by piece into <paramref name="sink"/>.</summary>
    /// <returns>the body's bytes on the wire, chunk framing and trailers included</returns>
    public static ValueTask<long> ReadBodyAsync<TSink>(PipeReader reader, ResponseHead head, TSink sink, CancellationToken cancellationToken) where TSink : IBodySink =>
        head.Framing switch
        {
            BodyFraming.Chunked => ReadChunkedAsync(reader, sink, cancellationToken),
            BodyFraming.ContentLength => ReadLengthAsync(reader, head.ContentLength!.Value, sink, cancellationToken),
            BodyFraming.UntilClose => ReadToEndAsync(reader, sink, cancellationToken),
            _ => ValueTask.FromResult(0L),
        };

    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<long> ReadLengthAsync<TSink>(PipeReader reader, long length, TSink sink, CancellationToken cancellationToken) where TSink : IBodySink
    {
        var remaining = length;
        while (remaining > 0)
        {
            var result = await reader.ReadAsync(cancellationToken);
            var buffer = result.Buffer;
            var take = buffer.Slice(0, Math.Min(remaining, buffer.Length));
            foreach (var segment in take) sink.Feed(segment.Span);
            remaining -= take.Length;
            reader.AdvanceTo(take.End);
            if (remaining > 0 && result.IsCompleted) throw new EndOfStreamException($"the connection ended {remaining} bytes before the end of a body of {length}");
        }
        return length;
    }

    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<long> ReadToEndAsync<TSink>(PipeReader reader, TSink sink, CancellationToken cancellationToken) where TSink : IBodySink
    {
        long read = 0;
        while (true)
        {
            var result = await reader.ReadAsync(cancellationToken);
            foreach (var segment in result.Buffer) sink.Feed(segment.Span);
            read += result.Buffer.Length;
            reader.AdvanceTo(result.Buffer.End);
            if (result.IsCompleted) return read;
        }
    }

    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<long> ReadChunkedAsync<TSink>(PipeReader reader, TSink sink, CancellationToken cancellationToken) where TSink : IBodySink
    {
        long wire = 0;
        while (true)
        {
            var (size, sizeLine) = await ReadLineAsync(reader, Line.ChunkSize, MaxChunkLineBytes, cancellationToken);
            wire += sizeLine;
            if (size == 0)
            {
                // Trailer fields, if any, then the empty line that ends the message.
                var trailers = 0L;
                while (true)
                {
                    var (length, bytes) = await ReadLineAsync(reader, Line.Length, MaxHeadBytes, cancellationToken);
                    wire += bytes;
                    if (length == 0) return wire;
                    if ((trailers += bytes) > MaxHeadBytes) throw FramingError($"trailer fields over {MaxHeadBytes} bytes");
                }
            }
            wire += await ReadLengthAsync(reader, size, sink, cancellationToken);
            var (rest, end) = await ReadLineAsync(reader, Line.Length, MaxChunkLineBytes, cancellationToken);
            if (rest != 0) throw FramingError("a chunk's data is not followed by a line end");
            wire += end;
        }
    }

    private enum Line { Length, ChunkSize }

    /// <returns>the line's parsed value (its length without the line end, or the chunk size) and its bytes on the wire</returns>
    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<(long Value, long Bytes)> ReadLineAsync(PipeReader reader, Line kind, int maxBytes, CancellationToken cancellationToken)
    {
        while (true)
        {
            var result = await reader.ReadAsync(cancellationToken);
            var sequence = new SequenceReader<byte>(result.Buffer);
            if (sequence.TryReadTo(out ReadOnlySequence<byte> line, (byte)'\n'))
            {
                var span = line.IsSingleSegment ? line.FirstSpan : line.ToArray();
                if (span.Length > 0 && span[^1] == (byte)'\r') span = span[..^1];
                long value;
                try { value = kind == Line.ChunkSize ? ParseChunkSize(span) : span.Length; }
                finally { reader.AdvanceTo(sequence.Position); }
                return (value, sequence.Consumed);
            }
            if (result.IsCompleted) throw new EndOfStreamException("the connection ended inside chunked framing");
            if (result.Buffer.Length > maxBytes) throw FramingError($"a line of chunked framing over {maxBytes} bytes");
            reader.AdvanceTo(result.Buffer.Start, result.Buffer.End);
        }
    }

    private static long ParseChunkSize(ReadOnlySpan<byte> line)
    {
        var semicolon = line.IndexOf((byte)';');
        var hex = (semicolon >= 0 ? line[..semicolon] : line).Trim(" \t"u8);
        if (hex.Length is 0 or > 16 || hex.IndexOfAnyExcept("0123456789abcdefABCDEF"u8) >= 0
            || !Utf8Parser.TryParse(hex, out ulong size, out _, 'x'))
            throw FramingError("a chunk size that is not 1 to 16 hexadecimal digits: " + Show(line));
        return size <= MaxChunkBytes ? (long)size : throw FramingError($"a chunk of {size} bytes, over the {MaxChunkBytes} accepted");
    }
}
