using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using System.Xml.Linq;
using Comparator.Scenarios;
using Comparator.Scenarios.Drafting;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// `comparator scenario draft`: a scenario drafted from a WSDL (in the shape WCF's BasicHttpBinding
/// publishes) and an OpenAPI 3.0 document (JSON or YAML; Swagger 2.0 too) reads back as a scenario, pairs operations by name and
/// through --map, keeps the unpaired ones, fills the bodies with sample values, and refuses bad input
/// with one line and exit 2.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class ScenarioDraftTests : IDisposable
{
    private static readonly string Fixtures = Path.Combine(AppContext.BaseDirectory, "Fixtures", "draft");
    private static string Fixture(string name) => Path.Combine(Fixtures, name);

    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("comparator-draft-");
    private string Out => Path.Combine(_dir.FullName, "orders.json");

    public void Dispose() => _dir.Delete(recursive: true);

    private async Task<(Scenario Scenario, string Stdout, string Stderr)> DraftAsync(params string[] extra)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(
            new[] { "scenario", "draft", "--wsdl", Fixture("orders.wsdl"), "--openapi", Fixture("orders.openapi.json"), "--out", Out }.Concat(extra).ToArray());
        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        return (ScenarioParser.Load(Out, _dir.FullName), stdout, stderr);
    }

    private static Operation Op(Scenario s, string name) => Assert.Single(s.Operations, o => o.Name == name);

    [Fact]
    public async Task The_draft_reads_back_pairs_by_name_and_keeps_and_names_the_unpaired()
    {
        var (scenario, stdout, stderr) = await DraftAsync();

        Assert.Contains($"next: edit it, then comparator verify --scenario {Out} --target wcf-classic=http://localhost:8080 --target webapi-selfhost=http://localhost:5000", stdout);
        Assert.Equal(new[] { "GetOrder", "PlaceOrder", "Ping", "createOrder", "health" }, scenario.Operations.Select(o => o.Name));
        var get = Op(scenario, "GetOrder");
        Assert.Equal(new[] { "wcf-classic", "webapi-selfhost" }, get.PerTarget.Keys.OrderBy(k => k));
        var soap = get.PerTarget["wcf-classic"];
        Assert.Equal(("POST", "/OrderService.svc"), (soap.Method, soap.PathAndQuery));
        Assert.Contains(new KeyValuePair<string, string>("SOAPAction", "\"http://tempuri.org/IOrderService/GetOrder\""), soap.Headers);
        Assert.Contains(new KeyValuePair<string, string>("Content-Type", "text/xml; charset=utf-8"), soap.Headers);
        var rest = get.PerTarget["webapi-selfhost"];
        Assert.Equal(("GET", "/api/orders/1", (byte[]?)null), (rest.Method, rest.PathAndQuery, rest.Body));
        Assert.Equal(new[] { 200 }, rest.Expect!.Status);

        Assert.Equal(new[] { "wcf-classic" }, Op(scenario, "Ping").PerTarget.Keys);
        Assert.Equal(new[] { "webapi-selfhost" }, Op(scenario, "health").PerTarget.Keys);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Equal("scenario draft: unpaired (in the file, asked of one target only): " +
                     "PlaceOrder (wcf-classic only), Ping (wcf-classic only), createOrder (webapi-selfhost only), health (webapi-selfhost only)", line);
        Assert.Contains("Unpaired, asked of one target only", File.ReadAllText(Out));
    }

    [Fact]
    public async Task A_map_pairs_operations_whose_names_differ_for_the_targets_named()
    {
        var (scenario, _, stderr) = await DraftAsync("--map", Fixture("map.json"), "--wcf-target", "old", "--rest-target", "new");

        Assert.DoesNotContain(scenario.Operations, o => o.Name == "createOrder");
        var place = Op(scenario, "PlaceOrder");
        Assert.Equal(new[] { "new", "old" }, place.PerTarget.Keys.OrderBy(k => k));
        var rest = place.PerTarget["new"];
        Assert.Equal(("POST", "/api/orders"), (rest.Method, rest.PathAndQuery));
        Assert.Contains(new KeyValuePair<string, string>("Content-Type", "application/json"), rest.Headers);
        Assert.Equal("""{"customer":"text","lines":[{"sku":"text","quantity":1}],"placedAt":"2024-01-01T12:00:00Z","rush":true}""",
            System.Text.Json.Nodes.JsonNode.Parse(rest.Body!)!.ToJsonString());
        Assert.Equal(new[] { 200 }, rest.Expect!.Status); // the lowest documented 2xx of 200 and 201
        Assert.Contains("Paired by --map: PlaceOrder = createOrder.", File.ReadAllText(Out));
        Assert.Contains("Ping (old only), health (new only)", stderr);
    }

    [Fact]
    public async Task A_map_leaves_out_what_it_sends_to_null_and_refuses_a_name_neither_document_has()
    {
        var map = Path.Combine(_dir.FullName, "map.json");
        File.WriteAllText(map, """{ "PlaceOrder": "createOrder", "Ping": null, "health": null }""");
        var (scenario, _, stderr) = await DraftAsync("--map", map);

        Assert.Equal(new[] { "GetOrder", "PlaceOrder" }, scenario.Operations.Select(o => o.Name));
        Assert.Equal("", stderr); // nothing left unpaired
        Assert.Contains("Left out by --map: Ping, health.", File.ReadAllText(Out));

        File.WriteAllText(map, """{ "Cancel": null }""");
        var (exit, _, error) = await ComparatorProcess.RunAsync("scenario", "draft", "--wsdl", Fixture("orders.wsdl"), "--openapi", Fixture("orders.openapi.json"), "--map", map, "--out", Out, "--force");
        Assert.Equal((2, "error: scenario draft: --map leaves out 'Cancel', which is no operation of the WSDL or the OpenAPI document"), (exit, error.Trim()));
    }

    [Fact]
    public async Task The_envelopes_carry_sample_values_and_the_rule_wants_the_operations_response()
    {
        var (scenario, _, _) = await DraftAsync();

        var soap = Op(scenario, "PlaceOrder").PerTarget["wcf-classic"];
        Assert.Equal("orders/PlaceOrder.soap.xml", soap.BodyFile);
        var envelope = XDocument.Parse(Encoding.UTF8.GetString(soap.Body!));
        XNamespace s = WsdlDraft.Soap11Envelope, tns = "http://tempuri.org/", dc = "http://schemas.datacontract.org/2004/07/Orders";
        var order = envelope.Root!.Element(s + "Body")!.Element(tns + "PlaceOrder")!.Element(tns + "order")!;
        Assert.Equal("text", order.Element(dc + "Customer")!.Value);
        Assert.Equal("2024-01-01T12:00:00Z", order.Element(dc + "PlacedAt")!.Value);
        Assert.Equal("true", order.Element(dc + "Rush")!.Value);
        var line = order.Element(dc + "Lines")!.Element(dc + "OrderLine")!;
        Assert.Equal(("1", "text"), (line.Element(dc + "Quantity")!.Value, line.Element(dc + "Sku")!.Value));
        Assert.Contains("<orderId>1</orderId>", Encoding.UTF8.GetString(Op(scenario, "GetOrder").PerTarget["wcf-classic"].Body!));

        var expect = soap.Expect!;
        Assert.Null(AnswerRules.Check(expect, 200, Encoding.UTF8.GetBytes(
            "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><PlaceOrderResponse xmlns=\"http://tempuri.org/\"><PlaceOrderResult>true</PlaceOrderResult></PlaceOrderResponse></s:Body></s:Envelope>")));
        Assert.NotNull(AnswerRules.Check(expect, 200, Encoding.UTF8.GetBytes(
            "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>no</faultstring></s:Fault></s:Body></s:Envelope>")));
    }

    [Fact]
    public async Task A_wsdl_split_as_wcf_publishes_it_is_followed_through_its_imports_from_files_and_over_http()
    {
        var fromFiles = await DraftWsdlAsync(Fixture("orders-split.wsdl"));
        Assert.Equal(new[] { "GetOrder", "PlaceOrder", "Ping" }, fromFiles.Operations.Select(o => o.Name));
        Assert.Contains("<Sku>text</Sku>", Encoding.UTF8.GetString(Op(fromFiles, "PlaceOrder").PerTarget["wcf-classic"].Body!));

        using var server = new System.Net.HttpListener();
        var port = FreePort();
        server.Prefixes.Add($"http://127.0.0.1:{port}/");
        server.Start();
        var serving = Task.Run(async () =>
        {
            while (server.IsListening)
            {
                var context = await server.GetContextAsync();
                var file = Fixture(context.Request.Url!.Segments[^1]);
                context.Response.StatusCode = File.Exists(file) ? 200 : 404;
                if (File.Exists(file)) await context.Response.OutputStream.WriteAsync(File.ReadAllBytes(file));
                context.Response.Close();
            }
        });
        var fromUrl = await DraftWsdlAsync($"http://127.0.0.1:{port}/docs/orders-split.wsdl", "--force");
        Assert.Equal(File.ReadAllText(Path.Combine(_dir.FullName, "orders", "PlaceOrder.soap.xml")),
            Encoding.UTF8.GetString(Op(fromFiles, "PlaceOrder").PerTarget["wcf-classic"].Body!));
        Assert.Equal(3, fromUrl.Operations.Count);
        server.Stop();
    }

    private static int FreePort()
    {
        var l = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        l.Start();
        var port = ((System.Net.IPEndPoint)l.LocalEndpoint).Port;
        l.Stop();
        return port;
    }

    private async Task<Scenario> DraftWsdlAsync(string wsdl, params string[] extra)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(new[] { "scenario", "draft", "--wsdl", wsdl, "--out", Out }.Concat(extra).ToArray());
        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        Assert.Equal("", stderr); // one document: nothing is unpaired
        return ScenarioParser.Load(Out, _dir.FullName);
    }

    [Fact]
    public void A_soap12_binding_sends_its_action_in_the_content_type()
    {
        var wsdl = File.ReadAllText(Fixture("orders.wsdl")).Replace("http://schemas.xmlsoap.org/wsdl/soap/", "http://schemas.xmlsoap.org/wsdl/soap12/");
        var get = Assert.Single(WsdlDraft.Read(wsdl, "soap12.wsdl"), r => r.Name == "GetOrder");

        Assert.Equal(new[] { new KeyValuePair<string, string>("Content-Type", "application/soap+xml; charset=utf-8; action=\"http://tempuri.org/IOrderService/GetOrder\"") }, get.Headers);
        Assert.Equal(WsdlDraft.Soap12Envelope, XDocument.Parse(get.Body!).Root!.Name.NamespaceName);
    }

    [Fact]
    public void A_wsdl_with_soap11_and_soap12_bindings_gives_both_the_soap12_ones_named_apart()
    {
        var wsdl = File.ReadAllText(Fixture("orders.wsdl"));
        var binding = wsdl[wsdl.IndexOf("  <wsdl:binding", StringComparison.Ordinal)..(wsdl.IndexOf("</wsdl:binding>", StringComparison.Ordinal) + "</wsdl:binding>".Length)];
        var soap12 = binding.Replace("soap:", "soap12:").Replace("BasicHttpBinding_IOrderService", "WSHttpBinding_IOrderService");
        wsdl = wsdl.Replace(binding, binding + "\n" + soap12)
            .Replace("xmlns:wsdl=", "xmlns:soap12=\"http://schemas.xmlsoap.org/wsdl/soap12/\" xmlns:wsdl=")
            .Replace("  </wsdl:service>", "    <wsdl:port name=\"WSHttpBinding_IOrderService\" binding=\"tns:WSHttpBinding_IOrderService\"><soap12:address location=\"http://localhost:8080/OrderService.svc/ws\" /></wsdl:port>\n  </wsdl:service>");

        var requests = WsdlDraft.Read(wsdl, "both.wsdl");

        Assert.Equal(new[] { "GetOrder", "PlaceOrder", "Ping", "GetOrder-soap12", "PlaceOrder-soap12", "Ping-soap12" }, requests.Select(r => r.Name));
        Assert.Equal("/OrderService.svc/ws", requests.Single(r => r.Name == "Ping-soap12").Path);
        Assert.StartsWith("application/soap+xml", requests.Single(r => r.Name == "Ping-soap12").Headers[0].Value);
    }

    [Fact]
    public void A_swagger_2_document_gives_its_base_path_parameters_body_and_status()
    {
        const string swagger = """
            { "swagger": "2.0", "info": { "title": "Items", "version": "1" }, "basePath": "/v1",
              "paths": { "/items/{id}": { "put": { "operationId": "PutItem",
                "parameters": [ { "name": "id", "in": "path", "required": true, "type": "integer" },
                                { "name": "mode", "in": "query", "required": true, "type": "string", "enum": ["fast", "slow"] },
                                { "name": "item", "in": "body", "schema": { "$ref": "#/definitions/Item" } } ],
                "responses": { "204": { "description": "done" }, "400": { "description": "bad" } } } } },
              "definitions": { "Item": { "type": "object", "properties": { "id": { "type": "string", "format": "uuid" }, "tags": { "type": "array", "items": { "type": "string" } } } } } }
            """;
        var put = Assert.Single(OpenApiDraft.Read(swagger, "swagger.json"));

        Assert.Equal(("PUT", "/v1/items/1?mode=fast", 204), (put.Method, put.Path, put.Status));
        Assert.Equal("""{"id":"00000000-0000-0000-0000-000000000001","tags":["text"]}""", System.Text.Json.Nodes.JsonNode.Parse(put.Body!)!.ToJsonString());
        Assert.Null(put.Origin);

        var hosted = Assert.Single(OpenApiDraft.Read(swagger.Replace("\"basePath\"", "\"host\": \"items:8081\", \"schemes\": [\"https\"], \"basePath\""), "swagger.json"));
        Assert.Equal(("https://items:8081", "/v1/items/1?mode=fast"), (hosted.Origin, hosted.Path));
    }

    [Fact]
    public void A_body_that_is_not_json_is_sent_as_its_media_type_and_the_accept_is_the_answers_documented_types()
    {
        const string openApi = """
            { "openapi": "3.0.1", "info": { "title": "Notes", "version": "1" }, "paths": {
              "/notes": { "post": { "operationId": "addNote", "requestBody": { "content": { "text/plain": { "schema": { "type": "string" } } } },
                "responses": { "201": { "description": "added", "content": { "text/plain": {}, "application/json": {} } } } } },
              "/blobs": { "put": { "operationId": "putBlob", "requestBody": { "content": { "*/*": { "schema": { "type": "string", "format": "binary" } } } },
                "responses": { "204": { "description": "stored" } } } } } }
            """;
        var drafted = OpenApiDraft.Read(openApi, "notes.json").ToDictionary(r => r.Name);

        var note = drafted["addNote"];
        Assert.Equal(("text", "txt", 201), (note.Body, note.BodyExtension, note.Status));
        Assert.Equal(new[] { KeyValuePair.Create("Accept", "application/json, text/plain"), KeyValuePair.Create("Content-Type", "text/plain") }, note.Headers);
        var blob = drafted["putBlob"];
        Assert.Equal(("text", "bin"), (blob.Body, blob.BodyExtension));
        Assert.Equal(new[] { KeyValuePair.Create("Content-Type", "application/octet-stream") }, blob.Headers); // no documented answer type: no Accept
    }

    [Fact]
    public void A_yaml_document_drafts_the_same_operations_as_its_json_twin()
    {
        var fromJson = OpenApiDraft.Read(File.ReadAllText(Fixture("orders.openapi.json")), "orders.openapi.json");
        var fromYaml = OpenApiDraft.Read(File.ReadAllText(Fixture("orders.openapi.yaml")), "orders.openapi.yaml");

        Assert.Equal(new[] { "getOrder", "createOrder", "health" }, fromYaml.Select(r => r.Name));
        Assert.Equal(fromJson.Select(Shown), fromYaml.Select(Shown));
        static string Shown(DraftRequest r) => $"{r.Name} {r.Method} {r.Path} {r.Status} {r.Origin} {string.Join(";", r.Headers)}\n{r.Body}";
    }

    [Fact]
    public void A_document_the_reader_reports_errors_for_is_refused_naming_the_first()
    {
        var e = Assert.Throws<DraftException>(() => OpenApiDraft.Read("""{ "openapi": "3.0.1", "paths": {} }""", "no-info.json"));

        Assert.StartsWith("no-info.json: the OpenAPI reader reports ", e.Message);
        Assert.Contains("'info'", e.Message);
    }

    [Fact]
    public void A_schema_that_contains_itself_gives_a_sample_of_limited_depth()
    {
        const string openApi = """
            { "openapi": "3.0.1", "info": { "title": "Nodes", "version": "1" }, "paths": { "/nodes": { "post": { "operationId": "addNode",
                "requestBody": { "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Node" } } } }, "responses": { "200": { "description": "added" } } } } },
              "components": { "schemas": { "Node": { "type": "object", "properties": { "name": { "type": "string" }, "child": { "$ref": "#/components/schemas/Node" } } } } } }
            """;
        var body = Assert.Single(OpenApiDraft.Read(openApi, "nodes.json")).Body!;

        var depth = 0;
        for (var node = System.Text.Json.Nodes.JsonNode.Parse(body); node?["child"] is not null; node = node["child"]) depth++;
        Assert.InRange(depth, 1, JsonSchemaSample.MaxDepth);
    }

    public static IEnumerable<object[]> BadInput()
    {
        yield return new object[] { new[] { "--out", "x.json" }, "give --wsdl URL|FILE, --openapi URL|FILE, or both" };
        yield return new object[] { new[] { "--wsdl", "no-such.wsdl" }, "cannot read no-such.wsdl" };
        yield return new object[] { new[] { "--wsdl", Fixture("orders.openapi.json") }, "is not a WSDL document" };
        yield return new object[] { new[] { "--openapi", Fixture("orders.wsdl") }, "is not a JSON or YAML OpenAPI document" };
        yield return new object[] { new[] { "--openapi", Fixture("map.json") }, "is not a JSON or YAML OpenAPI document: Version node not found" };
        yield return new object[] { new[] { "--openapi", "http://127.0.0.1:1/swagger.json" }, "cannot fetch http://127.0.0.1:1/swagger.json" };
        yield return new object[] { new[] { "--wsdl", Fixture("orders.wsdl"), "--map", "no-such-map.json" }, "--map no-such-map.json: cannot read it" };
        yield return new object[] { new[] { "--wsdl", Fixture("orders.wsdl"), "--map", Fixture("orders.wsdl") }, "expected a JSON object of WSDL operation names" };
        yield return new object[] { new[] { "--wsdl", Fixture("orders.wsdl"), "--openapi", Fixture("orders.openapi.json"), "--map", Fixture("bad-map.json") }, "--map names 'Cancel'" };
    }

    [Theory]
    [MemberData(nameof(BadInput))]
    public async Task Bad_input_exits_2_with_one_line(string[] args, string expected)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(new[] { "scenario", "draft" }.Concat(args).Select(a => a == "x.json" ? Out : a).ToArray());

        Assert.True(exit == 2, $"exit {exit}\n{stdout}\n{stderr}");
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("error: scenario draft: ", line);
        Assert.Contains(expected, line);
        Assert.False(File.Exists(Out));
    }

    [Fact]
    public async Task An_existing_draft_is_kept_unless_forced()
    {
        await DraftAsync();
        File.WriteAllText(Out, "{ \"operations\": [] } // edited");

        var (exit, _, stderr) = await ComparatorProcess.RunAsync("scenario", "draft", "--wsdl", Fixture("orders.wsdl"), "--out", Out);
        Assert.Equal(2, exit);
        Assert.Equal($"error: scenario draft: {Out} exists (an edited draft?); give another --out, or --force to overwrite it", stderr.Trim());
        Assert.EndsWith("// edited", File.ReadAllText(Out));

        Assert.Equal(3, (await DraftWsdlAsync(Fixture("orders.wsdl"), "--force")).Operations.Count);
    }

    [Fact]
    public async Task Help_names_the_options()
    {
        var (exit, stdout, _) = await ComparatorProcess.RunAsync("scenario", "draft", "--help");

        Assert.Equal(0, exit);
        foreach (var option in new[] { "--wsdl", "--openapi", "--map", "--wcf-target", "--rest-target", "--out", "--force" }) Assert.Contains(option, stdout);
    }

    [Fact]
    public void The_docs_check_reads_the_options_of_a_subcommand()
    {
        var problems = DocsTests.CommandProblems("`comparator scenario draft --wsdl a.wsdl --nope 1` and `comparator scenario frobnicate`", out var checkedLines);

        Assert.Equal(2, checkedLines);
        Assert.Equal(new[] { "comparator scenario draft --wsdl a.wsdl --nope 1: 'draft' has no option --nope", "comparator scenario frobnicate: 'scenario' has no command 'frobnicate'" }, problems);
    }
}
