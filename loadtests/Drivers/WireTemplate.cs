using System.Buffers.Text;
using System.IO;
using System.Text;
using Comparator.Scenarios;

namespace Comparator.Drivers;

/// <summary>
/// The socket driver's request as it goes on the wire: request line, Host, the request's headers,
/// Content-Length where there is a body (or the method sends one), Connection: close without
/// keep-alive, then the body. Without {seq} or {uuid} it is one array (<see cref="Fixed"/>), built once
/// and sent as is for every request. With them it is literal byte runs and slots, written per request
/// into a connection's own buffer (<see cref="RequestWriter"/>): the digits of {seq}, a {uuid}, and the
/// Content-Length of the body as expanded then (a {seq} growing from 9 to 10 adds a byte).
/// </summary>
public sealed class WireTemplate
{
    private enum Part { Seq, Uuid, ContentLength }

    private readonly byte[][] _literals; // one more than _parts
    private readonly Part[] _parts;
    private readonly Template? _body;

    private WireTemplate(byte[][] literals, Part[] parts, Template? body)
    {
        _literals = literals;
        _parts = parts;
        _body = body;
        HasUuid = parts.Contains(Part.Uuid);
        MaxLength = literals.Sum(l => l.Length) + parts.Sum(p => p switch
        {
            Part.Seq => Template.SeqMaxLength,
            Part.Uuid => Template.UuidLength,
            _ => 10, // an int's digits
        });
    }

    /// <summary>The request's bytes when every request is the same; null when each is written afresh.</summary>
    public byte[]? Fixed => _parts.Length == 0 ? _literals[0] : null;

    /// <summary>Whether a request takes a fresh GUID (drawn only then).</summary>
    public bool HasUuid { get; }

    /// <summary>The most bytes one request takes: a connection's buffer.</summary>
    public int MaxLength { get; }

    public static WireTemplate For(LoadRequest request, bool keepAlive)
    {
        var parts = request.Variation ?? RequestParts.AsWritten(request.Url.PathAndQuery, request.Headers, request.Body);
        var builder = new Builder();
        builder.Head(request.Method + " ");
        builder.Head(parts.PathAndQuery);
        builder.Head(" HTTP/1.1\r\nHost: " + request.Url.Authority + "\r\n");
        foreach (var (name, value) in parts.Headers)
        {
            builder.Head(name + ": ");
            builder.Head(value);
            builder.Head("\r\n");
        }
        if (parts.Body is { } body && body.Varies) builder.Head("Content-Length: ", Part.ContentLength, "\r\n");
        else if (request.Body is not null || request.Method is "POST" or "PUT" or "PATCH")
            builder.Head("Content-Length: " + (parts.Body?.LiteralLength ?? 0).ToString(CultureInfo.InvariantCulture) + "\r\n");
        if (!keepAlive) builder.Head("Connection: close\r\n");
        builder.Head("\r\n");
        if (parts.Body is { } b) builder.Body(b);
        return builder.Build(parts.Body);
    }

    /// <summary>Writes the request numbered <paramref name="seq"/> with this <paramref name="uuid"/>; returns its length. Allocates nothing.</summary>
    public int Write(Span<byte> destination, long seq, Guid uuid)
    {
        Span<byte> seqText = stackalloc byte[Template.SeqMaxLength];
        Span<byte> uuidText = stackalloc byte[Template.UuidLength];
        var digits = Template.FormatSeq(seq, seqText);
        var uuidBytes = HasUuid ? Template.FormatUuid(uuid, uuidText) : default;
        var at = 0;
        for (var i = 0; i < _parts.Length; i++)
        {
            _literals[i].CopyTo(destination[at..]);
            at += _literals[i].Length;
            switch (_parts[i])
            {
                case Part.Seq:
                    seqText[..digits].CopyTo(destination[at..]);
                    at += digits;
                    break;
                case Part.Uuid:
                    uuidBytes.CopyTo(destination[at..]);
                    at += uuidBytes.Length;
                    break;
                default:
                    Utf8Formatter.TryFormat(_body!.Length(digits), destination[at..], out var written);
                    at += written;
                    break;
            }
        }
        _literals[^1].CopyTo(destination[at..]);
        return at + _literals[^1].Length;
    }

    /// <summary>The request numbered <paramref name="seq"/> with a fresh {uuid}, as a new array (verify's one request).</summary>
    public byte[] Expand(long seq)
    {
        if (Fixed is { } bytes) return bytes;
        var buffer = new byte[MaxLength];
        return buffer.AsSpan(0, Write(buffer, seq, Guid.NewGuid())).ToArray();
    }

    private sealed class Builder
    {
        private readonly List<byte[]> _literals = new();
        private readonly List<Part> _parts = new();
        private readonly MemoryStream _current = new();

        /// <summary>Head text, as ASCII (as the head has always been sent).</summary>
        public void Head(string text) => _current.Write(Encoding.ASCII.GetBytes(text));

        public void Head(string before, Part part, string after)
        {
            Head(before);
            Cut(part);
            Head(after);
        }

        /// <summary>A path or header value: each literal run as ASCII text, each slot in its place.</summary>
        public void Head(Template template) => Add(template, literal => Head(Encoding.UTF8.GetString(literal)));

        public void Body(Template template) => Add(template, literal => _current.Write(literal));

        private void Add(Template template, Action<byte[]> literal)
        {
            for (var i = 0; i < template.Slots.Count; i++)
            {
                literal(template.Literals[i]);
                Cut(template.Slots[i] == Slot.Seq ? Part.Seq : Part.Uuid);
            }
            literal(template.Literals[^1]);
        }

        private void Cut(Part part)
        {
            _literals.Add(_current.ToArray());
            _current.SetLength(0);
            _parts.Add(part);
        }

        public WireTemplate Build(Template? body)
        {
            _literals.Add(_current.ToArray());
            return new WireTemplate(_literals.ToArray(), _parts.ToArray(), body);
        }
    }
}

/// <summary>
/// One connection's requests when they vary: its own {seq} counter (1, 2, 3, ... on this connection
/// alone, so connections share no counter and never contend for one), its own generator for {uuid}
/// and its own buffer, reused for every request: nothing is allocated per request.
/// </summary>
public sealed class RequestWriter(WireTemplate template)
{
    private readonly byte[] _buffer = new byte[template.MaxLength];
    private readonly Random _random = new(); // seeded from the OS, one per connection: no lock, no system call per request
    private long _seq;

    /// <summary>The next request; valid until the next call (the connection sends it, and resends it after a reconnect, before asking again).</summary>
    public ReadOnlyMemory<byte> Next() =>
        new(_buffer, 0, template.Write(_buffer, ++_seq, template.HasUuid ? Template.RandomUuid(_random) : default));
}
