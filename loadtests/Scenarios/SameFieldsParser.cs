using System.Text.Json;

namespace Comparator.Scenarios;

/// <summary>
/// Reads a same-fields rule:
/// <code>
/// "same-fields": {
///   "as": "wcf-classic",
///   "namespaces": { "t": "urn:comparator" },           (optional: prefixes the XPaths use)
///   "fields": {
///     "total":    { "xml": "//t:Total", "json": "$.total" },
///     "customer": { "wcf-classic": "//*[local-name()='Customer']", "webapi-selfhost": "$.customer.name" }
///   }
/// }
/// </code>
/// A field's paths are keyed by the answer's kind ("xml": XPath, "json": JSONPath) or by a target's
/// name (JSONPath when it starts with '$', else XPath); a target's own key wins. Every path is
/// compiled here, so a typo is one line naming the field before anything is sent.
/// </summary>
internal static class SameFieldsParser
{
    private const string Shape = "expected {\"as\": TARGET, \"fields\": {NAME: {\"xml\": XPATH, \"json\": JSONPATH, or TARGET: PATH}}, \"namespaces\": {PREFIX: URI} (optional)}";

    public static BodyRule.SameFields Parse(JsonElement rule, string file, string at)
    {
        if (rule.ValueKind != JsonValueKind.Object) throw ScenarioParser.Error(file, at, Shape);
        string? target = null;
        var namespaces = new Dictionary<string, string>(StringComparer.Ordinal);
        var fields = new List<FieldPath>();
        foreach (var p in rule.EnumerateObject())
        {
            switch (p.Name)
            {
                case "as" when p.Value.ValueKind == JsonValueKind.String && p.Value.GetString() is { Length: > 0 } name:
                    target = name;
                    break;
                case "namespaces" when p.Value.ValueKind == JsonValueKind.Object:
                    foreach (var ns in p.Value.EnumerateObject())
                        namespaces[ns.Name] = ns.Value.ValueKind == JsonValueKind.String ? ns.Value.GetString()!
                            : throw ScenarioParser.Error(file, $"{at}.namespaces.{ns.Name}", "expected a namespace URI");
                    break;
                case "fields" when p.Value.ValueKind == JsonValueKind.Object:
                    foreach (var f in p.Value.EnumerateObject()) fields.Add(Field(f, file, $"{at}.fields.{f.Name}"));
                    break;
                default:
                    throw ScenarioParser.Error(file, $"{at}.{p.Name}", Shape);
            }
        }
        if (target is null) throw ScenarioParser.Error(file, at + ".as", "expected the name of the target whose answer the fields must equal");
        if (fields.Count == 0) throw ScenarioParser.Error(file, at + ".fields", "expected one or more fields, each with its paths");
        foreach (var field in fields)
            foreach (var (path, isJson, key) in Paths(field))
                if (FieldValues.Invalid(path, isJson, namespaces) is string why)
                    throw ScenarioParser.Error(file, $"{at}.fields.{field.Name}.{key}", $"'{path}' is not a valid {(isJson ? "JSONPath" : "XPath")}: {why}");
        return new BodyRule.SameFields(target, fields, namespaces);
    }

    private static FieldPath Field(JsonProperty field, string file, string at)
    {
        if (field.Value.ValueKind != JsonValueKind.Object) throw ScenarioParser.Error(file, at, "expected {\"xml\": XPATH, \"json\": JSONPATH} or paths by target name");
        string? xml = null, json = null;
        var byTarget = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var p in field.Value.EnumerateObject())
        {
            if (p.Value.ValueKind != JsonValueKind.String || p.Value.GetString() is not { Length: > 0 } path)
                throw ScenarioParser.Error(file, $"{at}.{p.Name}", "expected a path (XPath or JSONPath) as text");
            if (p.Name == "xml") xml = path;
            else if (p.Name == "json") json = path;
            else byTarget[p.Name] = path;
        }
        if (xml is null && json is null && byTarget.Count == 0) throw ScenarioParser.Error(file, at, "expected at least one path");
        return new FieldPath(field.Name, byTarget, xml, json);
    }

    private static IEnumerable<(string Path, bool IsJson, string Key)> Paths(FieldPath field)
    {
        if (field.Xml is not null) yield return (field.Xml, false, "xml");
        if (field.Json is not null) yield return (field.Json, true, "json");
        foreach (var (target, path) in field.ByTarget) yield return (path, path.StartsWith('$'), target);
    }
}
