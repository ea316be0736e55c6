using System.Buffers.Text;
using System.IO;
using System.Text;

namespace Comparator.Wire;

/// <summary>The head's half of <see cref="ResponseReader"/>: a status line and field lines to a <see cref="ResponseHead"/>, by the rules on the reader.</summary>
public static partial class ResponseReader
{
    /// <summary>Parses a head (status line and field lines, with or without its empty last line) by the rules on the reader.</summary>
    /// <param name="method">the request's method</param>
    /// <param name="headers">when given, every field line is added to it</param>
    public static ResponseHead ParseHead(ReadOnlySpan<byte> head, string method, List<KeyValuePair<string, string>>? headers = null)
    {
        var rest = head;
        var statusLine = NextLine(ref rest);
        if (statusLine.Length < 12 || !statusLine.StartsWith("HTTP/1."u8) || statusLine[8] != (byte)' '
            || !char.IsAsciiDigit((char)statusLine[7])
            || statusLine[9..12].IndexOfAnyExceptInRange((byte)'0', (byte)'9') >= 0 || (statusLine.Length > 12 && statusLine[12] != (byte)' ')
            || statusLine[9] == (byte)'0')
            throw FramingError("not an HTTP/1.x status line: " + Show(statusLine));
        var status = (statusLine[9] - '0') * 100 + (statusLine[10] - '0') * 10 + (statusLine[11] - '0');
        var http10 = statusLine[7] == (byte)'0';

        long? length = null;
        var badLength = (string?)null;
        bool transferEncoding = false, chunked = false, close = http10, keepAlive = false;
        bool anyField = false, lastFraming = false;
        int? keepAliveMax = null;
        while (!rest.IsEmpty)
        {
            var line = NextLine(ref rest);
            if (line.IsEmpty) break;
            if (line[0] is (byte)' ' or (byte)'\t')
            {
                // obs-fold: the line continues the field above (RFC 9112 §5.2 has a recipient join it with a space).
                if (!anyField) throw FramingError("a folded line before any field");
                if (lastFraming) throw FramingError("a folded Content-Length, Transfer-Encoding or Connection field");
                if (headers is { Count: > 0 })
                    headers[^1] = new(headers[^1].Key, headers[^1].Value + " " + Encoding.Latin1.GetString(line.Trim(" \t"u8)));
                continue;
            }
            var colon = line.IndexOf((byte)':');
            if (colon <= 0) throw FramingError("a field line without a name and colon: " + Show(line));
            var name = line[..colon].TrimEnd(" \t"u8);
            var value = line[(colon + 1)..].Trim(" \t"u8);
            anyField = true;
            lastFraming = true; // unless the field is none of the three below
            headers?.Add(new(Encoding.ASCII.GetString(name), Encoding.Latin1.GetString(value)));
            if (Ascii.EqualsIgnoreCase(name, "Content-Length"u8))
            {
                foreach (var range in value.Split((byte)','))
                {
                    var digits = value[range].Trim(" \t"u8);
                    if (digits.IsEmpty || digits.IndexOfAnyExceptInRange((byte)'0', (byte)'9') >= 0
                        || !Utf8Parser.TryParse(digits, out long n, out _) || (length is long seen && seen != n))
                        badLength ??= Show(value);
                    else length = n;
                }
            }
            else if (Ascii.EqualsIgnoreCase(name, "Transfer-Encoding"u8))
            {
                transferEncoding = true;
                var last = LastToken(value);
                if (!last.IsEmpty) chunked = Ascii.EqualsIgnoreCase(last, "chunked"u8);
            }
            else if (Ascii.EqualsIgnoreCase(name, "Connection"u8))
            {
                close |= ContainsToken(value, "close"u8);
                keepAlive |= ContainsToken(value, "keep-alive"u8);
            }
            else
            {
                lastFraming = false;
                if (Ascii.EqualsIgnoreCase(name, "Keep-Alive"u8)) keepAliveMax = KeepAliveMax(value) ?? keepAliveMax;
            }
        }
        if (http10 && keepAlive) close = false;
        if (transferEncoding && http10) throw FramingError("Transfer-Encoding in an HTTP/1.0 answer");
        if (!transferEncoding && badLength is not null) throw FramingError("a bad Content-Length: " + badLength);
        if (transferEncoding) length = null;

        BodyFraming framing;
        if (BodilessMethod(method) || status < 200 || status is 204 or 304) framing = BodyFraming.None;
        else if (chunked) framing = BodyFraming.Chunked;
        else if (transferEncoding) framing = BodyFraming.UntilClose;
        else framing = length is null ? BodyFraming.UntilClose : BodyFraming.ContentLength;
        if (status == 101 || framing == BodyFraming.UntilClose) close = true;
        return new ResponseHead(status, framing, length, close) { KeepAliveMax = keepAliveMax };
    }

    /// <summary>The max parameter of a Keep-Alive field ("timeout=15, max=100", RFC 2068 §19.7.1.1): how many more requests the connection takes; null without one.</summary>
    private static int? KeepAliveMax(ReadOnlySpan<byte> value)
    {
        foreach (var range in value.Split((byte)','))
        {
            var parameter = value[range].Trim(" \t"u8);
            if (parameter.Length > 4 && Ascii.EqualsIgnoreCase(parameter[..4], "max="u8) && Utf8Parser.TryParse(parameter[4..], out int max, out var used)
                && used == parameter.Length - 4 && max >= 0)
                return max;
        }
        return null;
    }

    /// <summary>The next line of <paramref name="rest"/> without its line end (LF, one CR before it dropped).</summary>
    private static ReadOnlySpan<byte> NextLine(ref ReadOnlySpan<byte> rest)
    {
        var lf = rest.IndexOf((byte)'\n');
        var line = lf >= 0 ? rest[..lf] : rest;
        rest = lf >= 0 ? rest[(lf + 1)..] : ReadOnlySpan<byte>.Empty;
        return line.Length > 0 && line[^1] == (byte)'\r' ? line[..^1] : line;
    }

    private static ReadOnlySpan<byte> LastToken(ReadOnlySpan<byte> value)
    {
        var last = ReadOnlySpan<byte>.Empty;
        foreach (var range in value.Split((byte)','))
        {
            var token = value[range].Trim(" \t"u8);
            if (!token.IsEmpty) last = token;
        }
        return last;
    }

    private static bool ContainsToken(ReadOnlySpan<byte> value, ReadOnlySpan<byte> token)
    {
        foreach (var range in value.Split((byte)','))
            if (Ascii.EqualsIgnoreCase(value[range].Trim(" \t"u8), token)) return true;
        return false;
    }

    /// <summary>A line for an error message: printable ASCII, at most 60 characters.</summary>
    private static string Show(ReadOnlySpan<byte> line)
    {
        var text = new StringBuilder("'");
        foreach (var b in line[..Math.Min(line.Length, 60)]) text.Append(b is >= 0x20 and < 0x7f ? (char)b : '?');
        return text.Append(line.Length > 60 ? "…'" : "'").ToString();
    }
}
