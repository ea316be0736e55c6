using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Threading.Tasks;
using System.Xml.Linq;
using Comparator.Results;
using Comparator.Scenarios.Drafting;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The project's own services publish their documents, wcf-classic its WSDL at GET /soap?wsdl (schemas
/// at ?xsd=xsd0, ...) and aspnetcore its OpenAPI document at /openapi/v1.json, and `scenario draft`
/// makes of them, with a map for what the two do not share, a scenario that verifies and runs with no
/// failed request. The documents are saved in tests/Fixtures/draft (wcf-classic.*, aspnetcore.openapi.json),
/// as served but for the origin (127.0.0.1:8080 and 127.0.0.1:5000), so their draft is tested without
/// processes too; the live test fails when a service's document drifts from its saved copy.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class OwnDocumentsDraftTests : IClassFixture<OwnDocumentsDraftTests.Served>, IDisposable
{
    private const string SavedWcfOrigin = "http://127.0.0.1:8080";
    private const string SavedRestOrigin = "http://127.0.0.1:5000";

    /// <summary>What each document is saved as, by the address the service serves it at.</summary>
    private static readonly (string Path, string File)[] Documents =
    {
        ("/soap?wsdl", "wcf-classic.wsdl"), ("/soap?wsdl=wsdl0", "wcf-classic.wsdl0.wsdl"),
        ("/soap?xsd=xsd0", "wcf-classic.xsd0.xsd"), ("/soap?xsd=xsd1", "wcf-classic.xsd1.xsd"),
    };

    private readonly Served _served;
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("own-draft-");

    public OwnDocumentsDraftTests(Served served) => _served = served;

    public void Dispose() => _dir.Delete(recursive: true);

    private static string Fixture(string name) => Path.Combine(AppContext.BaseDirectory, "Fixtures", "draft", name);

    /// <summary>The saved WSDL and what it imports, each read from its file by the URL it is named by.</summary>
    private static Task<IReadOnlyList<DraftRequest>> SavedSoapAsync() =>
        WsdlDraft.ReadAsync(SavedWcfOrigin + "/soap?wsdl", url => Task.FromResult(File.ReadAllText(Fixture(Documents.Single(d => SavedWcfOrigin + d.Path == url).File))));

    private static IReadOnlyList<DraftRequest> SavedRest() =>
        OpenApiDraft.Read(File.ReadAllText(Fixture("aspnetcore.openapi.json")), SavedRestOrigin + "/openapi/v1.json");

    [Fact]
    public async Task The_saved_documents_draft_soap_requests_with_their_actions_and_rest_requests_in_their_media_types()
    {
        var soap = await SavedSoapAsync();
        var rest = SavedRest();

        Assert.Equal(new[] { "Echo", "Time" }, soap.Select(r => r.Name));
        var echo = soap[0];
        Assert.Equal(("POST", "/soap", SavedWcfOrigin), (echo.Method, echo.Path, echo.Origin));
        Assert.Contains(new KeyValuePair<string, string>("SOAPAction", "\"urn:comparator/ISoapContract/Echo\""), echo.Headers);
        XNamespace s = WsdlDraft.Soap11Envelope, contract = "urn:comparator";
        Assert.Equal("text", XDocument.Parse(echo.Body!).Root!.Element(s + "Body")!.Element(contract + "Echo")!.Element(contract + "text")!.Value);
        Assert.Contains(new KeyValuePair<string, string>("SOAPAction", "\"urn:comparator/ISoapContract/Time\""), soap[1].Headers);

        Assert.Equal(new[] { "time", "json", "echo", "streamEcho" }, rest.Select(r => r.Name));
        Assert.All(rest, r => Assert.Equal((SavedRestOrigin, 200), (r.Origin, r.Status)));
        var byName = rest.ToDictionary(r => r.Name);
        Assert.Equal(("GET", "/api/time", (string?)null), (byName["time"].Method, byName["time"].Path, byName["time"].Body));
        Assert.Equal(new[] { KeyValuePair.Create("Accept", "text/plain") }, byName["time"].Headers);
        Assert.Equal(("GET", "/api/json"), (byName["json"].Method, byName["json"].Path)); // items is optional: not sent
        Assert.Contains(KeyValuePair.Create("Accept", "application/json"), byName["json"].Headers);
        foreach (var (name, method, path) in new[] { ("echo", "POST", "/api/echo"), ("streamEcho", "PUT", "/api/stream/echo") })
        {
            var r = byName[name];
            // Raw bytes in, raw bytes out: sent as what the document names, not as JSON.
            Assert.Equal((method, path, "text", "bin"), (r.Method, r.Path, r.Body, r.BodyExtension));
            Assert.Equal(new[] { KeyValuePair.Create("Accept", "application/octet-stream"), KeyValuePair.Create("Content-Type", "application/octet-stream") }, r.Headers);
        }
    }

    [Fact]
    public async Task The_saved_documents_pair_by_name_and_a_map_leaves_out_what_only_rest_has_or_names_an_operation_by_its_route()
    {
        var soap = await SavedSoapAsync();
        var rest = SavedRest();

        var byName = ScenarioDraft.Pairs(soap, rest, new Dictionary<string, string?>());
        Assert.Equal(new[] { "json", "streamEcho" }, byName.Unpaired.Select(p => p.Name));
        Assert.Equal("json (aspnetcore only), streamEcho (aspnetcore only)", byName.UnpairedList("wcf-classic", "aspnetcore"));

        var mapped = ScenarioDraft.Pairs(soap, rest, new Dictionary<string, string?> { ["json"] = null, ["PUT /api/stream/echo"] = null });
        Assert.Equal(new[] { ("Echo", "echo"), ("Time", "time") }, mapped.Operations.Select(p => (p.Soap!.Name, p.Rest!.Name)));
        Assert.Empty(mapped.Unpaired);
        Assert.Equal(new[] { "json", "PUT /api/stream/echo" }, mapped.LeftOut);

        var byRoute = ScenarioDraft.Pairs(soap, rest, new Dictionary<string, string?> { ["Time"] = "GET /api/json" });
        Assert.Equal("json", byRoute.Operations.Single(p => p.Name == "Time").Rest!.Name);
    }

    [Fact]
    public async Task The_services_publish_their_documents_as_saved_and_the_soap_address_still_refuses_a_plain_get()
    {
        foreach (var (path, file) in Documents)
            await AssertServedAsSaved(new Uri(_served.Wcf + path), "text/xml", _served.Wcf, SavedWcfOrigin, file);
        await AssertServedAsSaved(new Uri(_served.Rest + "/openapi/v1.json"), "application/json", _served.Rest, SavedRestOrigin, "aspnetcore.openapi.json");

        using var plain = await _served.Http.GetAsync(_served.Wcf + "/soap");
        Assert.Equal(HttpStatusCode.MethodNotAllowed, plain.StatusCode);
        using var none = await _served.Http.GetAsync(_served.Wcf + "/soap?xsd=xsd9");
        Assert.Equal(HttpStatusCode.NotFound, none.StatusCode);
    }

    private async Task AssertServedAsSaved(Uri url, string mediaType, string origin, string savedOrigin, string file)
    {
        using var response = await _served.Http.GetAsync(url);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(mediaType, response.Content.Headers.ContentType?.MediaType);
        var text = (await response.Content.ReadAsStringAsync()).Replace(origin, savedOrigin, StringComparison.Ordinal);
        Assert.True(text == File.ReadAllText(Fixture(file)), $"{url} differs from tests/Fixtures/draft/{file} (save it again, the origin as {savedOrigin}):\n{text}");
    }

    [Fact]
    public async Task A_draft_of_the_running_services_with_a_map_for_what_they_do_not_share_verifies_and_runs_without_a_failed_request()
    {
        var file = Path.Combine(_dir.FullName, "own.json");
        var draft = new[] { "scenario", "draft", "--wsdl", _served.Wcf + "/soap?wsdl", "--openapi", _served.Rest + "/openapi/v1.json",
            "--wcf-target", "wcf-classic", "--rest-target", "aspnetcore", "--out", file };
        var targets = new[] { "--target", "wcf-classic=" + _served.Wcf, "--target", "aspnetcore=" + _served.Rest };

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(draft);
        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        Assert.Contains(string.Join(" ", targets), stdout); // the verify line names the services' own addresses
        Assert.Equal("scenario draft: unpaired (in the file, asked of one target only): json (aspnetcore only), streamEcho (aspnetcore only)", stderr.Trim());

        var map = Path.Combine(_dir.FullName, "map.json");
        File.WriteAllText(map, """{ "json": null, "streamEcho": null }""");
        (exit, stdout, stderr) = await ComparatorProcess.RunAsync(draft.Concat(new[] { "--map", map, "--force" }).ToArray());
        Assert.True(exit == 0 && stderr == "", $"exit {exit}\n{stdout}\n{stderr}");

        (exit, stdout, stderr) = await ComparatorProcess.RunAsync(new[] { "verify", "--scenario", file }.Concat(targets).ToArray());
        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        Assert.Contains("verify: all 4 answers of 2 operation(s) passed", stdout);

        var outDir = Path.Combine(_dir.FullName, "out");
        (exit, stdout, stderr) = await ComparatorProcess.RunAsync(new[] { "run", "--scenario", file, "--out", outDir, "--quick",
            "--warmup", "0.2s", "--first-warmup", "0.2s", "--duration", "0.5s" }.Concat(targets).ToArray());
        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(new DirectoryInfo(outDir).GetDirectories()).FullName, "results.json")), "results.json");
        Assert.Equal(new[] { "Echo", "Time" }, run.Cells.Select(c => c.Key.Endpoint).Distinct());
        Assert.Equal(4, run.Cells.Count);
        Assert.All(run.Cells, c => Assert.True(c.Summary is { Requests: > 0, Failed: 0 }, $"{c.Key}: {string.Join("; ", c.Repeats.SelectMany(r => r.FailureSamples))}"));
    }

    /// <summary>wcf-classic and aspnetcore as `comparator serve` leaves them, once for the class.</summary>
    [Trait(TestTiers.Trait, TestTiers.Processes)]
    public sealed class Served : IAsyncLifetime
    {
        private ComparatorProcess.Watched? _serve;

        public HttpClient Http { get; } = new() { Timeout = TimeSpan.FromSeconds(30) };
        public string Wcf { get; private set; } = "";
        public string Rest { get; private set; } = "";

        public async Task InitializeAsync()
        {
            _serve = await ComparatorProcess.StartAndWaitForAsync("ready", "serve", "--targets", "wcf-classic,aspnetcore");
            var urls = _serve.Stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                .Select(l => l.Split(' ')).Where(f => f.Length == 2 && f[1].StartsWith("http://", StringComparison.Ordinal)).ToDictionary(f => f[0], f => f[1]);
            (Wcf, Rest) = (urls["wcf-classic"], urls["aspnetcore"]);
        }

        public Task DisposeAsync()
        {
            Http.Dispose();
            _serve?.Dispose();
            return Task.CompletedTask;
        }
    }
}
