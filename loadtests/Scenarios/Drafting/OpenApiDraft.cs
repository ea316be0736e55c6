using System.Net.Http;
using System.Text.Json.Nodes;
using Microsoft.OpenApi;
using Microsoft.OpenApi.Reader;

namespace Comparator.Scenarios.Drafting;

/// <summary>
/// The operations of an OpenAPI document (3.x, or Swagger 2.0; JSON or YAML) as drafted requests: one per
/// path and method, path parameters and required query parameters filled with sample values, a sample
/// JSON body from the request schema, and the documented success status (the lowest 2xx, else 200).
/// Read with Microsoft.OpenApi (its YAML reader added), which resolves $ref and gives 2.0's host and
/// basePath as a server and its body parameter as a request body.
/// </summary>
public static class OpenApiDraft
{
    private static readonly HttpMethod[] Methods = { HttpMethod.Get, HttpMethod.Put, HttpMethod.Post, HttpMethod.Delete, HttpMethod.Patch, HttpMethod.Head, HttpMethod.Options };

    public static IReadOnlyList<DraftRequest> Read(string text, string source)
    {
        var doc = Parse(text, source);
        var (server, prefix) = Server(doc, source);
        var requests = new List<DraftRequest>();
        foreach (var (template, pathItem) in doc.Paths ?? new OpenApiPaths())
        {
            foreach (var method in Methods)
            {
                if (pathItem.Operations?.GetValueOrDefault(method) is not OpenApiOperation operation) continue;
                var parameters = (pathItem.Parameters ?? []).Concat(operation.Parameters ?? []).ToList();
                var path = prefix.TrimEnd('/') + Fill(template, parameters);
                var body = Body(operation);
                var status = SuccessStatus(operation);
                var headers = new List<KeyValuePair<string, string>>();
                if (Accept(operation, status) is string accept) headers.Add(new("Accept", accept));
                if (body is not null) headers.Add(new("Content-Type", body.Value.ContentType));
                var name = operation.OperationId ?? method.Method.ToLowerInvariant() + template;
                requests.Add(new DraftRequest(name, method.Method, path, headers, body?.Text, body?.Extension ?? "json", status, null)
                    { Origin = server?.GetLeftPart(UriPartial.Authority), Route = $"{method.Method} {prefix.TrimEnd('/')}{template}" });
            }
        }
        return requests;
    }

    /// <summary>The document as Microsoft.OpenApi reads it; a <see cref="DraftException"/> naming the reader's first error when it reports any.</summary>
    private static OpenApiDocument Parse(string text, string source)
    {
        var settings = new OpenApiReaderSettings();
        settings.AddYamlReader();
        ReadResult result;
        try { result = OpenApiDocument.Parse(text, null, settings); }
        catch (OpenApiException e) { throw new DraftException($"{source} is not a JSON or YAML OpenAPI document: {FirstLine(e.Message)}"); }
        var errors = result.Diagnostic?.Errors ?? [];
        if (result.Document is null)
            throw new DraftException($"{source} is not a JSON or YAML OpenAPI document{(errors.Count == 0 ? "" : ": " + FirstLine(errors[0].ToString()))}");
        if (errors.Count > 0)
            throw new DraftException($"{source}: the OpenAPI reader reports {errors.Count} error{(errors.Count == 1 ? "" : "s")}, the first: {FirstLine(errors[0].ToString())}");
        return result.Document;
    }

    private static string FirstLine(string message) => message.Split('\n')[0].Trim();

    /// <summary>
    /// The document's first server (a relative one against the document's URL), and the path before each
    /// operation's; with no server, the document's URL's origin.
    /// </summary>
    private static (Uri? Server, string Prefix) Server(OpenApiDocument doc, string source)
    {
        Uri.TryCreate(source, UriKind.Absolute, out var from);
        if (from is not null && from.Scheme is not ("http" or "https")) from = null;
        var url = doc.Servers?.FirstOrDefault()?.Url;
        var server = url is null ? (from is null ? null : new Uri(from, "/"))
                     : Uri.TryCreate(url, UriKind.Absolute, out var absolute) && absolute.Scheme is "http" or "https" ? absolute
                     : from is null ? null : new Uri(from, url);
        return (server, server?.AbsolutePath ?? (url is not null && url.StartsWith('/') ? url : ""));
    }

    private static string Fill(string template, List<IOpenApiParameter> parameters)
    {
        var path = template;
        var query = new List<string>();
        foreach (var p in parameters)
        {
            var name = p.Name ?? "";
            var value = JsonSchemaSample.Sample(p.Schema, 0);
            var text = value is JsonValue v && v.TryGetValue<string>(out var s) ? s : value?.ToJsonString() ?? "1";
            switch (p.In)
            {
                case ParameterLocation.Path: path = path.Replace("{" + name + "}", Uri.EscapeDataString(text), StringComparison.Ordinal); break;
                case ParameterLocation.Query when p.Required: query.Add($"{Uri.EscapeDataString(name)}={Uri.EscapeDataString(text)}"); break;
            }
        }
        return query.Count == 0 ? path : path + "?" + string.Join('&', query);
    }

    /// <summary>
    /// A sample body of the request body's JSON content (else its first), sent as that media type: JSON
    /// from the schema, or for any other type the sample as text ("text" for a string or binary schema,
    /// as the service's own echo of raw bytes expects); null when the operation takes none.
    /// </summary>
    private static (string Text, string ContentType, string Extension)? Body(OpenApiOperation operation)
    {
        var content = operation.RequestBody?.Content;
        if (content is null || content.Count == 0) return null;
        var (type, media) = content.FirstOrDefault(c => IsJson(c.Key)) is { Key: not null } json ? json : content.First();
        if (media?.Schema is not IOpenApiSchema schema) return null;
        var sample = JsonSchemaSample.Sample(schema, 0) ?? JsonValue.Create("text");
        // A range ("*/*", "application/*+json") is no type to send: JSON or bytes, then.
        var sent = !type.Contains('*') ? type : IsJson(type) ? "application/json" : "application/octet-stream";
        if (IsJson(type)) return (sample.ToJsonString(ScenarioDraft.Readable) + "\n", sent, "json");
        var text = sample is JsonValue v && v.TryGetValue<string>(out var s) ? s : sample.ToJsonString(ScenarioDraft.Readable);
        return (text, sent, sent.StartsWith("text/", StringComparison.OrdinalIgnoreCase) ? "txt" : sent.Contains("xml", StringComparison.OrdinalIgnoreCase) ? "xml" : "bin");
    }

    private static bool IsJson(string mediaType) => mediaType.Contains("json", StringComparison.OrdinalIgnoreCase);

    /// <summary>The media types the success answer is documented in ("text/plain"; JSON first), or null where it documents none.</summary>
    private static string? Accept(OpenApiOperation operation, int status)
    {
        var types = operation.Responses?.GetValueOrDefault(status.ToString(CultureInfo.InvariantCulture))?.Content?.Keys.OrderBy(t => IsJson(t) ? 0 : 1).ToList();
        return types is { Count: > 0 } ? string.Join(", ", types) : null;
    }

    private static int SuccessStatus(OpenApiOperation operation) =>
        (operation.Responses?.Keys ?? Enumerable.Empty<string>()).Select(r => int.TryParse(r, out var code) ? code : 0)
            .Where(code => code is >= 200 and <= 299).DefaultIfEmpty(200).Min();
}
