using System.IO;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.RegularExpressions;
using Comparator.Contracts;

namespace Comparator.Scenarios;

/// <summary>
/// Reads a scenario file (<see cref="StrictJson"/>). Every error is one line: the file, the line where the parser
/// gives one, the field (as a JSON path) and what was expected.
/// </summary>
public static class ScenarioParser
{
    private static readonly JsonSerializerOptions Options = StrictJson.Options;

    private static readonly Regex Token = new("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", RegexOptions.Compiled);

    /// <param name="payloadDirectory">where a body named "payloads/..." is read from (the repository's payloads/)</param>
    public static Scenario Load(string file, string payloadDirectory)
    {
        string text;
        try { text = File.ReadAllText(file); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        { throw new ScenarioException($"scenario {file}: cannot read it: {e.Message}"); }
        return Parse(text, file, payloadDirectory);
    }

    public static Scenario Parse(string json, string file, string payloadDirectory)
    {
        FileDto? dto;
        try { dto = JsonSerializer.Deserialize<FileDto>(json, Options); }
        catch (JsonException e) { throw new ScenarioException($"scenario {file}{Line(e)}: {Field(e.Path)}{Explain(e)}"); }
        if (dto?.Operations is not { Count: > 0 } operations)
            throw new ScenarioException($"scenario {file}: $.operations: expected a list of one or more operations");

        var baseDirectory = Path.GetDirectoryName(Path.GetFullPath(file)) ?? ".";
        var names = new HashSet<string>(StringComparer.Ordinal);
        var environment = Placeholders.OnceEach();
        var result = new List<Operation>();
        for (var i = 0; i < operations.Count; i++)
        {
            var at = $"$.operations[{i}]";
            var op = operations[i] ?? throw Error(file, at, "expected an operation object");
            if (string.IsNullOrWhiteSpace(op.Name) || !Token.IsMatch(op.Name))
                throw Error(file, at + ".name", "expected a name of letters, digits and -_. (it names the cell in every report)");
            if (!names.Add(op.Name)) throw Error(file, at + ".name", $"duplicate operation name '{op.Name}'");
            if (op.Request is null && op.Targets is not { Count: > 0 })
                throw Error(file, at, "expected \"request\" (for every target) or \"targets\" (a request per target name), or both");
            var sizes = Sizes(op.Sizes, file, at + ".sizes");
            var expect = Expect(op.Expect, file, at + ".expect");
            Placeholders.Site Site(string where) => new(op.Name, where, (field, what) => Error(file, field, what), environment);
            foreach (var size in sizes.Count == 0 ? new OperationSize?[] { null } : sizes.ToArray<OperationSize?>())
            {
                var request = op.Request is null ? null : Request(op.Request, file, Site(at + ".request"), baseDirectory, payloadDirectory, size);
                var perTarget = new Dictionary<string, ScenarioRequest>(StringComparer.Ordinal);
                foreach (var (target, r) in op.Targets ?? new Dictionary<string, RequestDto?>())
                    perTarget[target] = Request(r ?? throw Error(file, $"{at}.targets.{target}", "expected a request object"), file, Site($"{at}.targets.{target}"), baseDirectory, payloadDirectory, size);
                result.Add(new Operation(op.Name, request, perTarget, expect, size));
            }
            var bodies = (op.Targets?.Values ?? Enumerable.Empty<RequestDto?>()).Append(op.Request).Where(r => r?.Body is not null).Select(r => r!.Body!).ToList();
            if (sizes.Count > 0 && !bodies.Any(b => b.Contains(SizePlaceholder, StringComparison.Ordinal)))
                throw Error(file, at + ".sizes", $"sizes are given but no body path has {SizePlaceholder} in it (e.g. \"payloads/payload-{SizePlaceholder}.txt\")");
        }
        return new Scenario(file, result);
    }

    /// <summary>Checks the file against the targets of this run: every operation asks every target, and same-as names one of them.</summary>
    public static void CheckTargets(Scenario scenario, IReadOnlyList<string> targets)
    {
        foreach (var op in scenario.Operations)
        {
            foreach (var target in targets)
                if (Scenario.RequestFor(op, target) is null)
                    throw new ScenarioException($"scenario {scenario.File}: operation '{op.Name}' has no request for target '{target}': " +
                                                "add \"request\" (for every target) or an entry under \"targets\"");
            foreach (var target in targets)
                if (Scenario.ExpectFor(op, target).Body is { Reference: string other } rule && !targets.Contains(other))
                    throw new ScenarioException($"scenario {scenario.File}: operation '{op.Name}': {(rule is BodyRule.SameAs ? "same-as" : "same-fields")} names '{other}', which is not a target of this run ({string.Join(", ", targets)})");
        }
    }

    /// <summary>Replaced in a body path by each of the operation's sizes, as written.</summary>
    public const string SizePlaceholder = "{size}";

    /// <summary>"sizes": ["500B", "4KB"]: each a size (binary units) that labels a cell and picks a body file through {size}.</summary>
    private static List<OperationSize> Sizes(List<string?>? raw, string file, string at)
    {
        var sizes = new List<OperationSize>();
        foreach (var label in raw ?? new List<string?>())
        {
            if (label is null || PayloadCatalogue.SizeBytes(label) is not long bytes)
                throw Error(file, at, $"expected sizes such as 500B, 4KB or 1MB (they order the cells of a payload-size curve), not '{label}'");
            if (sizes.Any(s => s.Bytes == bytes)) throw Error(file, at, $"size '{label}' is given twice");
            sizes.Add(new OperationSize(label, bytes));
        }
        return sizes;
    }

    private static ScenarioRequest Request(RequestDto r, string file, Placeholders.Site site, string baseDirectory, string payloadDirectory, OperationSize? size)
    {
        var at = site.At;
        var method = r.Method ?? (r.Body is null ? "GET" : "POST");
        if (!Token.IsMatch(method)) throw Error(file, at + ".method", $"expected an HTTP method such as GET or POST, not '{method}'");
        if (string.IsNullOrEmpty(r.Path) || r.Path[0] != '/' || !Uri.TryCreate("http://h" + r.Path, UriKind.Absolute, out var uri) || uri.PathAndQuery.Length == 0)
            throw Error(file, at + ".path", $"expected a path with an optional query, starting with '/', not '{r.Path}'");
        var headers = new List<KeyValuePair<string, string>>();
        foreach (var (name, value) in r.Headers ?? new Dictionary<string, string>())
        {
            if (!Token.IsMatch(name)) throw Error(file, $"{at}.headers", $"'{name}' is not a header name");
            if (value is null || value.IndexOfAny(new[] { '\r', '\n' }) >= 0) throw Error(file, $"{at}.headers.{name}", "expected a one-line text value");
            headers.Add(new(name, value));
        }
        byte[]? body = null;
        string? bodyFile = null;
        var bodyName = r.Body;
        if (bodyName is not null && bodyName.Contains(SizePlaceholder, StringComparison.Ordinal))
            bodyName = size is null
                ? throw Error(file, at + ".body", $"the path has {SizePlaceholder} but the operation gives no \"sizes\"")
                : bodyName.Replace(SizePlaceholder, size.Label, StringComparison.Ordinal);
        if (bodyName is not null)
        {
            bodyFile = bodyName.StartsWith("payloads/", StringComparison.Ordinal)
                ? Path.Combine(payloadDirectory, bodyName["payloads/".Length..])
                : Path.GetFullPath(Path.Combine(baseDirectory, bodyName));
            if (!File.Exists(bodyFile)) throw Error(file, at + ".body", $"no body file at {bodyFile} (a path relative to the scenario file, or payloads/NAME)");
            body = File.ReadAllBytes(bodyFile);
            if (body.LongLength > Contracts.ServiceLimits.DefaultMaxBodyBytes)
                throw Error(file, at + ".body", $"{bodyFile} has {body.LongLength} bytes, over the {Contracts.ServiceLimits.DefaultMaxBodyBytes / (1024 * 1024)} MiB a request body may have here");
            // Every driver and verify send the same head: a body without a type goes as bytes.
            if (!headers.Any(h => h.Key.Equals("Content-Type", StringComparison.OrdinalIgnoreCase)))
                headers.Add(new("Content-Type", Contracts.ContentTypes.Binary));
        }
        return new ScenarioRequest(method, r.Path, headers, body, bodyName, r.Expect is null ? null : Expect(r.Expect, file, at + ".expect"))
        {
            Parts = Placeholders.Parts(site, r.Path, headers, body),
        };
    }

    private static Expectation Expect(ExpectDto? e, string file, string at)
    {
        var status = new List<int>();
        if (e?.Status is JsonElement s)
        {
            var values = s.ValueKind == JsonValueKind.Array ? s.EnumerateArray().ToList() : new List<JsonElement> { s };
            foreach (var v in values)
            {
                if (v.ValueKind != JsonValueKind.Number || !v.TryGetInt32(out var code) || code < 100 || code > 599)
                    throw Error(file, at + ".status", $"expected a status code from 100 to 599 or a list of them, not {v.GetRawText()}");
                status.Add(code);
            }
        }
        return new Expectation(status, e?.Body is null ? null : Rule(e.Body, file, at + ".body"));
    }

    private static BodyRule Rule(BodyRuleDto b, string file, string at)
    {
        var given = new List<BodyRule>();
        if (b.Exact is not null) given.Add(new BodyRule.Exact(Encoding.UTF8.GetBytes(b.Exact)));
        if (b.JsonEqual is JsonElement j) given.Add(new BodyRule.JsonEqual(j.GetRawText()));
        if (b.SameAs is not null) given.Add(new BodyRule.SameAs(b.SameAs));
        if (b.SameFields is JsonElement f) given.Add(SameFieldsParser.Parse(f, file, at + ".same-fields"));
        if (b.Contains is not null) given.Add(new BodyRule.Contains(b.Contains));
        if (b.Regex is not null)
        {
            try { given.Add(new BodyRule.Matches(new Regex(b.Regex, RegexOptions.CultureInvariant, TimeSpan.FromSeconds(1)))); }
            catch (ArgumentException e) { throw Error(file, at + ".regex", "expected a .NET regular expression: " + e.Message); }
        }
        if (given.Count != 1) throw Error(file, at, "expected exactly one of exact, json-equal, same-as, same-fields, contains, regex");
        return given[0];
    }

    internal static ScenarioException Error(string file, string at, string what) => new($"scenario {file}: {at}: {what}");

    private static string Line(JsonException e) => StrictJson.Line(e);

    private static string Field(string? path) => string.IsNullOrEmpty(path) ? "" : path + ": ";

    private static string Explain(JsonException e) => StrictJson.Explain(e,
        "operations; name, request, targets, expect, sizes; method, path, headers, body, expect; status, body: exact, json-equal, same-as, same-fields, contains, regex");

    private sealed class FileDto
    {
        public List<OperationDto?>? Operations { get; set; }
    }

    private sealed class OperationDto
    {
        public string? Name { get; set; }
        public RequestDto? Request { get; set; }
        public Dictionary<string, RequestDto?>? Targets { get; set; }
        public ExpectDto? Expect { get; set; }
        public List<string?>? Sizes { get; set; }
    }

    private sealed class RequestDto
    {
        public string? Method { get; set; }
        public string? Path { get; set; }
        public Dictionary<string, string>? Headers { get; set; }
        public string? Body { get; set; }
        public ExpectDto? Expect { get; set; }
    }

    private sealed class ExpectDto
    {
        public JsonElement? Status { get; set; }
        public BodyRuleDto? Body { get; set; }
    }

    private sealed class BodyRuleDto
    {
        public string? Exact { get; set; }
        [JsonPropertyName("json-equal")] public JsonElement? JsonEqual { get; set; }
        [JsonPropertyName("same-as")] public string? SameAs { get; set; }
        [JsonPropertyName("same-fields")] public JsonElement? SameFields { get; set; }
        public string? Contains { get; set; }
        public string? Regex { get; set; }
    }
}
