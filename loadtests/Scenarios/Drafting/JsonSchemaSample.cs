using System;
using System.Linq;
using System.Text.Json.Nodes;

namespace Comparator.Scenarios.Drafting;

/// <summary>
/// A sample JSON value of an OpenAPI schema: its example where it gives one, the first value of an
/// enumeration, "text", 1, 1.5, true, a fixed time for date-time, one item for an array, every
/// property of an object (allOf merged, the first of oneOf/anyOf), $ref followed, depth-limited.
/// </summary>
public sealed class JsonSchemaSample
{
    public const int MaxDepth = 6;
    private readonly JsonObject _document;

    public JsonSchemaSample(JsonObject document) => _document = document;

    /// <summary>The node a local $ref ("#/components/schemas/Order") points at; the node itself when it is no reference.</summary>
    public JsonNode? Resolve(JsonNode? node)
    {
        for (var hops = 0; hops < 16 && node?["$ref"]?.GetValue<string>() is string reference; hops++)
        {
            if (!reference.StartsWith("#/", StringComparison.Ordinal)) return null;
            node = reference[2..].Split('/').Select(s => s.Replace("~1", "/").Replace("~0", "~"))
                .Aggregate<string, JsonNode?>(_document, (at, key) => at?[key]);
        }
        return node;
    }

    public JsonNode? Sample(JsonNode? schemaOrRef, int depth)
    {
        if (Resolve(schemaOrRef) is not JsonObject schema || depth > MaxDepth) return null;
        if ((schema["example"] ?? schema["default"]) is JsonNode example) return example.DeepClone();
        if (schema["enum"] is JsonArray { Count: > 0 } values) return values[0]?.DeepClone();
        if ((schema["oneOf"] ?? schema["anyOf"]) is JsonArray { Count: > 0 } options) return Sample(options[0], depth);
        if (schema["allOf"] is JsonArray parts)
        {
            var merged = new JsonObject();
            foreach (var part in parts)
                if (Sample(part, depth) is JsonObject o)
                    foreach (var (k, v) in o) merged[k] = v?.DeepClone();
            return merged;
        }
        var type = schema["type"] is JsonArray types ? types.FirstOrDefault(t => t?.GetValue<string>() != "null")?.GetValue<string>() : schema["type"]?.GetValue<string>();
        type ??= schema["properties"] is not null ? "object" : schema["items"] is not null ? "array" : "string";
        return type switch
        {
            "object" => Object(schema, depth),
            "array" => Sample(schema["items"], depth + 1) is JsonNode item ? new JsonArray(item) : new JsonArray(),
            "integer" => JsonValue.Create(1),
            "number" => JsonValue.Create(1.5),
            "boolean" => JsonValue.Create(true),
            _ => JsonValue.Create(schema["format"]?.GetValue<string>() switch
            {
                "date-time" => XsdSample.Time,
                "date" => XsdSample.Time[..10],
                "uuid" => "00000000-0000-0000-0000-000000000001",
                "uri" => "http://example.com/",
                "email" => "someone@example.com",
                _ => "text",
            }),
        };
    }

    private JsonObject Object(JsonObject schema, int depth)
    {
        var result = new JsonObject();
        foreach (var (name, property) in schema["properties"] as JsonObject ?? new JsonObject())
            if (Sample(property, depth + 1) is JsonNode value) result[name] = value;
        return result;
    }
}
