using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Wire;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// Every service under bad input over raw sockets: it refuses with a 4xx where HTTP allows (or
/// closes the connection), never answers with exception text, never dies, and serves the next
/// normal request. Each test ends by checking the process is still the one the fixture started.
/// </summary>
[Collection(TargetsCollection.Name)]
[Trait(TestTiers.Trait, TestTiers.Processes)]
public sealed class ServiceAbuseTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(15);
    private readonly TargetsFixture _targets;

    public ServiceAbuseTests(TargetsFixture targets) => _targets = targets;

    public static IEnumerable<object[]> MalformedRequests()
    {
        foreach (var target in TargetsFixture.TargetNames.Select(t => (string)t[0]))
        {
            yield return new object[] { target, "garbage line", "GARBAGE\r\n\r\n" };
            yield return new object[] { target, "no version", "GET /api/time\r\nHost: x\r\n\r\n" };
            yield return new object[] { target, "HTTP/9.9", "GET /api/time HTTP/9.9\r\nHost: x\r\n\r\n" };
            yield return new object[] { target, "space in target", "GET /api/ti me HTTP/1.1\r\nHost: x\r\n\r\n" };
            yield return new object[] { target, "bad content-length", "POST /api/echo HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n" };
            yield return new object[] { target, "two content-lengths", "POST /api/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd" };
            yield return new object[] { target, "bad chunk size", "PUT /api/echo/stream HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n" };
            yield return new object[] { target, "control bytes", "\0\u0001\u0002\u0003\r\n\r\n" };
            yield return new object[] { target, "64 KiB header", "GET /api/time HTTP/1.1\r\nHost: x\r\nX-Big: " + new string('a', 64 * 1024) + "\r\n\r\n" };
        }
    }

    [Theory]
    [MemberData(nameof(MalformedRequests))]
    public async Task A_malformed_request_is_refused_with_a_4xx_or_a_close_and_the_service_keeps_serving(string target, string what, string request)
    {
        var baseUrl = _targets.Default(target).BaseUrl;

        var answer = await SendAndReadUntilCloseAsync(baseUrl, Encoding.Latin1.GetBytes(request));

        // An empty answer is a closed (or reset) connection: an acceptable refusal. A 2xx is not, nor
        // is a 5xx, except 505, which HTTP itself names for a request whose version is not served.
        var refusal = what is "no version" or "HTTP/9.9" ? @"^HTTP/1\.[01] (4\d\d|505) " : @"^HTTP/1\.[01] 4\d\d ";
        if (answer.Length > 0) Assert.Matches(refusal, answer);
        AssertNoExceptionText(answer, what);
        await AssertStillServingAsync(target);
    }

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task A_body_shorter_than_its_content_length_then_a_closed_socket_does_not_hurt_the_service(string target)
    {
        var baseUrl = _targets.Default(target).BaseUrl;
        foreach (var endpoint in new[] { Endpoints.EchoPost, Endpoints.EchoPut })
        {
            for (var i = 0; i < 20; i++)
            {
                using var client = new TcpClient();
                await client.ConnectAsync(baseUrl.Host, baseUrl.Port);
                var head = RawHttp.BuildRequest(endpoint.Method, endpoint.Path, baseUrl, null, new[] { "Content-Length: 100000" });
                await client.GetStream().WriteAsync(head);
                await client.GetStream().WriteAsync(PayloadCatalogue.Generate(10_000)); // a tenth of what was declared
                if (i % 2 == 0) client.Client.LingerState = new LingerOption(true, 0); // half of them reset, half close
            }
        }

        await AssertStillServingAsync(target);
    }

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task A_client_sending_one_byte_per_second_does_not_hold_up_other_clients(string target)
    {
        var baseUrl = _targets.Default(target).BaseUrl;
        var request = RawHttp.BuildRequest(Endpoints.Time, baseUrl, "", null);
        using var slow = new TcpClient();
        await slow.ConnectAsync(baseUrl.Host, baseUrl.Port);
        using var stop = new CancellationTokenSource();
        // Two bytes a second apart: the others' 20 requests take well under a second, so the slow request is open, half sent, through
        // all of them (six bytes held each target's row 6 s for nothing more).
        const int trickled = 2;
        var trickle = Task.Run(async () =>
        {
            for (var i = 0; i < trickled && !stop.IsCancellationRequested; i++)
            {
                await slow.GetStream().WriteAsync(request.AsMemory(i, 1));
                await Task.Delay(1000);
            }
        });

        // While the slow client holds its connection, others are answered in full.
        for (var i = 0; i < 20; i++)
        {
            var next = await RawHttp.SendAsync(baseUrl, RawHttp.BuildRequest(Endpoints.Time, baseUrl, "", null), Timeout);
            Assert.Equal(200, next.StatusCode);
        }
        await trickle;

        // The slow request, completed at last, is answered normally or refused as too slow (408 or a close).
        await slow.GetStream().WriteAsync(request.AsMemory(trickled));
        var answer = await ReadUntilCloseOrAnswerAsync(slow.GetStream());
        if (answer.Length > 0) Assert.Matches(@"^HTTP/1\.1 (200|408) ", answer);
        await AssertStillServingAsync(target);
    }

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task A_thousand_connections_opened_and_dropped_at_once_leave_the_service_serving(string target)
    {
        var baseUrl = _targets.Default(target).BaseUrl;
        var partial = Encoding.ASCII.GetBytes("GET /api/time HTTP/1.1\r\nHo");
        var clients = Enumerable.Range(0, 1000).Select(_ => new TcpClient()).ToList();
        try
        {
            var connects = clients.Select(async (c, i) =>
            {
                try
                {
                    await c.ConnectAsync(baseUrl.Host, baseUrl.Port).WaitAsync(Timeout);
                    if (i % 3 == 0) await c.GetStream().WriteAsync(partial); // a third mid-request
                    if (i % 2 == 0) c.Client.LingerState = new LingerOption(true, 0); // half reset on close
                    return true;
                }
                catch (Exception e) when (e is SocketException or IOException or TimeoutException)
                {
                    return false; // a full accept queue may refuse some: that is the kernel's answer, not the service's
                }
            });
            var connected = (await Task.WhenAll(connects)).Count(ok => ok);
            Assert.True(connected > 0, "not one of 1,000 connections was accepted");
        }
        finally
        {
            foreach (var c in clients) c.Dispose(); // all dropped at once
        }

        await AssertStillServingAsync(target);
    }

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task Error_answers_carry_no_exception_text_or_stack_trace(string target)
    {
        var baseUrl = _targets.Default(target).BaseUrl;
        var small = _targets.Flagged(target).BaseUrl; // body limit of 1,000 bytes
        var errors = new (Uri Url, byte[] Request)[]
        {
            (baseUrl, RawHttp.BuildRequest("GET", Routes.Json + "?items=abc", baseUrl, null)),
            (baseUrl, RawHttp.BuildRequest("GET", Routes.Json + "?items=99999999999999999999", baseUrl, null)),
            (baseUrl, RawHttp.BuildRequest("GET", "/api/nothing-here", baseUrl, null)),
            (baseUrl, RawHttp.BuildRequest("DELETE", Routes.Echo, baseUrl, null)),
            (small, RawHttp.BuildRequest("POST", Routes.Echo, small, PayloadCatalogue.Generate(5000))),
        };
        foreach (var (url, request) in errors)
        {
            var answer = await SendAndReadUntilCloseAsync(url, request);
            Assert.Matches(@"^HTTP/1\.1 4\d\d ", answer);
            AssertNoExceptionText(answer, answer.Split('\r')[0]);
        }
    }

    private async Task AssertStillServingAsync(string target)
    {
        var running = _targets.Default(target);
        Assert.False(running.HasExited, $"{target} died");
        var body = PayloadCatalogue.Generate(4096);
        var echo = await RawHttp.SendAsync(running.BaseUrl, RawHttp.BuildRequest(Endpoints.EchoPost, running.BaseUrl, "", body), Timeout);
        Assert.Equal(200, echo.StatusCode);
        Assert.Equal(body, echo.Body);
    }

    private static void AssertNoExceptionText(string answer, string what)
    {
        Assert.False(answer.Contains("Exception", StringComparison.OrdinalIgnoreCase), $"{what}: exception text in the answer:\n{answer}");
        Assert.False(answer.Contains("   at "), $"{what}: a stack trace in the answer:\n{answer}");
    }

    /// <summary>
    /// Sends bytes and returns what the service wrote until it closed, reset, or answered and went
    /// quiet for a second. Silence with no answer at all for 15 s is a hang, and fails the test.
    /// </summary>
    private static async Task<string> SendAndReadUntilCloseAsync(Uri baseUrl, byte[] request)
    {
        using var client = new TcpClient();
        await client.ConnectAsync(baseUrl.Host, baseUrl.Port);
        try
        {
            await client.GetStream().WriteAsync(request);
        }
        catch (IOException)
        {
            // The service may refuse and close before it has read everything (the 64 KiB header).
        }
        return await ReadUntilCloseOrAnswerAsync(client.GetStream());
    }

    private static async Task<string> ReadUntilCloseOrAnswerAsync(NetworkStream stream)
    {
        var received = new MemoryStream();
        var buffer = new byte[8192];
        var deadline = DateTime.UtcNow + Timeout;
        while (DateTime.UtcNow < deadline)
        {
            int n;
            try
            {
                // Once something has arrived, a second of silence ends the answer (the connection may stay open).
                var wait = received.Length > 0 ? TimeSpan.FromSeconds(1) : deadline - DateTime.UtcNow;
                n = await stream.ReadAsync(buffer).AsTask().WaitAsync(wait);
            }
            catch (TimeoutException) when (received.Length > 0) { break; }
            catch (IOException) { break; } // reset
            if (n == 0) break;
            received.Write(buffer, 0, n);
            if (IsWholeAnswer(received)) break;
        }
        return Encoding.Latin1.GetString(received.ToArray());
    }

    /// <summary>
    /// Whether the bytes hold a whole answer by its own framing: its head, then a Content-Length body or a chunked one's last chunk. One
    /// without either ends at the close or the second of silence (waiting that second for every answer was 3 s of each error test).
    /// </summary>
    private static bool IsWholeAnswer(MemoryStream received)
    {
        var text = Encoding.Latin1.GetString(received.GetBuffer(), 0, (int)received.Length);
        var headEnd = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        if (headEnd < 0) return false;
        var head = text[..headEnd];
        var body = text.Length - headEnd - 4;
        var length = System.Text.RegularExpressions.Regex.Match(head, @"(?im)^content-length:\s*(\d+)\s*$");
        if (length.Success) return body >= long.Parse(length.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
        return System.Text.RegularExpressions.Regex.IsMatch(head, @"(?im)^transfer-encoding:.*chunked") && text.EndsWith("\r\n0\r\n\r\n", StringComparison.Ordinal);
    }
}
