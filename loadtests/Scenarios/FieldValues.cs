using System.IO;
using System.Xml;
using System.Xml.XPath;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Comparator.Scenarios;

/// <summary>
/// The same-fields rule: reads named values out of two answers, one perhaps SOAP and the other JSON,
/// and names the first that differs. XPath is .NET's own (System.Xml.XPath); JSONPath is
/// Newtonsoft.Json's SelectTokens, so neither language is reimplemented here. A value is text: an
/// XML node's string value (trimmed), a JSON scalar as written (a string without its quotes), an
/// object or array as compact JSON; an answer that is neither XML nor JSON (text/plain, octet-stream) is
/// one value, its whole text, read with the path "$". Two values are equal as text, or as numbers when both are numbers
/// (42.50 in XML is 42.5 in JSON), or as booleans whatever their case (true, True), or as JSON values
/// when both are a JSON object or array.
/// </summary>
public static class FieldValues
{
    /// <summary>The reference answer's values, read once, then checked against every answer under load.</summary>
    public sealed record Extracted(IReadOnlyList<IReadOnlyList<string>?> Values, string? Problem, bool IsXml = false);

    public static Extracted Read(BodyRule.SameFields rule, string target, byte[] body)
    {
        var isXml = LooksLikeXml(body);
        XPathNavigator? xml = null;
        JToken? json = null;
        try
        {
            if (isXml) xml = ParseXml(body);
            else json = ParseJson(body);
        }
        catch (Exception e) when (e is XmlException or JsonException)
        {
            // A plain answer (text/plain, octet-stream) is one value, its whole text, named by the path "$" alone.
            if (isXml || rule.Fields.Any(f => f.For(target, false)?.Path != "$"))
                return new Extracted(Array.Empty<IReadOnlyList<string>?>(), $"{target}'s answer is not {(isXml ? "XML" : "JSON")}: {e.Message}" +
                                                                           (isXml ? "" : " (a plain answer is compared whole, with the path \"$\")"));
            json = new JValue(System.Text.Encoding.UTF8.GetString(body));
        }
        var values = new List<IReadOnlyList<string>?>();
        foreach (var field in rule.Fields)
        {
            if (field.For(target, isXml) is not (string path, bool isJson))
                return new Extracted(values, $"field {field.Name} has no path for {target}'s {(isXml ? "XML" : "JSON")} answer (give \"{(isXml ? "xml" : "json")}\" or \"{target}\")");
            if (isJson == isXml)
                return new Extracted(values, $"field {field.Name}: {target}'s answer is {(isXml ? "XML" : "JSON")} but its path {path} is {(isJson ? "JSONPath" : "XPath")}");
            values.Add(isJson ? FromJson(json!, path) : FromXml(xml!, path, rule.Namespaces));
        }
        return new Extracted(values, null, isXml);
    }

    /// <summary>Null when every field of the answer equals the reference's, else the first that does not, by name and path.</summary>
    public static string? Compare(BodyRule.SameFields rule, string target, byte[] body, Extracted reference)
    {
        if (reference.Problem is not null) return "the reference answer: " + reference.Problem;
        var answer = Read(rule, target, body);
        if (answer.Problem is not null) return answer.Problem;
        var isXml = LooksLikeXml(body);
        for (var i = 0; i < rule.Fields.Count; i++)
        {
            var (mine, theirs) = (answer.Values[i], reference.Values[i]);
            if (mine is { Count: > 0 } && theirs is { Count: > 0 } && mine.Count == theirs.Count && mine.Zip(theirs).All(p => Same(p.First, p.Second))) continue;
            var field = rule.Fields[i];
            var path = field.For(target, isXml)!.Value.Path;
            if (theirs is not { Count: > 0 })
                return $"field {field.Name}: {rule.Target}'s answer has no value at {field.For(rule.Target, reference.IsXml)!.Value.Path}, so there is nothing to compare with";
            return $"field {field.Name} differs: {target}'s {path} is {Show(mine)}, {rule.Target}'s is {Show(theirs)}";
        }
        return null;
    }

