using System.IO;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace Comparator.Scenarios.Drafting;

/// <summary>
/// A scenario file drafted from the operations of a WSDL and an OpenAPI document: an operation of
/// each paired by name (letters and digits, any case) or through a map becomes one scenario operation
/// with a request per target; an operation left unpaired is still written, asked of its own target
/// only, and named in the file's leading comment; one the map sends to null is not written. The
/// sample bodies go beside the file, in a folder named as it is.
/// </summary>
public sealed class ScenarioDraft
{
    public sealed record Pair(string Name, DraftRequest? Soap, DraftRequest? Rest, bool Mapped);

    public required IReadOnlyList<Pair> Operations { get; init; }

    /// <summary>Indented, and quotes, &lt; and + as they are (the file is read by people before the comparator).</summary>
    public static readonly JsonSerializerOptions Readable = new() { WriteIndented = true, Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>The operations asked of one target only while both documents were given.</summary>
    public IEnumerable<Pair> Unpaired => Operations.Where(p => p.Soap is null || p.Rest is null);

    /// <summary>The operations --map left out (mapped to null), as the map names them.</summary>
    public IReadOnlyList<string> LeftOut { get; init; } = [];

    /// <param name="map">WSDL operation → OpenAPI operation (its operationId, or "METHOD /path"), for names that differ; an operation of either document → null, to leave it out</param>
    public static ScenarioDraft Pairs(IReadOnlyList<DraftRequest> soap, IReadOnlyList<DraftRequest> rest, IReadOnlyDictionary<string, string?> map)
    {
        var kept = soap.ToList();
        var left = rest.ToList();
        var leftOut = new List<string>();
        foreach (var name in map.Where(m => m.Value is null).Select(m => m.Key))
        {
            var removed = kept.RemoveAll(s => s.Key == DraftRequest.PairingKey(name)) + (Find(left, name) is { } r && left.Remove(r) ? 1 : 0);
            if (removed == 0) throw new DraftException($"--map leaves out '{name}', which is no operation of the WSDL or the OpenAPI document");
            leftOut.Add(name);
        }
        var byKey = map.Where(m => m.Value is not null).ToDictionary(m => DraftRequest.PairingKey(m.Key), m => m.Value!);
        var pairs = new List<Pair>();
        foreach (var s in kept)
        {
            DraftRequest? match;
            var mapped = byKey.TryGetValue(s.Key, out var target);
            if (mapped)
                match = Find(left, target!) ?? throw new DraftException($"--map pairs {s.Name} with '{target}', which is no (unpaired) operation of the OpenAPI document");
            else match = left.FirstOrDefault(r => r.Key == s.Key);
            if (match is not null) left.Remove(match);
            pairs.Add(new Pair(s.Name, s, match, mapped));
        }
        var unknown = byKey.Keys.FirstOrDefault(k => kept.All(s => s.Key != k));
        if (unknown is not null) throw new DraftException($"--map names '{map.First(m => DraftRequest.PairingKey(m.Key) == unknown).Key}', which is no operation of the WSDL");
        pairs.AddRange(left.Select(r => new Pair(r.Name, null, r, false)));
        return new ScenarioDraft { Operations = Unique(pairs), LeftOut = leftOut };
    }

    /// <summary>The REST operation a map names: by its name exactly, else by its pairing key, else by its "METHOD /path".</summary>
    private static DraftRequest? Find(List<DraftRequest> rest, string name) =>
        rest.FirstOrDefault(r => r.Name == name) ?? rest.FirstOrDefault(r => r.Key == DraftRequest.PairingKey(name))
        ?? rest.FirstOrDefault(r => r.Route is not null && DraftRequest.PairingKey(r.Route) == DraftRequest.PairingKey(name));

    /// <summary>Names a scenario takes (letters, digits, -_.), unique.</summary>
    private static List<Pair> Unique(List<Pair> pairs)
    {
        var seen = new HashSet<string>(StringComparer.Ordinal);
        return pairs.Select(p =>
        {
            var name = Regex.Replace(p.Name, "[^0-9A-Za-z._-]+", "-").Trim('-');
            if (name.Length == 0) name = "operation";
            var unique = name;
            for (var i = 2; !seen.Add(unique); i++) unique = $"{name}-{i}";
            return p with { Name = unique };
        }).ToList();
    }

    /// <summary>Writes the scenario file and its bodies (in a folder beside it named as the file is, without .json).</summary>
    public void Write(string file, string soapTarget, string restTarget, IReadOnlyList<string> sources, bool bothGiven)
    {
        var directory = Path.GetDirectoryName(Path.GetFullPath(file))!;
        var folder = Path.GetFileNameWithoutExtension(file);
        Directory.CreateDirectory(Path.Combine(directory, folder));
        var operations = new JsonArray();
        foreach (var pair in Operations)
        {
            var targets = new JsonObject();
            if (pair.Soap is not null) targets[soapTarget] = Request(pair.Soap, pair.Name, directory, folder);
            if (pair.Rest is not null) targets[restTarget] = Request(pair.Rest, pair.Name, directory, folder);
            operations.Add(new JsonObject { ["name"] = pair.Name, ["targets"] = targets });
        }
        var json = new JsonObject { ["operations"] = operations }.ToJsonString(Readable);
        File.WriteAllText(file, json.Insert(1, "\n" + string.Concat(Comment(soapTarget, restTarget, sources, folder, bothGiven).Select(l => "  // " + l + "\n")).TrimEnd('\n')) + "\n");
    }

    private IEnumerable<string> Comment(string soapTarget, string restTarget, IReadOnlyList<string> sources, string folder, bool bothGiven)
    {
        yield return $"Drafted by `comparator scenario draft` from {string.Join(" and ", sources)}: edit the sample bodies (in {folder}/) and the expectations.";
        var byName = Operations.Where(p => p.Soap is not null && p.Rest is not null && !p.Mapped).Select(p => $"{p.Soap!.Name} = {p.Rest!.Name}").ToList();
        var byMap = Operations.Where(p => p.Mapped && p.Rest is not null).Select(p => $"{p.Soap!.Name} = {p.Rest!.Name}").ToList();
        if (byName.Count > 0) yield return "Paired by name: " + string.Join(", ", byName) + ".";
        if (byMap.Count > 0) yield return "Paired by --map: " + string.Join(", ", byMap) + ".";
        if (LeftOut.Count > 0) yield return "Left out by --map: " + string.Join(", ", LeftOut) + ".";
        if (bothGiven && Unpaired.Any())
        {
            yield return "Unpaired, asked of one target only (run and verify ask every operation of every target: pair them or leave them out with --map, or delete them):";
            yield return "  " + UnpairedList(soapTarget, restTarget);
        }
    }

    /// <summary>"Ping (wcf-classic only), health (webapi-selfhost only)".</summary>
    public string UnpairedList(string soapTarget, string restTarget) =>
        string.Join(", ", Unpaired.Select(p => $"{(p.Soap ?? p.Rest)!.Name} ({(p.Soap is null ? restTarget : soapTarget)} only)"));

    private static JsonObject Request(DraftRequest r, string name, string directory, string folder)
    {
        var request = new JsonObject { ["method"] = r.Method, ["path"] = r.Path };
        request["headers"] = new JsonObject(r.Headers.Select(h => new KeyValuePair<string, JsonNode?>(h.Key, h.Value)));
        if (r.Body is not null)
        {
            var body = $"{folder}/{name}.{r.BodyExtension}";
            File.WriteAllText(Path.Combine(directory, body), r.Body, new UTF8Encoding(false));
            request["body"] = body;
        }
        var expect = new JsonObject { ["status"] = r.Status };
        if (r.Regex is not null) expect["body"] = new JsonObject { ["regex"] = r.Regex };
        request["expect"] = expect;
        return request;
    }
}
