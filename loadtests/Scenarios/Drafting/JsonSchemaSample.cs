using System.Text.Json.Nodes;
using Microsoft.OpenApi;

namespace Comparator.Scenarios.Drafting;

/// <summary>
/// A sample JSON value of an OpenAPI schema (as Microsoft.OpenApi reads it, references resolved): its
/// example where it gives one, the first value of an enumeration, "text", 1, 1.5, true, a fixed time for
/// date-time, one item for an array, every property of an object (allOf merged, the first of
/// oneOf/anyOf), depth-limited; nothing for a reference the reader could not resolve.
/// </summary>
public static class JsonSchemaSample
{
    public const int MaxDepth = 6;

    public static JsonNode? Sample(IOpenApiSchema? schema, int depth)
    {
        if (schema is null or OpenApiSchemaReference { Target: null } || depth > MaxDepth) return null;
#pragma warning disable CS0618 // Example: where the reader keeps 3.0's and 2.0's single example
        if ((Value(schema.Examples?.FirstOrDefault()) ?? Value(schema.Example) ?? Value(schema.Default)) is JsonNode example) return example.DeepClone();
#pragma warning restore CS0618
        if (schema.Enum is { Count: > 0 } values) return Value(values[0])?.DeepClone();
        if ((schema.OneOf is { Count: > 0 } ? schema.OneOf : schema.AnyOf) is { Count: > 0 } options) return Sample(options[0], depth);
        if (schema.AllOf is { Count: > 0 } parts)
        {
            var merged = new JsonObject();
            foreach (var part in parts)
                if (Sample(part, depth) is JsonObject o)
                    foreach (var (k, v) in o) merged[k] = v?.DeepClone();
            return merged;
        }
        var type = schema.Type & ~JsonSchemaType.Null;
        type = type is null or 0 ? schema.Properties is not null ? JsonSchemaType.Object : schema.Items is not null ? JsonSchemaType.Array : JsonSchemaType.String : type;
        if (type.Value.HasFlag(JsonSchemaType.Object)) return Object(schema, depth);
        if (type.Value.HasFlag(JsonSchemaType.Array)) return Sample(schema.Items, depth + 1) is JsonNode item ? new JsonArray(item) : new JsonArray();
        if (type.Value.HasFlag(JsonSchemaType.String)) return Text(schema.Format);
        if (type.Value.HasFlag(JsonSchemaType.Integer)) return JsonValue.Create(1);
        if (type.Value.HasFlag(JsonSchemaType.Number)) return JsonValue.Create(1.5);
        return type.Value.HasFlag(JsonSchemaType.Boolean) ? JsonValue.Create(true) : Text(schema.Format);
    }

    /// <summary>The node, or null for none and for the reader's stand-in for a JSON null.</summary>
    private static JsonNode? Value(JsonNode? node) => node is null || JsonNullSentinel.IsJsonNullSentinel(node) ? null : node;

    private static JsonNode Text(string? format) => JsonValue.Create(format switch
    {
        "date-time" => XsdSample.Time,
        "date" => XsdSample.Time[..10],
        "uuid" => "00000000-0000-0000-0000-000000000001",
        "uri" => "http://example.com/",
        "email" => "someone@example.com",
        _ => "text",
    });

    private static JsonObject Object(IOpenApiSchema schema, int depth)
    {
        var result = new JsonObject();
        foreach (var (name, property) in schema.Properties ?? new System.Collections.Generic.Dictionary<string, IOpenApiSchema>())
            if (Sample(property, depth + 1) is JsonNode value) result[name] = value;
        return result;
    }
}
