using System;
using System.Linq;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Targets;
using Comparator.Verification;
using Comparator.Wire;
using Xunit;

namespace Comparator.Tests;

/// <summary>The contract as bytes on a raw socket: limits, Server header, identical requests, bad input.</summary>
[Collection(TargetsCollection.Name)]
[Trait(TestTiers.Trait, TestTiers.Processes)]
public sealed class WireConformanceTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(15);
    private readonly TargetsFixture _targets;

    public WireConformanceTests(TargetsFixture targets) => _targets = targets;

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task A_declared_body_over_the_default_16_MiB_gets_413_without_being_sent_and_the_service_keeps_serving(string target)
    {
        var baseUrl = _targets.Default(target).BaseUrl;
        var overDefault = (ServiceLimits.DefaultMaxBodyBytes + 1).ToString(System.Globalization.CultureInfo.InvariantCulture);
        foreach (var endpoint in new[] { Endpoints.EchoPost, Endpoints.EchoPut })
        {
            // Headers only: a service that waited for the 16 MiB body instead of refusing would time out here.
            var request = RawHttp.BuildRequest(endpoint.Method, endpoint.Path, baseUrl, null, new[] { "Content-Length: " + overDefault });
            var refused = await RawHttp.SendAsync(baseUrl, request, Timeout);
            Assert.Equal(413, refused.StatusCode);
        }

        var next = await RawHttp.SendAsync(baseUrl, RawHttp.BuildRequest(Endpoints.Time, baseUrl, "", null), Timeout);
        Assert.Equal(200, next.StatusCode);
    }

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task No_server_header_by_default_and_one_when_the_flag_asks(string target)
    {
        var definition = TargetCatalog.Find(target)!;
        foreach (var endpoint in Endpoints.All)
        {
            var off = await Exchange(_targets.Default(target).BaseUrl, endpoint);
            var on = await Exchange(_targets.Flagged(target).BaseUrl, endpoint);

            var offValues = off.HeaderValues("Server").ToList();
            if (definition.ServerHeaderWhenOff is null)
                Assert.Empty(offValues);
            else
                Assert.Equal(new[] { definition.ServerHeaderWhenOff }, offValues); // declared: the stack cannot omit it
            Assert.False(string.IsNullOrWhiteSpace(on.Header("Server")), $"{endpoint.Name}: no Server header with --server-header");
        }
    }

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task Every_endpoint_passes_verification(string target)
    {
        var checks = await EndpointVerifier.VerifyAsync(target, _targets.Default(target).BaseUrl);
        Assert.Equal(Endpoints.All.Select(e => e.Name), checks.Select(c => c.Endpoint));
        Assert.All(checks, c => Assert.True(c.Passed, $"{c.Endpoint}: {c.Detail}"));
    }

    [Fact]
    public void Request_bytes_of_every_endpoint_are_the_contract_s_literal_bytes_on_every_target_but_for_the_host_port()
    {
        var body = PayloadCatalogue.Generate(500);
        // The contract's requests written out by hand: every target is sent these bytes, its own host and port alone differing.
        static string Head(string requestLine, string host, bool withBody) => requestLine + "\r\nHost: " + host + "\r\n"
            + (withBody ? "Content-Type: application/octet-stream\r\nContent-Length: 500\r\n" : "") + "\r\n";
        var expected = new (string Endpoint, string RequestLine, bool WithBody)[]
        {
            ("time", "GET /api/time HTTP/1.1", false),
            ("json", "GET /api/json HTTP/1.1", false),
            ("echo-post", "POST /api/echo HTTP/1.1", true),
            ("echo-put", "PUT /api/stream/echo HTTP/1.1", true),
        };
        Assert.Equal(expected.Select(e => e.Endpoint), Endpoints.All.Select(e => e.Name));
        foreach (var url in TargetsFixture.UnderTest.Select(t => _targets.Default(t.Name).BaseUrl))
            foreach (var (endpoint, (_, requestLine, withBody)) in Endpoints.All.Zip(expected))
            {
                var head = Encoding.ASCII.GetBytes(Head(requestLine, $"{url.Host}:{url.Port}", withBody));
                Assert.Equal(withBody ? head.Concat(body).ToArray() : head, RawHttp.BuildRequest(endpoint, url, "", body));
            }
    }

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task A_malformed_header_line_is_refused_with_a_4xx_and_the_service_keeps_serving(string target)
    {
        var baseUrl = _targets.Default(target).BaseUrl;
        using (var client = new TcpClient())
        {
            await client.ConnectAsync(baseUrl.Host, baseUrl.Port);
            var stream = client.GetStream();
            await stream.WriteAsync(Encoding.ASCII.GetBytes("GET /api/time HTTP/1.1\r\nHost: x\r\nthis header has no colon\r\n\r\n"));
            stream.ReadTimeout = (int)Timeout.TotalMilliseconds;
            var buffer = new byte[4096];
            var n = await stream.ReadAsync(buffer).AsTask().WaitAsync(Timeout);
            // Either a 4xx or a closed connection is an acceptable refusal; a 2xx or 5xx is not.
            if (n > 0) Assert.Matches(@"^HTTP/1\.[01] 4\d\d", Encoding.ASCII.GetString(buffer, 0, n));
        }

        var next = await Exchange(baseUrl, Endpoints.Time);
        Assert.Equal(200, next.StatusCode);
    }

    private static Task<RawResponse> Exchange(Uri baseUrl, EndpointSpec endpoint) =>
        RawHttp.SendAsync(baseUrl, RawHttp.BuildRequest(endpoint, baseUrl, "", PayloadCatalogue.Generate(10)), Timeout);
}
