using System.Buffers.Text;
using System.Text;

namespace Comparator.Scenarios;

/// <summary>What a slot of a <see cref="Template"/> is filled with on each request.</summary>
public enum Slot
{
    /// <summary>{seq}: the request's number on its connection, 1, 2, 3, ...</summary>
    Seq,

    /// <summary>{uuid}: a GUID drawn afresh for each request (the same one in every {uuid} of that request).</summary>
    Uuid,
}

/// <summary>
/// A path, header value or body as it is sent: literal bytes with {seq} and {uuid} slots between
/// them ({env:NAME} is already written into the literals, read once at start). Literals has one more
/// entry than Slots: Literals[0] Slots[0] Literals[1] ... Literals[^1]. Without slots it is one fixed
/// array, which every driver sends as it sends a request without placeholders.
/// </summary>
public sealed class Template
{
    /// <summary>The most bytes a {seq} takes (a long's digits).</summary>
    public const int SeqMaxLength = 19;

    /// <summary>The bytes a {uuid} takes: 8-4-4-4-12 hex digits.</summary>
    public const int UuidLength = 36;

    public Template(IReadOnlyList<byte[]> literals, IReadOnlyList<Slot> slots)
    {
        if (literals.Count != slots.Count + 1) throw new ArgumentException("a template has one more literal than slots", nameof(literals));
        Literals = literals;
        Slots = slots;
        LiteralLength = literals.Sum(l => l.Length);
        SeqCount = slots.Count(s => s == Slot.Seq);
    }

    public static Template Fixed(byte[] bytes) => new(new[] { bytes }, Array.Empty<Slot>());

    public static Template Fixed(string text) => Fixed(Encoding.UTF8.GetBytes(text));

    public IReadOnlyList<byte[]> Literals { get; }
    public IReadOnlyList<Slot> Slots { get; }
    public int LiteralLength { get; }
    public int SeqCount { get; }
    public bool Varies => Slots.Count > 0;

    /// <summary>The bytes this template takes with a {seq} of <paramref name="seqDigits"/> digits.</summary>
    public int Length(int seqDigits) => LiteralLength + SeqCount * seqDigits + (Slots.Count - SeqCount) * UuidLength;

    /// <summary>Writes the template with the request's {seq} and {uuid} text (formatted once per request by the caller); returns the bytes written.</summary>
    public int Write(Span<byte> destination, ReadOnlySpan<byte> seq, ReadOnlySpan<byte> uuid)
    {
        var at = 0;
        for (var i = 0; i < Slots.Count; i++)
        {
            Literals[i].CopyTo(destination[at..]);
            at += Literals[i].Length;
            var value = Slots[i] == Slot.Seq ? seq : uuid;
            value.CopyTo(destination[at..]);
            at += value.Length;
        }
        Literals[^1].CopyTo(destination[at..]);
        return at + Literals[^1].Length;
    }

    /// <summary>The template with these values, as a new array (verify, and the httpclient driver, which allocates a message per request anyway).</summary>
    public byte[] Expand(long seq, Guid uuid)
    {
        if (!Varies) return Literals[0];
        Span<byte> seqText = stackalloc byte[SeqMaxLength];
        Span<byte> uuidText = stackalloc byte[UuidLength];
        var digits = FormatSeq(seq, seqText);
        var bytes = new byte[Length(digits)];
        Write(bytes, seqText[..digits], FormatUuid(uuid, uuidText));
        return bytes;
    }

    /// <summary>The template with these values, as text (a path, a header value).</summary>
    public string ExpandText(long seq, Guid uuid) => Encoding.UTF8.GetString(Expand(seq, uuid));

    /// <summary>Writes a {seq} value as digits; returns how many.</summary>
    public static int FormatSeq(long seq, Span<byte> destination) =>
        Utf8Formatter.TryFormat(seq, destination, out var written) ? written : throw new ArgumentException("no room for a {seq}", nameof(destination));

    /// <summary>
    /// A random (version 4) GUID from the caller's own generator: a connection's Random, seeded from the OS
    /// once, draws one in nanoseconds, where Guid.NewGuid asks the OS every time (2.5 µs a call on this machine).
    /// </summary>
    public static Guid RandomUuid(Random random)
    {
        Span<byte> bytes = stackalloc byte[16];
        random.NextBytes(bytes);
        bytes[7] = (byte)((bytes[7] & 0x0F) | 0x40); // the version, 4, in the third group's first digit
        bytes[8] = (byte)((bytes[8] & 0x3F) | 0x80); // the RFC 4122 variant
        return new Guid(bytes);
    }

    /// <summary>Writes a {uuid} value (lower-case hex, with hyphens) and returns the bytes written.</summary>
    public static ReadOnlySpan<byte> FormatUuid(Guid uuid, Span<byte> destination) =>
        uuid.TryFormat(destination, out var written, "D") ? destination[..written] : throw new ArgumentException("no room for a {uuid}", nameof(destination));
}

/// <summary>
/// A scenario request as it is sent: the path (with its query), the header values and the body, each
/// with {env:NAME} written in and {seq}, {uuid} as slots. The request's own fields (path, headers as
/// written) are what reports show, so a token read from the environment never reaches a report.
/// </summary>
public sealed record RequestParts(Template PathAndQuery, IReadOnlyList<KeyValuePair<string, Template>> Headers, Template? Body)
{
    /// <summary>The request as written, nothing to expand (a request built without the parser).</summary>
    public static RequestParts AsWritten(string pathAndQuery, IReadOnlyList<KeyValuePair<string, string>> headers, byte[]? body) =>
        new(Template.Fixed(pathAndQuery), headers.Select(h => new KeyValuePair<string, Template>(h.Key, Template.Fixed(h.Value))).ToList(), body is null ? null : Template.Fixed(body));

    /// <summary>Whether any request differs from the one before ({seq} or {uuid} somewhere).</summary>
    public bool Varies => PathAndQuery.Varies || Body?.Varies == true || Headers.Any(h => h.Value.Varies);

    /// <summary>"{seq} in the path and the body; {uuid} in header X-Request-Id": what varies and where; null when nothing does.</summary>
    public string? Describe()
    {
        string? Where(Slot slot)
        {
            var places = new List<string>();
            if (PathAndQuery.Slots.Contains(slot)) places.Add("the path");
            places.AddRange(Headers.Where(h => h.Value.Slots.Contains(slot)).Select(h => "header " + h.Key));
            if (Body?.Slots.Contains(slot) == true) places.Add("the body");
            return places.Count == 0 ? null : $"{{{slot.ToString().ToLowerInvariant()}}} in " + string.Join(" and ", places);
        }
        var text = string.Join("; ", new[] { Where(Slot.Seq), Where(Slot.Uuid) }.OfType<string>());
        return text.Length == 0 ? null : text;
    }

    /// <summary>One request with these values: its path, headers and body.</summary>
    public (string PathAndQuery, IReadOnlyList<KeyValuePair<string, string>> Headers, byte[]? Body) Expand(long seq, Guid uuid) =>
        (PathAndQuery.ExpandText(seq, uuid), Headers.Select(h => new KeyValuePair<string, string>(h.Key, h.Value.ExpandText(seq, uuid))).ToList(), Body?.Expand(seq, uuid));
}
