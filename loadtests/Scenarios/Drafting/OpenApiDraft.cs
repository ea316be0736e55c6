using System;
using System.Collections.Generic;
using System.Linq;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Comparator.Scenarios.Drafting;

/// <summary>
/// The operations of an OpenAPI document (3.x, or Swagger 2.0) as drafted requests: one per path and
/// method, path parameters and required query parameters filled with sample values, a sample JSON body
/// from the request schema, and the documented success status (the lowest 2xx, else 200).
/// Read with System.Text.Json: the document is JSON, and only paths, parameters, schemas and $ref are needed.
/// </summary>
public static class OpenApiDraft
{
    private static readonly string[] Methods = { "get", "put", "post", "delete", "patch", "head", "options" };

    public static IReadOnlyList<DraftRequest> Read(string text, string source)
    {
        JsonNode? root;
        try { root = JsonNode.Parse(text, documentOptions: new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true }); }
        catch (JsonException e) { throw new DraftException($"{source} is not a JSON OpenAPI document: {e.Message.Split('\n')[0].Trim()}"); }
        if (root is not JsonObject doc || (doc["openapi"] is null && doc["swagger"] is null) || doc["paths"] is not JsonObject paths)
            throw new DraftException($"{source} is not an OpenAPI document: expected \"openapi\" (or \"swagger\") and \"paths\" at the top");

        var schemas = new JsonSchemaSample(doc);
        var server = Server(doc, source);
        var prefix = server?.AbsolutePath
                     ?? (doc["servers"]?[0]?["url"]?.GetValue<string>() is string relative && relative.StartsWith('/') ? relative : null)
                     ?? doc["basePath"]?.GetValue<string>() ?? "";
        var requests = new List<DraftRequest>();
        foreach (var (template, item) in paths)
        {
            if (item is not JsonObject pathItem) continue;
            foreach (var method in Methods)
            {
                if (pathItem[method] is not JsonObject operation) continue;
                var parameters = Parameters(pathItem, schemas).Concat(Parameters(operation, schemas)).ToList();
                var path = prefix.TrimEnd('/') + Fill(template, parameters, schemas);
                var body = Body(operation, parameters, schemas);
                var headers = new List<KeyValuePair<string, string>> { new("Accept", "application/json") };
                if (body is not null) headers.Add(new("Content-Type", "application/json"));
                var name = operation["operationId"]?.GetValue<string>() ?? method + template;
                requests.Add(new DraftRequest(name, method.ToUpperInvariant(), path, headers, body, "json", SuccessStatus(operation), null)
                    { Origin = server?.GetLeftPart(UriPartial.Authority) });
            }
        }
        return requests;
    }

    /// <summary>The document's first server (3.x; a relative one against the document's URL), or its host and basePath (2.0).</summary>
    private static Uri? Server(JsonObject doc, string source)
    {
        Uri.TryCreate(source, UriKind.Absolute, out var from);
        if (from is not null && from.Scheme is not ("http" or "https")) from = null;
        if (doc["servers"]?[0]?["url"]?.GetValue<string>() is string url)
            return Uri.TryCreate(url, UriKind.Absolute, out var absolute) ? absolute : from is null ? null : new Uri(from, url);
        if (doc["host"]?.GetValue<string>() is string host)
            return Uri.TryCreate($"{(doc["schemes"]?[0]?.GetValue<string>() ?? "http")}://{host}{doc["basePath"]?.GetValue<string>()}", UriKind.Absolute, out var v2) ? v2 : null;
        return from is null ? null : new Uri(from, doc["basePath"]?.GetValue<string>() ?? "/");
    }

    private static IEnumerable<JsonObject> Parameters(JsonObject owner, JsonSchemaSample schemas) =>
        (owner["parameters"] as JsonArray ?? new JsonArray()).Select(p => schemas.Resolve(p)).OfType<JsonObject>();

    private static string Fill(string template, List<JsonObject> parameters, JsonSchemaSample schemas)
    {
        var path = template;
        var query = new List<string>();
        foreach (var p in parameters)
        {
            var name = p["name"]?.GetValue<string>() ?? "";
            var value = schemas.Sample(p["schema"] ?? p, 0); // 2.0 gives the type on the parameter itself
            var text = value is JsonValue v && v.TryGetValue<string>(out var s) ? s : value?.ToJsonString() ?? "1";
            switch (p["in"]?.GetValue<string>())
            {
                case "path": path = path.Replace("{" + name + "}", Uri.EscapeDataString(text), StringComparison.Ordinal); break;
                case "query" when p["required"]?.GetValue<bool>() == true: query.Add($"{Uri.EscapeDataString(name)}={Uri.EscapeDataString(text)}"); break;
            }
        }
        return query.Count == 0 ? path : path + "?" + string.Join('&', query);
    }

    /// <summary>A sample JSON body: from 3.x requestBody's JSON content, or 2.0's body parameter; null when the operation takes none.</summary>
    private static string? Body(JsonObject operation, List<JsonObject> parameters, JsonSchemaSample schemas)
    {
        JsonNode? schema = null;
        if (schemas.Resolve(operation["requestBody"]) is JsonObject requestBody && requestBody["content"] is JsonObject content)
            schema = (content.FirstOrDefault(c => c.Key.Contains("json", StringComparison.OrdinalIgnoreCase)).Value ?? content.FirstOrDefault().Value)?["schema"];
        schema ??= parameters.FirstOrDefault(p => p["in"]?.GetValue<string>() == "body")?["schema"];
        if (schema is null) return null;
        return (schemas.Sample(schema, 0) ?? JsonValue.Create("text"))!.ToJsonString(ScenarioDraft.Readable) + "\n";
    }

    private static int SuccessStatus(JsonObject operation) =>
        (operation["responses"] as JsonObject)?.Select(r => int.TryParse(r.Key, out var code) ? code : 0)
            .Where(code => code is >= 200 and <= 299).DefaultIfEmpty(200).Min() ?? 200;
}
