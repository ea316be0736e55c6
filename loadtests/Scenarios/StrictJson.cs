using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.RegularExpressions;

namespace Comparator.Scenarios;

/// <summary>
/// How the files users write (scenario files, targets files) are read. JSON, because System.Text.Json is in the box,
/// reports the line and the path of a syntax or shape error, and can refuse unknown fields; YAML would need a package
/// this project's source does not hold.
/// </summary>
public static class StrictJson
{
    public static JsonSerializerOptions Options { get; } = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
        ReadCommentHandling = JsonCommentHandling.Skip,
        AllowTrailingCommas = true,
    };

    /// <summary>" line N" where the parser gives one.</summary>
    public static string Line(JsonException e) => e.LineNumber is long l ? $" line {l + 1}" : "";

    /// <summary>The parser's reason, in the file's terms rather than this program's types; <paramref name="fields"/> lists the ones the file may have.</summary>
    public static string Explain(JsonException e, string fields)
    {
        var m = Regex.Match(e.Message, "The JSON property '([^']*)' could not be mapped");
        if (m.Success) return $"unknown field '{m.Groups[1].Value}' (fields: {fields})";
        if (e.Message.Contains("could not be converted", StringComparison.Ordinal)) return "a value of the wrong kind here (text, number, list or object)";
        var first = e.Message.Split(new[] { " Path:", " LineNumber:" }, StringSplitOptions.None)[0];
        return first.TrimEnd('.');
    }
}
