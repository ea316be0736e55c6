using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Text;
using System.Threading.Tasks;
using System.Xml.Linq;
using Comparator.Contracts;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// wcf-classic's SOAP 1.1 endpoint (BasicHttpBinding's message model) at <see cref="Routes.Soap"/>, over
/// real HTTP against the real process, on the project's transport (wcf-classic) and on WCF's stock one
/// (wcf-classic-stock): the envelopes a SOAP client sends, the SOAPAction picking the operation.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class SoapEndpointTests : IClassFixture<SoapEndpointTests.Services>
{
    private const string ServiceNamespace = "urn:comparator";
    private const string EnvelopeNamespace = "http://schemas.xmlsoap.org/soap/envelope/";

    private readonly Services _services;

    public SoapEndpointTests(Services services) => _services = services;

    public static IEnumerable<object[]> Targets => Services.Names.Select(n => new object[] { n });

    [Theory]
    [MemberData(nameof(Targets))]
    public async Task Echo_returns_the_text_unchanged_in_EchoResult_with_a_content_length(string target)
    {
        const string text = "hello <soap> & \"world\" \u00e9";
        using var response = await PostAsync(target, "Echo", "<Echo xmlns=\"urn:comparator\"><text>" + Escape(text) + "</text></Echo>");
        var body = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/xml", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(Encoding.UTF8.GetByteCount(body), response.Content.Headers.ContentLength);
        Assert.NotEqual(true, response.Headers.TransferEncodingChunked);
        Assert.Contains("<EchoResult>", body);
        Assert.Equal(text, Result(body, "EchoResponse", "EchoResult"));
    }

    [Theory]
    [MemberData(nameof(Targets))]
    public async Task Time_returns_the_same_text_as_the_rest_time_endpoint(string target)
    {
        using var response = await PostAsync(target, "Time", "<Time xmlns=\"urn:comparator\"/>");
        var body = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/xml", response.Content.Headers.ContentType?.MediaType);
        var time = Result(body, "TimeResponse", "TimeResult");
        Assert.True(TimeText.TryParse(time, out var serverTime), "unexpected TimeResult: " + time);
        Assert.InRange((serverTime - DateTime.UtcNow).Duration(), TimeSpan.Zero, TimeSpan.FromSeconds(5));
    }

    [Theory]
    [MemberData(nameof(Targets))]
    public async Task An_unknown_action_gets_a_soap_fault_with_status_500(string target)
    {
        using var response = await PostAsync(target, "NoSuchOperation", "<Time xmlns=\"urn:comparator\"/>");
        var body = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
        Assert.Equal("text/xml", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains("Fault", body);
        var fault = XDocument.Parse(body).Descendants(XName.Get("Fault", EnvelopeNamespace)).Single();
        Assert.EndsWith(":ActionNotSupported", fault.Element("faultcode")?.Value);
    }

    [Fact]
    public async Task A_request_without_soapaction_gets_a_fault_not_a_hang()
    {
        using var request = Envelope("wcf-classic", "<Time xmlns=\"urn:comparator\"/>");
        using var response = await _services.Http.SendAsync(request);

        Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
        Assert.Contains("Fault", await response.Content.ReadAsStringAsync());
    }

    /// <summary>
    /// Mono's dispatcher drops the fault for a body its formatter cannot read (the stock transport then
    /// answers an empty 200); the project's transport answers that request with a SOAP fault.
    /// </summary>
    [Fact]
    public async Task A_body_the_operation_cannot_read_gets_a_fault_on_the_listener_transport()
    {
        using var response = await PostAsync("wcf-classic", "Echo", "<NotEcho xmlns=\"urn:elsewhere\"/>");
        var body = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
        Assert.Single(XDocument.Parse(body).Descendants(XName.Get("Fault", EnvelopeNamespace)));
    }

    /// <summary>The project's transport refuses what is not a SOAP request before WCF sees it.</summary>
    [Theory]
    [InlineData("GET", null, HttpStatusCode.MethodNotAllowed)]
    [InlineData("POST", "application/json", HttpStatusCode.UnsupportedMediaType)]
    public async Task The_listener_transport_refuses_a_request_that_is_not_soap(string method, string? contentType, HttpStatusCode expected)
    {
        using var request = new HttpRequestMessage(new HttpMethod(method), new Uri(_services.BaseUrl("wcf-classic"), Routes.Soap));
        if (contentType != null) request.Content = new StringContent("{}", Encoding.UTF8, contentType);
        using var response = await _services.Http.SendAsync(request);

        Assert.Equal(expected, response.StatusCode);
    }

    [Theory]
    [MemberData(nameof(Targets))]
    public async Task The_rest_endpoints_still_answer_beside_soap(string target)
    {
        using var response = await _services.Http.GetAsync(new Uri(_services.BaseUrl(target), Routes.Time));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.True(TimeText.TryParse(await response.Content.ReadAsStringAsync(), out _));
    }

    [Theory]
    [MemberData(nameof(Targets))]
    public async Task Soap_answers_carry_no_server_header(string target)
    {
        using var response = await PostAsync(target, "Time", "<Time xmlns=\"urn:comparator\"/>");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.True(!response.Headers.TryGetValues("Server", out var values) || values.All(string.IsNullOrEmpty), "Server: " + string.Join(",", values ?? Array.Empty<string>()));
    }

    private async Task<HttpResponseMessage> PostAsync(string target, string operation, string bodyElement)
    {
        using var request = Envelope(target, bodyElement);
        request.Headers.TryAddWithoutValidation("SOAPAction", "\"" + ServiceNamespace + "/ISoapContract/" + operation + "\"");
        return await _services.Http.SendAsync(request);
    }

    private HttpRequestMessage Envelope(string target, string bodyElement)
    {
        var xml = "<s:Envelope xmlns:s=\"" + EnvelopeNamespace + "\"><s:Body>" + bodyElement + "</s:Body></s:Envelope>";
        return new HttpRequestMessage(HttpMethod.Post, new Uri(_services.BaseUrl(target), Routes.Soap))
        {
            Content = new StringContent(xml, new UTF8Encoding(false), "text/xml"), // text/xml; charset=utf-8
        };
    }

    private static string Escape(string text) => new XText(text).ToString();

    /// <summary>Body/{response}/{result} of a SOAP answer, all in the service's namespace but the envelope.</summary>
    private static string Result(string body, string response, string result)
    {
        var envelope = XDocument.Parse(body).Root!;
        Assert.Equal(XName.Get("Envelope", EnvelopeNamespace), envelope.Name);
        var value = envelope.Element(XName.Get("Body", EnvelopeNamespace))?.Element(XName.Get(response, ServiceNamespace))?.Element(XName.Get(result, ServiceNamespace));
        Assert.True(value != null, "no " + response + "/" + result + " in: " + body);
        return value!.Value;
    }

    /// <summary>wcf-classic on each transport, started once for the class.</summary>
    [Trait(TestTiers.Trait, TestTiers.Processes)]
    public sealed class Services : IAsyncLifetime
    {
        public static readonly string[] Names = { "wcf-classic", "wcf-classic-stock" };

        private readonly Dictionary<string, RunningTarget> _running = new();

        public HttpClient Http { get; } = new() { Timeout = TimeSpan.FromSeconds(30) };

        public Uri BaseUrl(string target) => _running[target].BaseUrl;

        public async Task InitializeAsync()
        {
            var launcher = new TargetLauncher(BuildLayout.Discover());
            foreach (var name in Names)
            {
                var target = TargetCatalog.Find(name)!;
                Assert.True(target.IsAvailable, target.UnavailableReason);
                _running[name] = await launcher.StartAsync(target, ServiceSwitches.Default);
            }
        }

        public async Task DisposeAsync()
        {
            Http.Dispose();
            foreach (var running in _running.Values) await running.DisposeAsync();
        }
    }
}
