using System;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using Comparator.Scenarios;
using Xunit;

namespace Comparator.Tests;

/// <summary>Scenario files: what a good one resolves to, and the one line each bad one gets before any load.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class ScenarioTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("scenario-tests-");
    private readonly string _payloads;

    public ScenarioTests()
    {
        _payloads = Directory.CreateDirectory(Path.Combine(_dir.FullName, "payloads")).FullName;
        File.WriteAllText(Path.Combine(_payloads, "order.json"), "{\"id\":42}");
        File.WriteAllText(Path.Combine(_dir.FullName, "local.xml"), "<order/>");
    }

    public void Dispose() => _dir.Delete(recursive: true);

    private Scenario Parse(string json) => ScenarioParser.Parse(json, Path.Combine(_dir.FullName, "s.json"), _payloads);

    private string Refused(string json) => Assert.Throws<ScenarioException>(() => Parse(json)).Message;

    private const string Good = """
        {
          "operations": [
            { "name": "get-order",
              "targets": {
                "old": { "path": "/OrderService.svc/GetOrder?id=42", "headers": { "Accept": "application/json" } },
                "new": { "path": "/api/orders/42" } },
              "expect": { "status": 200, "body": { "json-equal": { "name": "x", "id": 42 } } } },
            { "name": "create-order",
              "request": { "method": "POST", "path": "/api/orders", "body": "payloads/order.json", "headers": { "Content-Type": "application/json" } },
              "targets": { "old": { "method": "POST", "path": "/OrderService.svc/Create", "body": "local.xml" } },
              "expect": { "status": [200, 201], "body": { "same-as": "new" } } }
          ]
        }
        """;

    [Fact]
    public void A_good_file_names_each_operation_and_how_each_target_is_asked()
    {
        var scenario = Parse(Good);

        Assert.Equal(new[] { "get-order", "create-order" }, scenario.Operations.Select(o => o.Name));
        var create = scenario.Operations[1];
        Assert.Equal("/api/orders", Scenario.RequestFor(create, "new")!.PathAndQuery);
        Assert.Equal("{\"id\":42}", Encoding.UTF8.GetString(Scenario.RequestFor(create, "new")!.Body!));
        Assert.Equal("<order/>", Encoding.UTF8.GetString(Scenario.RequestFor(create, "old")!.Body!));
        Assert.Equal(new[] { 200, 201 }, create.Expect.Status);
        Assert.Null(Scenario.RequestFor(scenario.Operations[0], "third")); // no default request for get-order
        Assert.Equal("GET", Scenario.RequestFor(scenario.Operations[0], "old")!.Method);
    }

    [Fact]
    public void An_unknown_field_is_named_with_its_line()
    {
        var message = Refused("{\n  \"operations\": [\n    { \"name\": \"a\", \"requst\": { \"path\": \"/x\" } }\n  ]\n}");
        Assert.Contains("line 3", message);
        Assert.Contains("unknown field 'requst'", message);
    }

    [Theory]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "/x", "body": "payloads/none.bin" } } ] }""", "$.operations[0].request.body: no body file")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "x y" } } ] }""", "$.operations[0].request.path: expected a path")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "/x" } }, { "name": "a", "request": { "path": "/y" } } ] }""", "duplicate operation name 'a'")]
    [InlineData("""{ "operations": [ { "name": "a" } ] }""", "expected \"request\"")]
    [InlineData("""{ "operations": [] }""", "$.operations: expected a list of one or more operations")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "/x" }, "expect": { "status": 700 } } ] }""", "expected a status code")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "/x" }, "expect": { "body": { "exact": "1", "contains": "2" } } } ] }""", "expected exactly one of")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "/x", "method": "GE T" } } ] }""", "expected an HTTP method")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "/x" }, "expect": { "body": { "regex": "(" } } } ] }""", "expected a .NET regular expression")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": 5 } } ] }""", "line 1")]
    [InlineData("""{ "operations": [ { "name": "a", """, "line 1")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "/x", "body": "payloads/{size}.json" } } ] }""", "$.operations[0].request.body: the path has {size} but the operation gives no \"sizes\"")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "/x", "body": "payloads/order.json" }, "sizes": ["1KB"] } ] }""", "$.operations[0].sizes: sizes are given but no body path has {size}")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "/x", "body": "payloads/{size}.json" }, "sizes": ["big"] } ] }""", "$.operations[0].sizes: expected sizes such as 500B")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "/x", "body": "payloads/{size}.json" }, "sizes": ["1KB", "1024"] } ] }""", "size '1024' is given twice")]
    [InlineData("""{ "operations": [ { "name": "a", "request": { "path": "/x", "expect": { "status": "ok" } } } ] }""", "$.operations[0].request.expect.status: expected a status code")]
    public void A_bad_file_gets_one_line_naming_the_file_and_the_field(string json, string expected)
    {
        var message = Refused(json);
        Assert.StartsWith("scenario " + Path.Combine(_dir.FullName, "s.json"), message);
        Assert.Contains(expected, message);
        Assert.DoesNotContain("\n", message);
    }

    [Fact]
    public void Sizes_make_one_operation_per_size_each_with_its_own_body_file()
    {
        File.WriteAllText(Path.Combine(_payloads, "order-1KB.json"), new string('a', 1024));
        File.WriteAllText(Path.Combine(_payloads, "order-4KB.json"), new string('b', 4096));

        var scenario = Parse("""{ "operations": [ { "name": "create", "sizes": ["1KB", "4KB"], "request": { "method": "PUT", "path": "/o", "body": "payloads/order-{size}.json" } } ] }""");

        Assert.Equal(new[] { "create 1KB", "create 4KB" }, scenario.Operations.Select(o => o.Label));
        Assert.Equal(new long[] { 1024, 4096 }, scenario.Operations.Select(o => o.Size!.Bytes));
        Assert.Equal(new[] { 1024, 4096 }, scenario.Operations.Select(o => Scenario.RequestFor(o, "any")!.Body!.Length));
        Assert.Equal("payloads/order-4KB.json", Scenario.RequestFor(scenario.Operations[1], "any")!.BodyFile);
        // A body without a type goes out as bytes, alike from every driver.
        Assert.Contains(new System.Collections.Generic.KeyValuePair<string, string>("Content-Type", "application/octet-stream"), Scenario.RequestFor(scenario.Operations[0], "any")!.Headers);
    }

    [Fact]
    public void A_target_may_have_its_own_rule_for_a_correct_answer()
    {
        var scenario = Parse("""
            { "operations": [ { "name": "echo",
                "request": { "method": "POST", "path": "/api/echo", "body": "payloads/order.json" },
                "targets": { "soap": { "method": "POST", "path": "/soap", "body": "local.xml", "expect": { "status": 200, "body": { "contains": "<EchoResult>" } } } },
                "expect": { "status": 200, "body": { "exact": "{\"id\":42}" } } } ] }
            """);
        var echo = scenario.Operations[0];

        Assert.IsType<BodyRule.Contains>(Scenario.ExpectFor(echo, "soap").Body);
        Assert.IsType<BodyRule.Exact>(Scenario.ExpectFor(echo, "rest").Body);
        Assert.Null(AnswerRules.Check(Scenario.ExpectFor(echo, "soap"), 200, Encoding.UTF8.GetBytes("<s:Envelope><EchoResult>{\"id\":42}</EchoResult></s:Envelope>")));
        Assert.NotNull(AnswerRules.Check(Scenario.ExpectFor(echo, "rest"), 200, Encoding.UTF8.GetBytes("<EchoResult>")));
    }

    [Fact]
    public void Every_target_of_the_run_needs_a_request_and_same_as_must_name_one_of_them()
    {
        var scenario = Parse(Good);

        ScenarioParser.CheckTargets(scenario, new[] { "old", "new" });
        Assert.Contains("operation 'get-order' has no request for target 'third'",
            Assert.Throws<ScenarioException>(() => ScenarioParser.CheckTargets(scenario, new[] { "old", "new", "third" })).Message);
        Assert.Contains("same-as names 'new', which is not a target of this run",
            Assert.Throws<ScenarioException>(() => ScenarioParser.CheckTargets(scenario with { Operations = new[] { scenario.Operations[1] } }, new[] { "old", "other" })).Message);
    }

    [Fact]
    public void Json_equal_ignores_property_order_and_whitespace_and_shows_the_first_difference_otherwise()
    {
        var expect = new Expectation(Array.Empty<int>(), new BodyRule.JsonEqual("{\"id\":42,\"name\":\"x\"}"));

        Assert.Null(AnswerRules.Check(expect, 200, Encoding.UTF8.GetBytes("{ \"name\": \"x\",\n \"id\": 42 }")));
        var differs = AnswerRules.Check(expect, 200, Encoding.UTF8.GetBytes("{\"name\":\"x\",\"id\":43}"));
        Assert.StartsWith("body is not the same JSON value: at byte 7: expected", differs);
        Assert.Contains("43", differs);
        Assert.Equal("status 500, expected 2xx", AnswerRules.Check(expect, 500, Array.Empty<byte>()));
    }

    [Fact]
    public void Same_as_compares_with_the_other_targets_answer_as_bytes_or_as_json()
    {
        var expect = new Expectation(new[] { 200 }, new BodyRule.SameAs("new"));

        Assert.Null(AnswerRules.Check(expect, 200, Encoding.UTF8.GetBytes("{\"a\":1,\"b\":2}"), Encoding.UTF8.GetBytes("{\"b\":2,\"a\":1}")));
        Assert.Null(AnswerRules.Check(expect, 200, Encoding.UTF8.GetBytes("plain"), Encoding.UTF8.GetBytes("plain")));
        Assert.StartsWith("body differs from new's: at byte 3", AnswerRules.Check(expect, 200, Encoding.UTF8.GetBytes("plan"), Encoding.UTF8.GetBytes("plain")));
    }

    [Fact]
    public async Task Verify_scenario_asks_every_operation_of_every_target_and_the_contract_example_passes_on_the_default_pair()
    {
        var file = Path.Combine(Comparator.Targets.BuildLayout.Discover().RepositoryRoot, "scenarios", "contract.json");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("verify", "--scenario", file, "--targets", "wcf-classic,webapi-selfhost");

        Assert.True(exit == 0, stdout + stderr);
        Assert.Contains("verify: all 16 answers of 4 operation(s) passed", stdout); // the echoes at three sizes each
        Assert.Matches(@"echo-put 64KB +wcf-classic +pass +200 +65536", stdout);
    }

    [Fact]
    public async Task A_bad_scenario_file_exits_2_with_one_line_before_any_target_starts()
    {
        var bad = Path.Combine(_dir.FullName, "bad.json");
        File.WriteAllText(bad, """{ "operations": [ { "name": "a", "targets": { "old": { "path": "/x" } } } ] }""");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("verify", "--scenario", bad, "--targets", "kestrel");

        Assert.Equal(2, exit);
        Assert.Equal($"error: scenario {bad}: operation 'a' has no request for target 'kestrel': add \"request\" (for every target) or an entry under \"targets\"", stderr.Trim());
        Assert.Empty(stdout);
    }

    [Fact]
    public async Task Verify_scenario_catches_a_doctored_answer_with_the_first_difference_of_the_bodies()
    {
        var doctored = new Comparator.Targets.TargetDefinition("doctored", "test double", ".NET 10", "Kestrel", "MisbehavingService", "MisbehavingService.dll",
            Comparator.Targets.HostRuntime.DotNet, null) { VariantArguments = new[] { "doctor", "0" } };
        await using var running = await new Comparator.Targets.TargetLauncher(Comparator.Targets.BuildLayout.Discover())
            .StartAsync(doctored, Comparator.Targets.ServiceSwitches.Default);
        var file = Path.Combine(_dir.FullName, "json.json");
        File.WriteAllText(file, """{ "operations": [ { "name": "json", "request": { "path": "/api/json?items=3" }, "expect": { "body": { "same-as": "kestrel" } } } ] }""");

        var (exit, stdout, _) = await ComparatorProcess.RunAsync("verify", "--scenario", file, "--targets", "kestrel", "--target", $"doctored={running.BaseUrl}");

        Assert.Equal(1, exit);
        Assert.Contains("json               kestrel          pass", stdout);
        Assert.Contains("json               doctored         FAIL", stdout);
        Assert.Contains("first: json on doctored: body differs from kestrel's: at byte", stdout);
        Assert.Contains("(doctored)", stdout);
    }
}
