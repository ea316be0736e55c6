using System;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The contract, checked over real HTTP against every target that runs here, through .NET's
/// HttpClient (an independent reader of the framing; the raw-socket checks are in WireConformanceTests).
/// </summary>
[Collection(TargetsCollection.Name)]
[Trait(TestTiers.Trait, TestTiers.Processes)]
public sealed class ConformanceTests
{
    private readonly TargetsFixture _targets;

    public ConformanceTests(TargetsFixture targets) => _targets = targets;

    private Uri Url(string target, string pathAndQuery) => new(_targets.Default(target).BaseUrl, pathAndQuery);

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task Time_answers_text_with_the_current_utc_time_and_a_content_length(string target)
    {
        using var response = await _targets.Http.GetAsync(Url(target, Routes.Time));
        var body = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/plain", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(TimeText.Length, response.Content.Headers.ContentLength);
        Assert.NotEqual(true, response.Headers.TransferEncodingChunked);
        Assert.True(TimeText.TryParse(body, out var serverTime), "unexpected body: " + body);
        Assert.InRange((serverTime - DateTime.UtcNow).Duration(), TimeSpan.Zero, TimeSpan.FromSeconds(5));
    }

    [Theory]
    [MemberData(nameof(TestData.TargetsAndItems), MemberType = typeof(TestData))]
    public async Task Json_answers_n_objects_serialized_by_newtonsoft_with_a_content_length(string target, int items)
    {
        using var response = await _targets.Http.GetAsync(Url(target, $"{Routes.Json}?{Routes.JsonItemsParameter}={items}"));
        var body = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(System.Text.Encoding.UTF8.GetByteCount(body), response.Content.Headers.ContentLength);
        var parsed = JsonSample.Deserialize(body);
        Assert.NotNull(parsed);
        Assert.Equal(items, parsed!.Length);
        Assert.Equal(Enumerable.Range(1, items), parsed.Select(i => i.Id));
        Assert.Equal(ExpectedJson(items), body); // byte-identical in every stack
    }

    /// <summary>
    /// The contract's JSON written out apart from the serializer every service calls: item i is named "Item i" and
    /// created i−1 minutes after 2015-01-01 00:00 UTC, with no whitespace.
    /// </summary>
    private static string ExpectedJson(int items) => items switch
    {
        0 => "[]",
        1 => """[{"Id":1,"Name":"Item 1","CreatedOn":"2015-01-01T00:00:00Z"}]""",
        3 => """[{"Id":1,"Name":"Item 1","CreatedOn":"2015-01-01T00:00:00Z"},{"Id":2,"Name":"Item 2","CreatedOn":"2015-01-01T00:01:00Z"},""" +
             """{"Id":3,"Name":"Item 3","CreatedOn":"2015-01-01T00:02:00Z"}]""",
        _ => "[" + string.Join(",", Enumerable.Range(1, items).Select(i =>
            $$"""{"Id":{{i}},"Name":"Item {{i}}","CreatedOn":"2015-01-01T{{(i - 1) / 60:00}}:{{(i - 1) % 60:00}}:00Z"}""")) + "]",
    };

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task Json_without_items_answers_the_default_count(string target)
    {
        var body = await _targets.Http.GetStringAsync(Url(target, Routes.Json));
        Assert.Equal(JsonSample.DefaultItems, JsonSample.Deserialize(body)!.Length);
    }

    [Theory]
    [MemberData(nameof(TestData.TargetsAndBadItems), MemberType = typeof(TestData))]
    public async Task Json_refuses_items_outside_0_to_10000_with_400(string target, string raw)
    {
        using var response = await _targets.Http.GetAsync(Url(target, $"{Routes.Json}?{Routes.JsonItemsParameter}={raw}"));
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }

    [Theory]
    [MemberData(nameof(TestData.TargetsAndBodies), MemberType = typeof(TestData))]
    public async Task Echo_post_returns_the_same_bytes_with_a_content_length(string target, string bodyName)
    {
        var sent = TestData.Body(bodyName);
        using var response = await SendAsync(HttpMethod.Post, Url(target, Routes.Echo), sent);
        var received = await response.Content.ReadAsByteArrayAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(sent.Length, response.Content.Headers.ContentLength);
        Assert.NotEqual(true, response.Headers.TransferEncodingChunked);
        Assert.True(sent.AsSpan().SequenceEqual(received), $"echo differs: sent {sent.Length} bytes, got {received.Length}");
    }

    [Theory]
    [MemberData(nameof(TestData.TargetsAndBodies), MemberType = typeof(TestData))]
    public async Task Echo_put_streams_the_same_bytes_back_chunked(string target, string bodyName)
    {
        var sent = TestData.Body(bodyName);
        using var response = await SendAsync(HttpMethod.Put, Url(target, Routes.StreamEcho), sent);
        var received = await response.Content.ReadAsByteArrayAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        // A stack the catalogue declares buffered here (WCF's own transport: wcf-classic on Windows) answers with Content-Length.
        if (TargetCatalog.Find(target)?.DeclaredFramingDeviations.ContainsKey("echo-put") == true)
            Assert.Equal(sent.Length, response.Content.Headers.ContentLength);
        else
        {
            Assert.True(response.Headers.TransferEncodingChunked, "expected Transfer-Encoding: chunked");
            Assert.False(response.Content.Headers.NonValidated.Contains("Content-Length"), "chunked response also carries Content-Length");
        }
        Assert.True(sent.AsSpan().SequenceEqual(received), $"echo differs: sent {sent.Length} bytes, got {received.Length}");
    }

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task Unknown_path_is_404_and_a_wrong_method_is_405(string target)
    {
        using var unknown = await _targets.Http.GetAsync(Url(target, "/api/nothing-here"));
        using var wrongMethod = await _targets.Http.DeleteAsync(Url(target, Routes.Echo));

        Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
        Assert.Equal(HttpStatusCode.MethodNotAllowed, wrongMethod.StatusCode);
    }

    [Theory]
    [MemberData(nameof(TargetsFixture.TargetNames), MemberType = typeof(TargetsFixture))]
    public async Task Bodies_over_the_flagged_limit_get_413_and_the_limit_itself_is_accepted(string target)
    {
        var limitUrl = new Uri(_targets.Flagged(target).BaseUrl, Routes.Echo);
        var streamUrl = new Uri(_targets.Flagged(target).BaseUrl, Routes.StreamEcho);
        var atLimit = new byte[TargetsFixture.SmallBodyLimit];
        var overLimit = new byte[TargetsFixture.SmallBodyLimit + 1];

        using var postOver = await SendAsync(HttpMethod.Post, limitUrl, overLimit);
        using var putOver = await SendAsync(HttpMethod.Put, streamUrl, overLimit);
        using var postAt = await SendAsync(HttpMethod.Post, limitUrl, atLimit);

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, postOver.StatusCode);
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, putOver.StatusCode);
        Assert.Equal(HttpStatusCode.OK, postAt.StatusCode);
        Assert.Equal(atLimit.Length, (await postAt.Content.ReadAsByteArrayAsync()).Length);
    }

    private async Task<HttpResponseMessage> SendAsync(HttpMethod method, Uri url, byte[] body)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = new MediaTypeHeaderValue(ContentTypes.Binary);
        content.Headers.ContentLength = body.Length;
        using var request = new HttpRequestMessage(method, url) { Content = content };
        return await _targets.Http.SendAsync(request);
    }
}
