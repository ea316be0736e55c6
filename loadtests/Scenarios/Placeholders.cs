using System.IO;
using System.Text;
using System.Text.RegularExpressions;

namespace Comparator.Scenarios;

/// <summary>
/// The placeholders of a scenario request, in its path (and query), header values and body file's
/// contents: {seq} (the request's number on its connection), {uuid} (a fresh GUID per request) and
/// {env:NAME} (an environment variable, read once when the file is read, so it costs nothing per
/// request). A path and a header value are the file's own text, so there any {name} must be one of
/// them (a typo such as {sequence} is refused) and a '{name' left open is an error. A body is the
/// service's data, full of braces (JSON) and of '{abc}' by chance (the random payloads have them), so
/// there only a closed {name} whose name starts like a placeholder's (seq, uuid, guid, env, size, in
/// any case) is read: a known one is expanded, any other refused; the rest is the body's own text.
/// </summary>
public static class Placeholders
{
    public const string Known = "{seq}, {uuid}, {env:NAME}";

    private static readonly string[] Lookalikes = { "seq", "uuid", "guid", "env", "size" };

    private static readonly Regex VariableName = new("^[A-Za-z_][A-Za-z0-9_]*$", RegexOptions.Compiled);

    /// <summary>Reads each environment variable once for a whole file (a file with sizes asks for it once per size).</summary>
    public static Func<string, string?> OnceEach()
    {
        var read = new Dictionary<string, string?>(StringComparer.Ordinal);
        return name => read.TryGetValue(name, out var value) ? value : read[name] = Environment.GetEnvironmentVariable(name);
    }

    /// <summary>Where a request's text sits in its file and which operation it is, for the one line an error gets.</summary>
    /// <param name="Error">makes the one-line error for a field (a JSON path) and what is wrong there</param>
    public sealed record Site(string Operation, string At, Func<string, string, ScenarioException> Error, Func<string, string?> Environment);

    /// <summary>A request's path, header values and body, each read for placeholders.</summary>
    public static RequestParts Parts(Site site, string path, IReadOnlyList<KeyValuePair<string, string>> headers, byte[]? body)
    {
        var pathTemplate = Path(site, path);
        var headerTemplates = new List<KeyValuePair<string, Template>>();
        foreach (var (name, value) in headers)
        {
            var at = $"{site.At}.headers.{name}";
            var template = Read(site, at, Encoding.UTF8.GetBytes(value), strict: true);
            if (template.Literals.Any(l => l.AsSpan().IndexOfAny((byte)'\r', (byte)'\n') >= 0))
                throw site.Error(at, "an environment variable written here has a line break, which a header value cannot hold");
            headerTemplates.Add(new(name, template));
        }
        return new RequestParts(pathTemplate, headerTemplates, body is null ? null : Read(site, site.At + ".body", body, strict: false));
    }

    /// <summary>
    /// The path as the drivers send it: read for placeholders, then normalized as a URL is (escapes,
    /// dot segments), the slots kept in place through markers no normalization changes.
    /// </summary>
    private static Template Path(Site site, string path)
    {
        var at = site.At + ".path";
        var template = Read(site, at, Encoding.UTF8.GetBytes(path), strict: true);
        var nonce = Guid.NewGuid().ToString("N");
        var markers = template.Slots.Select((_, i) => $"slot{i}x{nonce}").ToArray();
        var marked = new StringBuilder(Encoding.UTF8.GetString(template.Literals[0]));
        for (var i = 0; i < markers.Length; i++) marked.Append(markers[i]).Append(Encoding.UTF8.GetString(template.Literals[i + 1]));
        if (!Uri.TryCreate("http://h" + marked, UriKind.Absolute, out var uri) || uri.PathAndQuery.Length == 0)
            throw site.Error(at, $"with its environment variables written in, '{path}' is not a path with an optional query");
        var pieces = uri.PathAndQuery.Split(markers, StringSplitOptions.None);
        if (pieces.Length != markers.Length + 1)
            throw site.Error(at, $"a placeholder of '{path}' is lost when the path is normalized (a '..' segment after it?)");
        return new Template(pieces.Select(p => Encoding.UTF8.GetBytes(p)).ToArray(), template.Slots);
    }

    /// <summary>Reads text for placeholders; <paramref name="strict"/> for the file's own text (paths, header values), not for bodies.</summary>
    public static Template Read(Site site, string at, ReadOnlySpan<byte> text, bool strict)
    {
        var literals = new List<byte[]>();
        var slots = new List<Slot>();
        var literal = new MemoryStream();
        var from = 0; // the start of literal text not yet copied
        var i = 0;
        while (text[i..].IndexOf((byte)'{') is var next && next >= 0)
        {
            var open = i + next;
            i = open + 1;
            var nameEnd = i;
            while (nameEnd < text.Length && IsNameByte(text[nameEnd], first: nameEnd == i)) nameEnd++;
            if (nameEnd == i) continue; // '{"id":...', '{}', '{ ': the text's own brace
            var name = Encoding.ASCII.GetString(text[i..nameEnd]);
            var close = nameEnd < text.Length && text[nameEnd] == '}' ? nameEnd : -1;
            string? argument = null;
            if (nameEnd < text.Length && text[nameEnd] == ':')
            {
                var rest = text[(nameEnd + 1)..];
                var end = rest[..Math.Min(rest.Length, 256)].IndexOfAny("}{\r\n"u8);
                if (end >= 0 && rest[end] == '}')
                {
                    argument = Encoding.UTF8.GetString(rest[..end]);
                    close = nameEnd + 1 + end;
                }
            }
            var looksLike = strict || Lookalikes.Any(l => name.StartsWith(l, StringComparison.OrdinalIgnoreCase));
            if (close < 0)
            {
                if (strict) throw site.Error(at, $"'{{{name}' is not closed by '}}' (placeholders: {Known})");
                continue; // a body's '{seqkdh=...': its own text
            }
            var written = argument is null ? $"{{{name}}}" : $"{{{name}:{argument}}}";
            Slot? slot = (name, argument) switch { ("seq", null) => Slot.Seq, ("uuid", null) => Slot.Uuid, _ => null };
            byte[]? value = null;
            if (slot is null && name == "env") value = Encoding.UTF8.GetBytes(Variable(site, at, argument));
            else if (slot is null)
            {
                if (!looksLike) continue;
                throw site.Error(at, $"unknown placeholder {written}; known: {Known}" + (name == "size" ? " ({size} belongs in a body file's path)" : ""));
            }
            literal.Write(text[from..open]);
            if (slot is Slot s)
            {
                literals.Add(literal.ToArray());
                literal.SetLength(0);
                slots.Add(s);
            }
            else literal.Write(value);
            from = i = close + 1;
        }
        literal.Write(text[from..]);
        literals.Add(literal.ToArray());
        return new Template(literals, slots);
    }

    /// <summary>{env:NAME}'s value, read once per file; a variable that is not set is one line naming it and the operation.</summary>
    private static string Variable(Site site, string at, string? name)
    {
        if (name is null || !VariableName.IsMatch(name))
            throw site.Error(at, $"{{env{(name is null ? "" : ":" + name)}}} needs a variable name of letters, digits and _: {{env:NAME}}");
        return site.Environment(name)
               ?? throw site.Error("operation '" + site.Operation + "'", $"the environment variable {name} is not set ({{env:{name}}} in {at})");
    }

    private static bool IsNameByte(byte b, bool first) =>
        b is >= (byte)'a' and <= (byte)'z' or >= (byte)'A' and <= (byte)'Z' || !first && (b is >= (byte)'0' and <= (byte)'9' or (byte)'_' or (byte)'-');
}
