using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Scenarios;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// Requests that vary: {seq}, {uuid} and {env:NAME} read from a scenario file (and the one line a
/// wrong one gets), and the socket driver's request template written per request.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class PlaceholderTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("placeholder-tests-");
    private readonly string _payloads;
    private readonly string _file;

    /// <summary>A variable of this test alone (set in this process, so the parser reads it as a user's shell would give it).</summary>
    private const string Token = "COMPARATOR_PLACEHOLDER_TEST_TOKEN";

    public PlaceholderTests()
    {
        _payloads = Directory.CreateDirectory(Path.Combine(_dir.FullName, "payloads")).FullName;
        _file = Path.Combine(_dir.FullName, "s.json");
        Environment.SetEnvironmentVariable(Token, "s3cret");
    }

    public void Dispose() => _dir.Delete(recursive: true);

    private Scenario Parse(string json) => ScenarioParser.Parse(json, _file, _payloads);

    private string Refused(string json)
    {
        var message = Assert.Throws<ScenarioException>(() => Parse(json)).Message;
        Assert.StartsWith("scenario " + _file + ": ", message);
        Assert.DoesNotContain("\n", message);
        return message;
    }

    private string Body(string name, string text)
    {
        File.WriteAllText(Path.Combine(_dir.FullName, name), text);
        return name;
    }

    private static string Request(string path, string? body = null, string headers = "{}") =>
        $$"""{ "operations": [ { "name": "create-order", "request": { "method": "POST", "path": "{{path}}", "headers": {{headers}}{{(body is null ? "" : $", \"body\": \"{body}\"")}} } } ] }""";

    [Fact]
    public void Each_placeholder_is_read_in_paths_header_values_and_bodies_and_env_is_written_in_at_start()
    {
        var body = Body("order.json", """{"orderId":{seq},"requestId":"{uuid}","by":"{env:COMPARATOR_PLACEHOLDER_TEST_TOKEN}"}""");
        var request = Scenario.RequestFor(Parse(Request("/orders/{seq}?id={uuid}", body,
            $$"""{ "Authorization": "Bearer {env:{{Token}}}", "X-Request-Id": "{uuid}" }""")).Operations[0], "any")!;

        var parts = request.Parts;
        Assert.Equal(new[] { Slot.Seq, Slot.Uuid }, parts.PathAndQuery.Slots);
        Assert.Equal(new[] { Slot.Seq, Slot.Uuid }, parts.Body!.Slots);
        Assert.False(parts.Headers.Single(h => h.Key == "Authorization").Value.Varies);
        Assert.Equal("Bearer s3cret", Encoding.UTF8.GetString(parts.Headers.Single(h => h.Key == "Authorization").Value.Literals[0]));
        Assert.Equal("{seq} in the path and the body; {uuid} in the path and header X-Request-Id and the body", parts.Describe());
        var (path, headers, sent) = parts.Expand(7, Guid.Parse("0b6e7c2a-3f1d-4c5e-9a8b-123456789abc"));
        Assert.Equal("/orders/7?id=0b6e7c2a-3f1d-4c5e-9a8b-123456789abc", path);
        Assert.Contains(new KeyValuePair<string, string>("X-Request-Id", "0b6e7c2a-3f1d-4c5e-9a8b-123456789abc"), headers);
        Assert.Equal("""{"orderId":7,"requestId":"0b6e7c2a-3f1d-4c5e-9a8b-123456789abc","by":"s3cret"}""", Encoding.UTF8.GetString(sent!));
        // What reports show is the file as written: the variable's value never reaches a report.
        Assert.Equal("/orders/{seq}?id={uuid}", request.PathAndQuery);
        Assert.Contains(new KeyValuePair<string, string>("Authorization", $"Bearer {{env:{Token}}}"), request.Headers);
    }

    [Fact]
    public void A_request_with_env_alone_is_fixed_so_every_driver_sends_it()
    {
        var operation = Parse(Request($"/orders?key={{env:{Token}}}")).Operations[0];
        var request = Scenario.RequestFor(operation, "any")!;
        var load = LoadRequest.For(operation, "any", new Uri("http://127.0.0.1:5000/"), null, false);

        Assert.False(request.Parts.Varies);
        Assert.Null(load.Variation);
        Assert.Null(load.Varies); // nothing for ab and wrk to refuse
        Assert.Equal("/orders?key=s3cret", load.Url.PathAndQuery);
    }

    [Theory]
    [InlineData("/orders/{sequence}", "$.operations[0].request.path: unknown placeholder {sequence}; known: {seq}, {uuid}, {env:NAME}")]
    [InlineData("/orders/{Seq}", "unknown placeholder {Seq}; known: {seq}, {uuid}, {env:NAME}")]
    [InlineData("/orders/{seq:5}", "unknown placeholder {seq:5}")]
    [InlineData("/orders/{size}", "unknown placeholder {size}; known: {seq}, {uuid}, {env:NAME} ({size} belongs in a body file's path)")]
    [InlineData("/orders/{seq", "$.operations[0].request.path: '{seq' is not closed by '}'")]
    [InlineData("/orders/{env:", "'{env' is not closed by '}'")]
    [InlineData("/orders/{env}", "{env} needs a variable name of letters, digits and _: {env:NAME}")]
    [InlineData("/orders/{env:A B}", "{env:A B} needs a variable name")]
    [InlineData("/a/{seq}/../b", "a placeholder of '/a/{seq}/../b' is lost when the path is normalized")]
    public void A_bad_placeholder_in_a_path_is_one_line_naming_it_and_the_known_ones(string path, string expected) =>
        Assert.Contains(expected, Refused(Request(path)));

    [Fact]
    public void A_bad_placeholder_in_a_header_value_or_a_body_is_named_with_its_field()
    {
        Assert.Contains("$.operations[0].request.headers.X-Id: unknown placeholder {guid}",
            Refused(Request("/o", headers: """{ "X-Id": "{guid}" }""")));
        Assert.Contains("$.operations[0].request.headers.X-Id: '{uuid' is not closed by '}'",
            Refused(Request("/o", headers: """{ "X-Id": "{uuid" }""")));
        Assert.Contains("$.operations[0].request.body: unknown placeholder {sequence}; known: {seq}, {uuid}, {env:NAME}",
            Refused(Request("/o", Body("typo.json", """{"n":{sequence}}"""))));
    }

    [Fact]
    public void A_missing_environment_variable_is_one_line_naming_it_and_the_operation()
    {
        var message = Refused(Request("/o", headers: """{ "Authorization": "Bearer {env:COMPARATOR_PLACEHOLDER_TEST_UNSET}" }"""));

        Assert.Equal($"scenario {_file}: operation 'create-order': the environment variable COMPARATOR_PLACEHOLDER_TEST_UNSET is not set " +
                     "({env:COMPARATOR_PLACEHOLDER_TEST_UNSET} in $.operations[0].request.headers.Authorization)", message);
    }

    [Fact]
    public async Task A_missing_environment_variable_exits_2_before_any_target_starts()
    {
        File.WriteAllText(_file, Request("/o/{env:COMPARATOR_PLACEHOLDER_TEST_UNSET}"));

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("verify", "--scenario", _file, "--targets", "kestrel");

        Assert.Equal(2, exit);
        Assert.Equal($"error: scenario {_file}: operation 'create-order': the environment variable COMPARATOR_PLACEHOLDER_TEST_UNSET is not set " +
                     "({env:COMPARATOR_PLACEHOLDER_TEST_UNSET} in $.operations[0].request.path)", stderr.Trim());
        Assert.Empty(stdout);
    }

    [Theory]
    [InlineData("""{"a":{"b":[{}]}}""")] // JSON's own braces
    [InlineData("""{seqkdhD=ME8=i} {K} {l} {abc} }{ {{""")] // braces the random payloads hold by chance, and stray ones
    [InlineData("""{seq""")] // a body's unclosed brace is its own text
    public void A_body_keeps_its_own_braces(string text)
    {
        var request = Scenario.RequestFor(Parse(Request("/o", Body("b.txt", text))).Operations[0], "any")!;

        Assert.False(request.Parts.Varies);
        Assert.Equal(text, Encoding.UTF8.GetString(request.Parts.Body!.Literals.Single()));
    }

    [Fact]
    public void The_contract_example_and_its_random_payloads_are_sent_as_they_are()
    {
        var root = Comparator.Targets.BuildLayout.Discover().RepositoryRoot;
        var scenario = ScenarioParser.Load(Path.Combine(root, "scenarios", "contract.json"), Path.Combine(root, "payloads"));

        Assert.All(scenario.Operations, o => Assert.False(o.Default!.Parts.Varies, o.Label));
        Assert.All(scenario.Operations.Where(o => o.Default!.Body is not null), o => Assert.Equal(o.Default!.Body, o.Default.Parts.Body!.Literals.Single()));
    }

    private LoadRequest Varying(string body, string path = "/api/echo") =>
        LoadRequest.For(Parse(Request(path, Body("v.txt", body))).Operations[0], "any", new Uri("http://127.0.0.1:5000/"), null, false);

    [Fact]
    public void Content_length_follows_the_body_as_expanded_when_seq_grows_from_9_to_10_digits()
    {
        var request = Varying("n={seq}");

        var nine = Encoding.ASCII.GetString(SocketDriver.Serialize(request, keepAlive: true, seq: 999_999_999));
        var ten = Encoding.ASCII.GetString(SocketDriver.Serialize(request, keepAlive: true, seq: 1_000_000_000));

        Assert.EndsWith("Content-Length: 11\r\n\r\nn=999999999", nine);
        Assert.EndsWith("Content-Length: 12\r\n\r\nn=1000000000", ten);
        Assert.StartsWith("POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nContent-Type: application/octet-stream\r\n", ten);
    }

    [Fact]
    public void Each_connection_counts_its_own_seq_and_every_request_gets_a_fresh_valid_uuid()
    {
        var template = WireTemplate.For(Varying("{seq} {uuid}", "/o/{seq}"), keepAlive: true);
        var first = new RequestWriter(template);
        var second = new RequestWriter(template);

        string Body(RequestWriter w) => Encoding.ASCII.GetString(w.Next().Span).Split("\r\n\r\n")[1];
        var a = Enumerable.Range(0, 3).Select(_ => Body(first)).ToList();
        var b = Body(second);

        Assert.Equal(new[] { "1", "2", "3" }, a.Select(x => x.Split(' ')[0]));
        Assert.Equal("1", b.Split(' ')[0]); // no counter shared between connections
        var uuids = a.Append(b).Select(x => x.Split(' ')[1]).ToList();
        Assert.All(uuids, u => Assert.True(Guid.TryParseExact(u, "D", out var g) && g.Version == 4 && u == u.ToLowerInvariant(), u));
        Assert.Equal(uuids.Count, uuids.Distinct().Count());
        Assert.Null(template.Fixed);
    }

    [Fact]
    public void Writing_a_varying_request_allocates_nothing()
    {
        var writer = new RequestWriter(WireTemplate.For(Varying("{\"n\":{seq},\"id\":\"{uuid}\"}", "/o/{seq}"), keepAlive: true));
        writer.Next();

        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 1000; i++) writer.Next();

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    [Fact]
    public void A_request_without_placeholders_is_one_array_with_the_bytes_it_always_had()
    {
        var request = LoadRequest.For(Contracts.Endpoints.EchoPost, new Uri("http://127.0.0.1:5000/"), Encoding.ASCII.GetBytes("hello"), 3);

        var template = WireTemplate.For(request, keepAlive: false);

        Assert.Same(template.Fixed, template.Expand(1));
        Assert.Equal("POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nContent-Type: application/octet-stream\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
            Encoding.ASCII.GetString(template.Fixed!));
    }
}