    /// <summary>An answer whose first non-blank byte is '&lt;' is read as XML, any other as JSON.</summary>
    public static bool LooksLikeXml(byte[] body)
    {
        foreach (var b in body)
            if (b is not ((byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n' or 0xEF or 0xBB or 0xBF)) return b == (byte)'<';
        return false;
    }

    /// <summary>Checks a path's syntax when the file is read, so a typo is one line before any load.</summary>
    public static string? Invalid(string path, bool isJson, IReadOnlyDictionary<string, string> namespaces)
    {
        try
        {
            if (isJson) new JObject().SelectTokens(path).ToList();
            else XPathExpression.Compile(path, Namespaces(namespaces));
            return null;
        }
        catch (Exception e) when (e is JsonException or XPathException or ArgumentException)
        {
            return e.Message;
        }
    }

    private static XPathNavigator ParseXml(byte[] body)
    {
        var settings = new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, XmlResolver = null };
        using var reader = XmlReader.Create(new MemoryStream(body), settings);
        return new XPathDocument(reader).CreateNavigator();
    }

    private static JToken ParseJson(byte[] body)
    {
        using var reader = new JsonTextReader(new StreamReader(new MemoryStream(body))) { DateParseHandling = DateParseHandling.None, FloatParseHandling = FloatParseHandling.Decimal };
        return JToken.ReadFrom(reader);
    }

    private static IReadOnlyList<string> FromJson(JToken root, string path) =>
        root.SelectTokens(path).Select(t => t switch
        {
            JValue { Type: JTokenType.Null } => "null",
            JValue { Value: bool b } => b ? "true" : "false",
            JValue { Value: IFormattable f } => f.ToString(null, CultureInfo.InvariantCulture),
            JValue v => v.Value?.ToString() ?? "null",
            _ => t.ToString(Newtonsoft.Json.Formatting.None),
        }).ToList();

    private static IReadOnlyList<string> FromXml(XPathNavigator root, string path, IReadOnlyDictionary<string, string> namespaces)
    {
        var expression = XPathExpression.Compile(path, Namespaces(namespaces));
        return root.Evaluate(expression) switch
        {
            XPathNodeIterator nodes => nodes.Cast<XPathNavigator>().Select(n => n.Value.Trim()).ToList(),
            bool b => new[] { b ? "true" : "false" },
            double d => new[] { d.ToString("R", CultureInfo.InvariantCulture) },
            var other => new[] { Convert.ToString(other, CultureInfo.InvariantCulture) ?? "" },
        };
    }

    private static XmlNamespaceManager Namespaces(IReadOnlyDictionary<string, string> prefixes)
    {
        var manager = new XmlNamespaceManager(new NameTable());
        foreach (var (prefix, uri) in prefixes) manager.AddNamespace(prefix, uri);
        return manager;
    }

    private static bool Same(string a, string b) =>
        string.Equals(a, b, StringComparison.Ordinal)
        || decimal.TryParse(a, NumberStyles.Float, CultureInfo.InvariantCulture, out var x) && decimal.TryParse(b, NumberStyles.Float, CultureInfo.InvariantCulture, out var y) && x == y
        || bool.TryParse(a, out var p) && bool.TryParse(b, out var q) && p == q
        || SameJson(a, b);

    /// <summary>
    /// An object or array on both sides, compared as JSON values: a SOAP operation that returns JSON as
    /// its result's text (a common half-way migration) against the successor's JSON body.
    /// </summary>
    private static bool SameJson(string a, string b)
    {
        if (!IsJsonContainer(a) || !IsJsonContainer(b)) return false;
        try { return JToken.DeepEquals(ParseJson(System.Text.Encoding.UTF8.GetBytes(a)), ParseJson(System.Text.Encoding.UTF8.GetBytes(b))); }
        catch (JsonException) { return false; }
    }

    private static bool IsJsonContainer(string v) => v.Length > 1 && v[0] is '{' or '[';

    private static string Show(IReadOnlyList<string>? values) => values switch
    {
        null or { Count: 0 } => "missing",
        { Count: 1 } => Quote(values[0]),
        _ => "[" + string.Join(", ", values.Take(5).Select(Quote)) + (values.Count > 5 ? $", … {values.Count} values" : "") + "]",
    };

    private static string Quote(string v) => "\"" + (v.Length > 60 ? v[..60] + "…" : v) + "\"";
}
