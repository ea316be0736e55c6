using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Scenarios;
using Comparator.Targets;
using Comparator.Verification;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// Doctored answers on a real loopback socket, each read by the socket driver under load (a short
/// closed loop) and by verify: both read through the one response reader, so they must frame every
/// answer alike, to the same outcome and, for a failure, the same reason. No answer may hold an
/// exchange until its timeout.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class FramingAgreementTests
{
    private static readonly TimeSpan Window = TimeSpan.FromMilliseconds(300);
    private static readonly TimeSpan RequestTimeout = TimeSpan.FromSeconds(10);

    /// <summary>
    /// name, method, the answer ({body} and {length} filled in per check: "hello" for the scenario's
    /// operation, a time text for the contract's time endpoint), whether the server closes after it,
    /// whether a right answer reads out of it (the body "hello", or none for HEAD and 304).
    /// </summary>
    public static TheoryData<string, string, string, bool, bool> Cases() => new()
    {
        { "HEAD with Content-Length", "HEAD", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {length}\r\n\r\n", false, true },
        { "304 with Content-Length", "GET", "HTTP/1.1 304 Not Modified\r\nContent-Type: text/plain\r\nContent-Length: {length}\r\n\r\n", false, true },
        { "chunk extensions and trailers", "GET", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n{hexlength};ext=1;q=\"a;b\"\r\n{body}\r\n0;end\r\nX-Trailer: yes\r\n\r\n", false, true },
        { "bare LF", "GET", "HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: {length}\n\n{body}", false, true },
        { "bare LF chunked", "GET", "HTTP/1.1 200 OK\nContent-Type: text/plain\nTransfer-Encoding: chunked\n\n{hexlength}\n{body}\n0\n\n", false, true },
        { "interim 100 Continue", "GET", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {length}\r\n\r\n{body}", false, true },
        { "a Content-Length that lies: shorter body, then close", "GET", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {length+5}\r\n\r\n{body}", true, false },
        { "a Content-Length that lies: longer body", "GET", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n{body}EXTRA", true, true },
        { "a bad Content-Length", "GET", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {length}x\r\n\r\n{body}", true, false },
        { "chunked only as a substring", "GET", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: xchunked\r\n\r\n{body}", true, true },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task The_socket_driver_under_load_and_verify_scenario_frame_a_doctored_answer_alike(string name, string method, string answer, bool close, bool right)
    {
        var bodiless = method == "HEAD" || answer.Contains(" 304 ");
        using var server = new FaultyServer(Fill(answer, "hello"), close);
        var file = $$"""{ "operations": [ { "name": "doctored", "request": { "method": "{{method}}", "path": "/doctored" }, "expect": { "status": {{(answer.Contains(" 304 ") ? 304 : 200)}}, "body": { "exact": "{{(bodiless ? "" : "hello")}}" } } } ] }""";
        var scenario = ScenarioParser.Parse(file, "doctored.json", ".");

        var answered = Assert.Single(await ScenarioVerifier.VerifyAsync(scenario, new[] { ("doctored", server.BaseUrl) }));
        var window = await Load(LoadRequest.For(scenario.Operations[0], "doctored", server.BaseUrl, reference: null, answerChunked: answered.Chunked));

        Assert.True(right == (answered.Problem is null), $"{name}: verify says {answered.Problem ?? "right"}");
        AssertSameOutcome(name, answered.Problem, window);
        if (right) Assert.Equal(bodiless ? "" : "hello", Encoding.ASCII.GetString(answered.Body));
    }

    /// <summary>The contract asks GET and fixes Content-Length framing, which verify checks and the driver does not: only such answers compare.</summary>
    public static IEnumerable<object[]> EndpointCases() =>
        Cases().Where(row => (string)row[1] == "GET" && !((string)row[2]).Contains("chunked", StringComparison.Ordinal));

    /// <summary>The contract's time endpoint, answered in the doctored ways that keep its Content-Length framing: verify's checks and the driver's agree.</summary>
    [Theory]
    [MemberData(nameof(EndpointCases))]
    public async Task The_socket_driver_under_load_and_verify_of_an_endpoint_frame_a_doctored_answer_alike(string name, string method, string answer, bool close, bool right)
    {
        Assert.Equal("GET", method);
        var is304 = answer.Contains(" 304 ");
        using var server = new FaultyServer(Fill(answer, TimeText.Now()), close);

        var check = await EndpointVerifier.VerifyAsync("doctored", server.BaseUrl, Endpoints.Time);
        var window = await Load(LoadRequest.For(Endpoints.Time, server.BaseUrl, Array.Empty<byte>(), JsonSample.DefaultItems));

        Assert.True((right && !is304) == check.Passed, $"{name}: verify says {check.Detail}");
        if (is304)
        {
            Assert.Equal("status 304, expected 200", check.Detail);
            Assert.True(window.Requests > 0 && window.Failed == window.Requests && window.Timeouts == 0, Describe(window));
            Assert.Contains("status 304", window.FailureSamples);
            return;
        }
        AssertSameOutcome(name, check.Passed ? null : check.Detail, window);
    }

    [Fact]
    public async Task A_scenario_operation_with_HEAD_runs_under_load_against_a_real_service_without_a_stall()
    {
        // MisbehavingService answers HEAD /api/time with the GET's Content-Length and no body, as a real stack does.
        var service = new TargetDefinition("head-answering", "test double", ".NET 10", "Kestrel", "MisbehavingService", "MisbehavingService.dll",
            HostRuntime.DotNet, null) { VariantArguments = new[] { "delay", "0" } };
        await using var running = await new TargetLauncher(BuildLayout.Discover()).StartAsync(service, ServiceSwitches.Default);
        var scenario = ScenarioParser.Parse("""{ "operations": [ { "name": "time-head", "request": { "method": "HEAD", "path": "/api/time" }, "expect": { "status": 200, "body": { "exact": "" } } } ] }""",
            "head.json", ".");

        var answered = Assert.Single(await ScenarioVerifier.VerifyAsync(scenario, new[] { ("head-answering", running.BaseUrl) }));
        Assert.Null(answered.Problem);
        Assert.Equal(200, answered.Status);
        Assert.Equal(0, answered.BodyBytes);
        Assert.Contains($"length {TimeText.Length}", answered.Head); // announced, not sent

        var request = LoadRequest.For(scenario.Operations[0], "head-answering", running.BaseUrl, reference: null, answerChunked: false);
        Assert.StartsWith("HEAD /api/time HTTP/1.1\r\n", Encoding.ASCII.GetString(SocketDriver.Serialize(request, keepAlive: true)));
        var window = await Load(request, TimeSpan.FromMilliseconds(500));
        Assert.True(window is { Requests: > 0, Failed: 0, Timeouts: 0, BodyBytesReceived: 0 }, Describe(window));
        Assert.True(window.ConnectionsOpened < window.Requests, Describe(window)); // kept alive: no answer left a connection unusable

        // The other drivers: httpclient and ab (-i) send HEAD too; wrk would wait for the announced body, so it says why it cannot.
        foreach (var driver in DriverCatalog.Create(new[] { HttpClientDriver.DriverName, AbDriver.DriverName, WrkDriver.DriverName }, null))
        {
            if (driver.Name == WrkDriver.DriverName)
            {
                Assert.Contains("HEAD", driver.CannotMeasure(request, keepAlive: true));
                continue;
            }
            Assert.Null(driver.CannotMeasure(request, keepAlive: true));
            using var session = driver.Open(request, concurrency: 2, keepAlive: true, RequestTimeout);
            var other = await session.RunAsync(TimeSpan.FromSeconds(1), CancellationToken.None);
            Assert.True(other is { Requests: > 0, Failed: 0, Timeouts: 0 }, $"{driver.Name}: {Describe(other)}");
        }
    }

    /// <summary>
    /// The project's real stacks refuse HEAD on the contract's GET routes, each in its own way: Kestrel
    /// with no Content-Length, Web API 2 on Mono's listener announcing its 73-byte JSON message (and,
    /// before its adapter learnt HEAD, sending it too, which the next answer on the connection then
    /// failed on). Asked as a scenario's operation under load, every answer is a 405 and none stalls.
    /// </summary>
    [SkippableTheory]
    [InlineData("kestrel")]
    [InlineData("webapi-selfhost")]
    public async Task HEAD_against_a_real_stack_is_answered_without_a_body_and_keeps_the_connection(string target)
    {
        var definition = TargetCatalog.Find(target)!;
        Skip.IfNot(definition.IsAvailable, $"{target} cannot run here: {definition.UnavailableReason}");
        await using var running = await new TargetLauncher(BuildLayout.Discover()).StartAsync(definition, ServiceSwitches.Default);
        var scenario = ScenarioParser.Parse("""{ "operations": [ { "name": "time-head", "request": { "method": "HEAD", "path": "/api/time" }, "expect": { "status": 405, "body": { "exact": "" } } } ] }""",
            "head.json", ".");

        var answered = Assert.Single(await ScenarioVerifier.VerifyAsync(scenario, new[] { (target, running.BaseUrl) }));
        Assert.Null(answered.Problem);
        Assert.Equal(0, answered.BodyBytes);

        var request = LoadRequest.For(scenario.Operations[0], target, running.BaseUrl, reference: null, answerChunked: false);
        var window = await Load(request, TimeSpan.FromMilliseconds(500));
        Assert.True(window is { Requests: > 0, Failed: 0, Timeouts: 0, BodyBytesReceived: 0 }, Describe(window));
        Assert.True(window.ConnectionsOpened < window.Requests, Describe(window));
    }

    /// <summary>A short closed loop of the socket driver, two connections kept alive.</summary>
    private static async Task<DriverWindow> Load(LoadRequest request, TimeSpan? duration = null)
    {
        using var session = new SocketDriver().Open(request, concurrency: 2, keepAlive: true, RequestTimeout);
        return await session.RunAsync(duration ?? Window, CancellationToken.None);
    }

    /// <summary>
    /// Right by verify: every request under load right too. Wrong by verify: every request under
    /// load wrong, for the same reason (verify's "no answer: " is the driver's "error: "). Neither ever a timeout.
    /// </summary>
    private static void AssertSameOutcome(string name, string? verifyProblem, DriverWindow window)
    {
        Assert.True(window.Requests > 0 && window.Timeouts == 0, $"{name}: {Describe(window)}");
        if (verifyProblem is null)
        {
            Assert.True(window.Failed == 0, $"{name}: verify passed, under load {Describe(window)}");
            return;
        }
        Assert.True(window.Failed == window.Requests, $"{name}: verify failed ({verifyProblem}), under load {Describe(window)}");
        var reason = verifyProblem.StartsWith("no answer: ", StringComparison.Ordinal) ? verifyProblem["no answer: ".Length..]
            : verifyProblem.StartsWith("no response: ", StringComparison.Ordinal) ? verifyProblem["no response: ".Length..]
            : verifyProblem;
        Assert.Contains(window.FailureSamples, s => s == "error: " + reason || s == reason);
    }

    private static string Describe(DriverWindow w) =>
        $"{w.Requests} requests, {w.Failed} failed, {w.Timeouts} timeouts, {w.ConnectionsOpened} connections; samples: {string.Join(" | ", w.FailureSamples)}";

    private static byte[] Fill(string answer, string body) => Encoding.ASCII.GetBytes(answer
        .Replace("{length+5}", (body.Length + 5).ToString(System.Globalization.CultureInfo.InvariantCulture))
        .Replace("{length}", body.Length.ToString(System.Globalization.CultureInfo.InvariantCulture))
        .Replace("{hexlength}", body.Length.ToString("x", System.Globalization.CultureInfo.InvariantCulture))
        .Replace("{body}", body));
}
