using System.CommandLine;
using System.IO;
using System.Net.Http;
using System.Text.Json;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Errors;
using Comparator.Scenarios;
using Comparator.Scenarios.Drafting;

namespace Comparator.Cli;

/// <summary>
/// scenario draft [--wsdl URL|FILE] [--openapi URL|FILE] [--map FILE] [--wcf-target NAME] [--rest-target NAME] [--out FILE] [--force]:
/// drafts a scenario file from the service's own documents, for the user to edit.
/// </summary>
public static class ScenarioCommand
{
    public static readonly TimeSpan FetchTimeout = TimeSpan.FromSeconds(30);

    public static Command Define()
    {
        var draft = new Command("draft",
            "Draft a scenario file from a WSDL and/or an OpenAPI document (JSON or YAML): an operation per SOAP and per REST operation, " +
            "those of the same name (or paired by --map) as one operation asked of both targets, with sample bodies written beside the file.")
        {
            CommandLine.One("--wsdl", "URL|FILE", "The WCF service's WSDL (e.g. http://host/Service.svc?singleWsdl)."),
            CommandLine.One("--openapi", "URL|FILE", "The Web API's OpenAPI 3.x or Swagger 2.0 document, in JSON or YAML."),
            CommandLine.One("--map", "FILE", "A JSON object pairing operations whose names differ: {\"WsdlOperation\": \"openapiOperationId\"} (or \"POST /api/path\"); an operation of either document mapped to null is left out."),
            CommandLine.One("--wcf-target", "NAME", "The target the SOAP requests are for. Default: wcf-classic."),
            CommandLine.One("--rest-target", "NAME", "The target the REST requests are for. Default: webapi-selfhost."),
            CommandLine.One("--out", "FILE", "The scenario file to write; bodies go in a folder beside it of the same name. Default: draft.json."),
            CommandLine.Flag("--force", "Overwrite the scenario file and its bodies when they exist (an edited draft is refused otherwise)."),
        };
        draft.SetAction((parse, cancel) => DraftAsync(new ArgumentReader(parse), cancel));
        return new Command("scenario", "Scenario files: `scenario draft` writes one from the services' WSDL and OpenAPI documents.") { draft };
    }

    public static async Task<int> DraftAsync(ArgumentReader options, CancellationToken cancel)
    {
        var wsdl = options.Value("--wsdl");
        var openApi = options.Value("--openapi");
        if (wsdl is null && openApi is null) throw Usage("give --wsdl URL|FILE, --openapi URL|FILE, or both");
        var soapTarget = options.Value("--wcf-target") ?? "wcf-classic";
        var restTarget = options.Value("--rest-target") ?? "webapi-selfhost";
        if (soapTarget == restTarget) throw Usage($"--wcf-target and --rest-target are both '{soapTarget}'; name two targets");
        var output = options.Value("--out") ?? "draft.json";
        if (File.Exists(output) && !options.Flag("--force")) throw Usage($"{output} exists (an edited draft?); give another --out, or --force to overwrite it");
        var map = options.Value("--map") is string mapFile ? ReadMap(mapFile) : new Dictionary<string, string?>();

        try
        {
            var soap = wsdl is null ? Array.Empty<DraftRequest>() : await WsdlDraft.ReadAsync(wsdl, s => FetchAsync(s, cancel));
            var rest = openApi is null ? Array.Empty<DraftRequest>() : OpenApiDraft.Read(await FetchAsync(openApi, cancel), openApi);
            if (soap.Count + rest.Count == 0) throw new DraftException($"no SOAP or REST operations in {string.Join(" or ", new[] { wsdl, openApi }.OfType<string>())}");
            var draft = ScenarioDraft.Pairs(soap, rest, map);
            var both = wsdl is not null && openApi is not null;
            draft.Write(output, soapTarget, restTarget, new[] { wsdl, openApi }.OfType<string>().Select(Path.GetFileName).OfType<string>().ToList(), both);
            // What it wrote is a scenario the comparator reads, or this is a bug of ours.
            ScenarioParser.Load(output, Path.GetDirectoryName(Path.GetFullPath(output))!);
            Console.WriteLine($"wrote {output}: {draft.Operations.Count} operations, {draft.Operations.Count(p => p.Soap is not null && p.Rest is not null)} asked of both targets");
            Console.WriteLine($"next: edit it, then comparator verify --scenario {output} {Target(soapTarget, soap)} {Target(restTarget, rest)}".TrimEnd());
            if (both && draft.Unpaired.Any()) Console.Error.WriteLine($"scenario draft: unpaired (in the file, asked of one target only): {draft.UnpairedList(soapTarget, restTarget)}");
            return ExitCodes.Success;
        }
        catch (DraftException e) { throw Usage(e.Message); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) { throw Usage($"cannot write {output}: {e.Message}"); }
    }

    /// <summary>"--target wcf-classic=http://old:8080" where the document names the service's address, else "--target wcf-classic=URL"; empty without operations.</summary>
    private static string Target(string name, IReadOnlyList<DraftRequest> requests) =>
        requests.Count == 0 ? "" : $"--target {name}={requests.Select(r => r.Origin).FirstOrDefault(o => o is not null) ?? "URL"}";

    private static UsageException Usage(string message) => new("scenario draft: " + message);

    /// <summary>A document's text: fetched with a timeout when it is an http(s) URL, else read from the file.</summary>
    private static async Task<string> FetchAsync(string source, CancellationToken cancel)
    {
        if (Uri.TryCreate(source, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttp || uri.Scheme == Uri.UriSchemeHttps))
        {
            using var client = new HttpClient { Timeout = FetchTimeout };
            try
            {
                using var answer = await client.GetAsync(uri, cancel);
                if (!answer.IsSuccessStatusCode) throw new DraftException($"cannot fetch {source}: status {(int)answer.StatusCode} {answer.ReasonPhrase}");
                return await answer.Content.ReadAsStringAsync(cancel);
            }
            catch (HttpRequestException e) { throw new DraftException($"cannot fetch {source}: {e.Message}"); }
            catch (TaskCanceledException) when (!cancel.IsCancellationRequested) { throw new DraftException($"cannot fetch {source}: no answer in {FetchTimeout.TotalSeconds:0} s"); }
        }
        try { return await File.ReadAllTextAsync(source, cancel); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException)
        { throw new DraftException($"cannot read {source}: {e.Message}"); }
    }

    private static Dictionary<string, string?> ReadMap(string file)
    {
        try { return JsonSerializer.Deserialize<Dictionary<string, string?>>(File.ReadAllText(file)) ?? throw new JsonException("null"); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException)
        { throw Usage($"--map {file}: cannot read it: {e.Message}"); }
        catch (JsonException)
        { throw Usage($"--map {file}: expected a JSON object of WSDL operation names to OpenAPI operationIds (or null, to leave one out), e.g. {{\"PlaceOrder\": \"createOrder\", \"health\": null}}"); }
    }
}
