using System;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using Comparator.Results;
using Comparator.Scenarios;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// same-fields: named values read by XPath from a SOAP answer and by JSONPath from a JSON one,
/// compared across the two; the first that differs is named with its path, on verification and
/// under load.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class SameFieldsTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("same-fields-");

    public void Dispose() => _dir.Delete(recursive: true);

    private const string Soap = """
        <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>
          <GetOrderResponse xmlns="urn:shop"><GetOrderResult><Id>42</Id><Total>129.50</Total><Paid>True</Paid>
            <Lines><Line><Sku>A-100</Sku></Line><Line><Sku>B-200</Sku></Line></Lines></GetOrderResult></GetOrderResponse>
        </s:Body></s:Envelope>
        """;

    private const string Json = """{"id":42,"total":129.5,"paid":true,"lines":[{"sku":"A-100"},{"sku":"B-200"}]}""";

    private static Scenario Parse(string rule) => ScenarioParser.Parse(
        $$"""{ "operations": [ { "name": "get-order", "request": { "path": "/orders/42" }, "expect": { "body": { "same-fields": {{rule}} } } } ] }""",
        "orders.json", ".");

    private static BodyRule.SameFields Rule(string rule) => (BodyRule.SameFields)Parse(rule).Operations[0].Expect.Body!;

    private const string OrderFields = """
        { "as": "wcf", "namespaces": { "o": "urn:shop" }, "fields": {
            "id": { "xml": "//o:Id", "json": "$.id" },
            "total": { "xml": "//o:Total", "json": "$.total" },
            "paid": { "xml": "//o:Paid", "json": "$.paid" },
            "skus": { "xml": "//o:Line/o:Sku", "json": "$.lines[*].sku" } } }
        """;

    [Fact]
    public void A_soap_answer_and_its_json_successor_with_the_same_data_agree_field_by_field()
    {
        var rule = Rule(OrderFields);
        // 129.50 and 129.5 are the same number, True and true the same boolean, the two SKUs the same list.
        Assert.Null(AnswerRules.Check(new Expectation(Array.Empty<int>(), rule), 200, Encoding.UTF8.GetBytes(Json), Encoding.UTF8.GetBytes(Soap), "rest"));
        Assert.Equal("fields id, total, paid, skus same as wcf's", rule.Describe());
    }

    [Fact]
    public void The_first_differing_field_is_named_with_its_path_and_both_values()
    {
        var rule = Rule(OrderFields);
        var changed = Json.Replace("\"B-200\"", "\"B-201\"").Replace("129.5", "130");
        var problem = AnswerRules.Check(new Expectation(Array.Empty<int>(), rule), 200, Encoding.UTF8.GetBytes(changed), Encoding.UTF8.GetBytes(Soap), "rest");
        Assert.Equal("field total differs: rest's $.total is \"130\", wcf's is \"129.50\"", problem);

        var missing = AnswerRules.Check(new Expectation(Array.Empty<int>(), rule), 200, Encoding.UTF8.GetBytes("""{"id":42}"""), Encoding.UTF8.GetBytes(Soap), "rest");
        Assert.Equal("field total differs: rest's $.total is missing, wcf's is \"129.50\"", missing);
        var nothing = AnswerRules.Check(new Expectation(Array.Empty<int>(), rule), 200, Encoding.UTF8.GetBytes(Json), Encoding.UTF8.GetBytes("<a/>"), "rest");
        Assert.Equal("field id: wcf's answer has no value at //o:Id, so there is nothing to compare with", nothing);
    }

    [Fact]
    public void A_path_named_by_target_wins_over_the_path_for_the_answers_kind()
    {
        var rule = Rule("""{ "as": "old", "fields": { "sku": { "json": "$.lines[0].sku", "new": "$.items[0].code" } } }""");
        var old = Encoding.UTF8.GetBytes(Json);
        var renamed = Encoding.UTF8.GetBytes("""{"items":[{"code":"A-100"}]}""");
        var check = AnswerRules.Checker(new Expectation(Array.Empty<int>(), rule), "new", old);
        Assert.Null(check(200, renamed));
        Assert.Equal("status 500, expected 2xx", check(500, renamed));
        Assert.StartsWith("field sku differs: new's $.items[0].code is \"B", check(200, Encoding.UTF8.GetBytes("""{"items":[{"code":"B-9"}]}""")));
    }

    [Fact]
    public void Json_carried_as_a_soap_results_text_is_compared_as_a_json_value()
    {
        var rule = Rule("""{ "as": "wcf", "fields": { "order": { "wcf": "//*[local-name()='EchoResult']", "rest": "$" } } }""");
        var soap = Encoding.UTF8.GetBytes("""<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><EchoResponse xmlns="urn:comparator"><EchoResult>{"a":1, "b":[1,2]}</EchoResult></EchoResponse></s:Body></s:Envelope>""");
        Assert.Null(AnswerRules.Check(new Expectation(Array.Empty<int>(), rule), 200, Encoding.UTF8.GetBytes("""{"b":[1,2],"a":1}"""), soap, "rest"));
        Assert.NotNull(AnswerRules.Check(new Expectation(Array.Empty<int>(), rule), 200, Encoding.UTF8.GetBytes("""{"b":[2,1],"a":1}"""), soap, "rest"));
    }

    [Fact]
    public void A_plain_answer_is_one_value_read_whole_with_the_path_dollar()
    {
        var rule = Rule("""{ "as": "wcf", "fields": { "echo": { "wcf": "//*[local-name()='EchoResult']", "rest": "$" } } }""");
        var soap = Encoding.UTF8.GetBytes("""<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><EchoResponse xmlns="urn:comparator"><EchoResult>text</EchoResult></EchoResponse></s:Body></s:Envelope>""");
        Assert.Null(AnswerRules.Check(new Expectation(Array.Empty<int>(), rule), 200, Encoding.UTF8.GetBytes("text"), soap, "rest"));
        Assert.Equal("field echo differs: rest's $ is \"texts\", wcf's is \"text\"", AnswerRules.Check(new Expectation(Array.Empty<int>(), rule), 200, Encoding.UTF8.GetBytes("texts"), soap, "rest"));
        var deeper = Rule("""{ "as": "wcf", "fields": { "echo": { "wcf": "//*[local-name()='EchoResult']", "rest": "$.text" } } }""");
        Assert.StartsWith("rest's answer is not JSON", AnswerRules.Check(new Expectation(Array.Empty<int>(), deeper), 200, Encoding.UTF8.GetBytes("text"), soap, "rest"));
    }

    [Theory]
    [InlineData("""{ "fields": { "id": { "json": "$.id" } } }""", "$.operations[0].expect.body.same-fields.as: expected the name of the target")]
    [InlineData("""{ "as": "wcf", "fields": { } }""", "same-fields.fields: expected one or more fields")]
    [InlineData("""{ "as": "wcf", "fields": { "id": { "xml": "//Id[" } } }""", "same-fields.fields.id.xml: '//Id[' is not a valid XPath")]
    [InlineData("""{ "as": "wcf", "fields": { "id": { "json": "$.[id" } } }""", "same-fields.fields.id.json: '$.[id' is not a valid JSONPath")]
    [InlineData("""{ "as": "wcf", "fields": { "id": { "xml": "//x:Id" } } }""", "same-fields.fields.id.xml: '//x:Id' is not a valid XPath")]
    [InlineData("""{ "as": "wcf", "field": { } }""", "same-fields.field: expected {\"as\"")]
    [InlineData("""{ "as": "wcf", "fields": { "id": { "json": 3 } } }""", "same-fields.fields.id.json: expected a path")]
    public void A_rule_that_cannot_be_used_is_one_line_naming_the_field(string rule, string expected)
    {
        var e = Assert.Throws<ScenarioException>(() => Parse(rule));
        Assert.Contains(expected, e.Message);
        Assert.DoesNotContain("\n", e.Message);
    }

    [Fact]
    public void Same_fields_naming_a_target_outside_the_run_is_refused_before_any_load()
    {
        var e = Assert.Throws<ScenarioException>(() => ScenarioParser.CheckTargets(Parse("""{ "as": "wcf", "fields": { "id": { "json": "$.id" } } }"""), new[] { "rest", "kestrel" }));
        Assert.Contains("same-fields names 'wcf', which is not a target of this run", e.Message);
    }

    private static TargetDefinition Doctored(int rightAnswers) => new("doctored", "test double", ".NET 10", "Kestrel", "MisbehavingService", "MisbehavingService.dll",
        HostRuntime.DotNet, null) { VariantArguments = new[] { "doctor", rightAnswers.ToString(System.Globalization.CultureInfo.InvariantCulture) } };

    private string ItemsScenario()
    {
        var file = Path.Combine(_dir.FullName, "items.json");
        File.WriteAllText(file, """
            { "operations": [ { "name": "items", "request": { "path": "/api/json?items=3" },
              "expect": { "status": 200, "body": { "same-fields": { "as": "kestrel", "fields": {
                "ids": { "json": "$[*].Id" }, "second-name": { "json": "$[1].Name" } } } } } } ] }
            """);
        return file;
    }

    [Fact]
    public async Task Verify_names_the_field_a_doctored_successor_changed()
    {
        await using var running = await new TargetLauncher(BuildLayout.Discover()).StartAsync(Doctored(0), ServiceSwitches.Default);

        var (exit, stdout, _) = await ComparatorProcess.RunAsync("verify", "--scenario", ItemsScenario(), "--targets", "kestrel", "--target", $"doctored={running.BaseUrl}");

        Assert.Equal(1, exit);
        Assert.Contains("first: items on doctored: field second-name differs: doctored's $[1].Name is", stdout);
        Assert.Contains("(doctored)", stdout);
        Assert.DoesNotContain("field ids differs", stdout); // the ids are the same: the first differing field is the one named
    }

    [Fact]
    public async Task Under_load_every_doctored_answer_fails_with_the_field_named()
    {
        // Its first answer is right (verification passes), every later one has the second item renamed.
        await using var running = await new TargetLauncher(BuildLayout.Discover()).StartAsync(Doctored(1), ServiceSwitches.Default);
        var outDir = Path.Combine(_dir.FullName, "out");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--scenario", ItemsScenario(), "--targets", "kestrel", "--target", $"doctored={running.BaseUrl}",
            "--out", outDir, "--quick", "--warmup", "0.2s", "--first-warmup", "0.2s", "--duration", "0.5s");

        Assert.True(exit == 1, $"exit {exit}\n{stdout}\n{stderr}");
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(new DirectoryInfo(outDir).GetDirectories()).FullName, "results.json")), "results.json");
        Assert.All(run.Verification, c => Assert.True(c.Passed, c.Detail));
        var bad = run.Cells.Single(c => c.Key.Target == "doctored");
        Assert.True(bad.FailedTotal > 0);
        Assert.Contains(bad.Repeats.SelectMany(r => r.FailureSamples), s => s.StartsWith("field second-name differs: doctored's $[1].Name is", StringComparison.Ordinal));
        Assert.Equal(0, run.Cells.Single(c => c.Key.Target == "kestrel").FailedTotal);
    }
}
