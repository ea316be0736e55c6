using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Comparator.Scenarios;

/// <summary>
/// Whether one answer is correct by its operation's expectation: the status, then the body rule.
/// Returns null when it is, else one line that says what differs (for verify's table and for the
/// failure samples of a run), with a short view of the first difference in the bodies.
/// </summary>
public static class AnswerRules
{
    /// <summary>
    /// The check of every answer of <paramref name="target"/> under load: <see cref="Check"/>, with a
    /// same-fields reference read once rather than per answer.
    /// </summary>
    public static Func<int, byte[], string?> Checker(Expectation expect, string target, byte[]? reference)
    {
        if (expect.Body is BodyRule.SameFields fields && reference is not null)
        {
            var values = FieldValues.Read(fields, fields.Target, reference);
            return (status, body) => StatusProblem(expect, status) ?? FieldValues.Compare(fields, target, body, values);
        }
        return (status, body) => Check(expect, status, body, reference, target);
    }

    /// <param name="reference">the reference target's answer body to the same operation, when the rule is same-as or same-fields</param>
    /// <param name="target">the target that gave the answer (same-fields may name its paths by target)</param>
    public static string? Check(Expectation expect, int status, byte[] body, byte[]? reference = null, string? target = null)
    {
        if (StatusProblem(expect, status) is string wrong) return wrong;
        return expect.Body switch
        {
            null => null,
            BodyRule.Exact e => e.Bytes.AsSpan().SequenceEqual(body) ? null : "body differs from exact: " + FirstDifference(e.Bytes, body),
            BodyRule.JsonEqual j => JsonEqual(Encoding.UTF8.GetBytes(j.Json), body) switch
            {
                true => null,
                false => "body is not the same JSON value: " + FirstDifference(Encoding.UTF8.GetBytes(Normalize(j.Json)!), Encoding.UTF8.GetBytes(Normalize(body) ?? Text(body))),
                null => "body is not JSON: " + Head(body),
            },
            BodyRule.SameAs s when reference is null => $"no answer of {s.Target} to compare with",
            BodyRule.SameAs s => reference.AsSpan().SequenceEqual(body) || JsonEqual(reference, body) == true
                ? null
                : $"body differs from {s.Target}'s: " + (Normalize(reference) is string a && Normalize(body) is string b
                    ? FirstDifference(Encoding.UTF8.GetBytes(a), Encoding.UTF8.GetBytes(b))
                    : FirstDifference(reference, body)),
            BodyRule.SameFields f when reference is null => $"no answer of {f.Target} to compare with",
            BodyRule.SameFields f => FieldValues.Compare(f, target ?? f.Target, body, FieldValues.Read(f, f.Target, reference)),
            BodyRule.Contains c => Text(body).Contains(c.Text, StringComparison.Ordinal) ? null : $"body does not contain \"{c.Text}\": {Head(body)}",
            BodyRule.Matches m => m.Pattern.IsMatch(Text(body)) ? null : $"body does not match /{m.Pattern}/: {Head(body)}",
            _ => null,
        };
    }

    private static string? StatusProblem(Expectation expect, int status) =>
        (expect.Status.Count == 0 ? status is >= 200 and <= 299 : expect.Status.Contains(status)) ? null
        : $"status {status}, expected {(expect.Status.Count == 0 ? "2xx" : string.Join(" or ", expect.Status))}";

    /// <summary>True or false when both parse as JSON, null when either does not.</summary>
    public static bool? JsonEqual(byte[] a, byte[] b)
    {
        try { return JsonNode.DeepEquals(JsonNode.Parse(a), JsonNode.Parse(b)); }
        catch (JsonException) { return null; }
    }

    /// <summary>Compact JSON with properties sorted, so two equal values read alike; null when not JSON.</summary>
    private static string? Normalize(string json) => Normalize(Encoding.UTF8.GetBytes(json));

    private static string? Normalize(byte[] json)
    {
        try { return Sorted(JsonNode.Parse(json))?.ToJsonString() ?? "null"; }
        catch (JsonException) { return null; }
    }

    private static JsonNode? Sorted(JsonNode? node) => node switch
    {
        JsonObject o => new JsonObject(o.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => new System.Collections.Generic.KeyValuePair<string, JsonNode?>(p.Key, Sorted(p.Value?.DeepClone())))),
        JsonArray a => new JsonArray(a.Select(v => Sorted(v?.DeepClone())).ToArray()),
        _ => node?.DeepClone(),
    };

    /// <summary>"at byte 17: expected …"42,"na…" got …"43,"na…"; lengths 120 and 121".</summary>
    public static string FirstDifference(byte[] expected, byte[] actual)
    {
        var i = 0;
        while (i < expected.Length && i < actual.Length && expected[i] == actual[i]) i++;
        string Around(byte[] b) => i >= b.Length ? "(end)" : "…" + Text(b.AsSpan(Math.Max(0, i - 12), Math.Min(b.Length, i + 28) - Math.Max(0, i - 12)).ToArray()) + "…";
        return $"at byte {i}: expected {Around(expected)} got {Around(actual)}; lengths {expected.Length} and {actual.Length}";
    }

    private static string Head(byte[] body) => body.Length == 0 ? "(empty)" : Text(body.AsSpan(0, Math.Min(body.Length, 60)).ToArray()) + (body.Length > 60 ? "…" : "");

    private static string Text(byte[] b) => Encoding.UTF8.GetString(b).Replace("\r", "\\r").Replace("\n", "\\n");
}
