using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.Json;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Scenarios;
using Comparator.Targets;
using Comparator.Verification;
using Xunit;

namespace Comparator.Tests;

/// <summary>The kestrel target, started once for the tests of requests that vary: its POST /api/echo answers the body it got.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class KestrelEcho : IAsyncLifetime
{
    public RunningTarget Running { get; private set; } = null!;

    public async Task InitializeAsync() =>
        Running = await new TargetLauncher(BuildLayout.Discover()).StartAsync(TargetCatalog.Find("kestrel")!, ServiceSwitches.Default);

    public async Task DisposeAsync() => await Running.DisposeAsync();
}

/// <summary>Requests with {seq} and {uuid} sent to a real service: each answer right, and no two alike.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class VaryingRequestTests : IClassFixture<KestrelEcho>, IDisposable
{
    private readonly KestrelEcho _kestrel;
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("varying-requests-");

    public VaryingRequestTests(KestrelEcho kestrel) => _kestrel = kestrel;

    public void Dispose() => _dir.Delete(recursive: true);

    /// <summary>An order whose number and id change with every request, echoed back; its rule holds for any of them.</summary>
    private Operation Order()
    {
        File.WriteAllText(Path.Combine(_dir.FullName, "order.json"), """{"n":{seq},"id":"{uuid}"}""");
        var file = Path.Combine(_dir.FullName, "s.json");
        File.WriteAllText(file, """
            { "operations": [ { "name": "create-order",
                "request": { "method": "POST", "path": "/api/echo", "body": "order.json", "headers": { "Content-Type": "application/json", "X-Request-Id": "{uuid}" } },
                "expect": { "status": 200, "body": { "regex": "^\\{\"n\":[1-9][0-9]*,\"id\":\"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}\"\\}$" } } } ] }
            """);
        return ScenarioParser.Load(file, _dir.FullName).Operations.Single();
    }

    private static (long N, Guid Id) Read(byte[] answer)
    {
        using var json = JsonDocument.Parse(answer);
        return (json.RootElement.GetProperty("n").GetInt64(), Guid.ParseExact(json.RootElement.GetProperty("id").GetString()!, "D"));
    }

    [Theory]
    [InlineData("socket")]
    [InlineData("httpclient")]
    public async Task Every_answer_is_right_and_distinct_and_each_connection_counts_from_1(string driver)
    {
        var request = LoadRequest.For(Order(), "kestrel", _kestrel.Running.BaseUrl, reference: null, answerChunked: false);
        var rule = request.AnswerCheck!;
        var answers = new ConcurrentQueue<byte[]>();
        ILoadDriver load = driver == SocketDriver.DriverName ? new SocketDriver() : new HttpClientDriver();
        // A cold service answered only two requests in the measured 400 ms of one CI run (its JIT at work): warm it on other
        // connections first, so the window below holds enough answers to show the counting, whatever the machine's pace.
        using (var warm = load.Open(request, concurrency: 2, keepAlive: true, TimeSpan.FromSeconds(10)))
            await warm.RunAsync(TimeSpan.FromSeconds(1), CancellationToken.None);
        request = request with { AnswerCheck = (status, body) => { answers.Enqueue(body); return rule(status, body); } };

        using var session = load.Open(request, concurrency: 2, keepAlive: true, TimeSpan.FromSeconds(10));
        var window = await session.RunAsync(TimeSpan.FromSeconds(1), CancellationToken.None);

        Assert.True(window.Requests > 2, $"{window.Requests} requests");
        Assert.Equal(0, window.Failed); // the rule held for every answer, and a wrong Content-Length would have broken the framing
        var orders = answers.Select(Read).ToList();
        Assert.Equal(orders.Count, orders.Select(o => o.Id).Distinct().Count());
        // Two connections (workers), each counting 1, 2, 3, ...: every number at most twice, and none before the one below it.
        var counts = orders.GroupBy(o => o.N).ToDictionary(g => g.Key, g => g.Count());
        Assert.Equal(2, counts[1]);
        Assert.All(counts, c => Assert.True(c.Value <= 2 && (c.Key == 1 || counts.GetValueOrDefault(c.Key - 1) >= c.Value), $"seq {c.Key} seen {c.Value} times"));
        if (driver == SocketDriver.DriverName) // the bytes on the wire are each request's own length
            Assert.Equal(orders.Sum(o => (long)SocketDriver.Serialize(request, keepAlive: true, seq: o.N).Length), window.BytesSent);
    }

    [Fact]
    public async Task Verification_sends_the_first_request_and_each_verification_a_new_uuid()
    {
        var operation = Order();
        var scenario = new Scenario("s.json", new[] { operation });
        var targets = new[] { ("kestrel", _kestrel.Running.BaseUrl) };

        var first = Assert.Single(await ScenarioVerifier.VerifyAsync(scenario, targets));
        var second = Assert.Single(await ScenarioVerifier.VerifyAsync(scenario, targets));

        Assert.Null(first.Problem);
        Assert.Equal(1, Read(first.Body).N);
        Assert.Equal(1, Read(second.Body).N);
        Assert.NotEqual(Read(first.Body).Id, Read(second.Body).Id);
        Assert.EndsWith("/api/echo", first.Url);
    }

    [Fact]
    public async Task A_run_of_the_example_checks_every_answer_says_what_varies_and_ab_and_wrk_are_n_a()
    {
        var file = Path.Combine(BuildLayout.Discover().RepositoryRoot, "scenarios", "varying.json");
        var outDir = Path.Combine(_dir.FullName, "out");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--scenario", file, "--target", $"kestrel={_kestrel.Running.BaseUrl}",
            "--driver", "socket,ab,wrk", "--out", outDir, "--quick", "--warmup", "0.2s", "--first-warmup", "0.2s", "--duration", "0.5s");

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var dir = Assert.Single(new DirectoryInfo(outDir).GetDirectories()).FullName;
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(dir, "results.json")), "results.json");
        var asked = run.Spec.Scenario!.Operations.Single().Requests.Single();
        Assert.Equal("{seq} in the path and the body; {uuid} in header X-Request-Id and the body", asked.Varies);
        Assert.Equal("/api/echo?order={seq}", asked.PathAndQuery);
        var socket = run.Cells.Single(c => c.Key.Driver == "socket");
        Assert.True(socket.Summary is { Requests: > 0, Failed: 0 }, "the socket driver's answers all met the rule");
        foreach (var tool in new[] { "ab", "wrk" })
            Assert.Contains("this operation's requests vary ({seq} in the path", run.Cells.Single(c => c.Key.Driver == tool).NotMeasuredReason);
        Assert.Contains("requests that vary: create-order ({seq} in the path and the body; {uuid} in header X-Request-Id and the body)",
            File.ReadAllText(Path.Combine(dir, "report.md")));
    }
}
