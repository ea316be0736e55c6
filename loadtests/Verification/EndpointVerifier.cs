using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Results;
using Comparator.Wire;

namespace Comparator.Verification;

/// <summary>
/// Checks every endpoint of a target over a raw socket: status, content type, framing
/// (Content-Length or chunked, as the contract says) and body bytes. The answer is read by
/// <see cref="ResponseReader"/>, as the socket driver reads it under load. A target that fails any
/// check is not to be measured (TechEmpower's rule: verify before load).
/// </summary>
public static class EndpointVerifier
{
    public const int EchoSampleBytes = 500;
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);

    /// <param name="insecure">an https target's certificate is accepted though it does not validate (--insecure)</param>
    /// <param name="timeout">how long one answer may take; null: 10 s (a service under the simulator needs longer)</param>
    public static async Task<IReadOnlyList<Check>> VerifyAsync(string target, Uri baseUrl, CancellationToken cancellationToken = default, bool insecure = false,
        TimeSpan? timeout = null)
    {
        var checks = new List<Check>();
        foreach (var endpoint in Endpoints.All)
            checks.Add(await VerifyAsync(target, baseUrl, endpoint, cancellationToken, insecure, timeout));
        return checks;
    }

    public static async Task<Check> VerifyAsync(string target, Uri baseUrl, EndpointSpec endpoint, CancellationToken cancellationToken = default, bool insecure = false,
        TimeSpan? timeout = null)
    {
        var body = endpoint.SendsBody ? PayloadCatalogue.Generate(EchoSampleBytes) : null;
        var query = endpoint == Endpoints.Json ? "?" + Routes.JsonItemsParameter + "=" + JsonSample.DefaultItems : "";
        RawResponse response;
        try
        {
            response = await RawHttp.SendAsync(baseUrl, RawHttp.BuildRequest(endpoint, baseUrl, query, body), timeout ?? Timeout, cancellationToken, insecure);
        }
        catch (Exception e) when (e is System.IO.IOException or System.Net.Sockets.SocketException or TimeoutException or System.Security.Authentication.AuthenticationException)
        {
            return new Check(target, endpoint.Name, false, null, "-", null, "no response: " + e.Message);
        }
        catch (System.IO.InvalidDataException e)
        {
            return new Check(target, endpoint.Name, false, null, "-", null, e.Message); // "framing: ...", as the socket driver counts it under load
        }

        var framing = response.IsChunked ? "chunked" : response.ContentLength is not null ? "content-length" : "none";
        var headProblem = response.StatusCode != 200 ? $"status {response.StatusCode}, expected 200" : ContentTypeProblem(endpoint, response);
        var framingProblem = FramingProblem(endpoint, response);
        var problem = headProblem ?? BodyProblem(endpoint, response, body);
        // A framing the stack is known not to produce (declared in the catalogue) is reported, not failed,
        // as long as status, content type and body are right.
        if (problem is null && framingProblem is not null && DeclaredDeviation(target, endpoint) is string why)
            return new Check(target, endpoint.Name, true, response.StatusCode, framing, response.WireBytes, $"declared deviation: {framingProblem} ({why})");
        problem = headProblem ?? framingProblem ?? problem;
        return new Check(target, endpoint.Name, problem is null, response.StatusCode, framing, response.WireBytes, problem ?? "ok");
    }

    private static string? DeclaredDeviation(string target, EndpointSpec endpoint) =>
        Targets.TargetCatalog.Find(target) is { } definition && definition.DeclaredFramingDeviations.TryGetValue(endpoint.Name, out var why) ? why : null;

    private static string? ContentTypeProblem(EndpointSpec endpoint, RawResponse r)
    {
        var contentType = r.Header("Content-Type") ?? "";
        var expectedMedia = endpoint.ResponseContentType.Split(';')[0];
        return contentType.StartsWith(expectedMedia, StringComparison.OrdinalIgnoreCase) ? null : $"Content-Type '{contentType}', expected {expectedMedia}";
    }

    /// <summary>Content-Length or chunked, as the contract says for this endpoint; status and content type are checked apart.</summary>
    private static string? FramingProblem(EndpointSpec endpoint, RawResponse r)
    {
        switch (endpoint.ResponseFraming)
        {
            case Framing.ContentLength when r.IsChunked:
                return "chunked, expected Content-Length";
            case Framing.ContentLength when r.ContentLength != r.Body.Length:
                return $"Content-Length {(r.ContentLength?.ToString() ?? "missing")}, body has {r.Body.Length} bytes";
            case Framing.Chunked when !r.IsChunked:
                return "not chunked, expected Transfer-Encoding: chunked";
            case Framing.Chunked when r.HasHeader("Content-Length"):
                return "chunked response also carries Content-Length";
        }
        return null;
    }

    private static string? BodyProblem(EndpointSpec endpoint, RawResponse r, byte[]? sent)
    {
        if (endpoint == Endpoints.Time)
            return TimeText.TryParse(Encoding.UTF8.GetString(r.Body), out _) ? null : "body is not 'Hello World. Time is: ' + a UTC round-trip time";
        if (endpoint == Endpoints.Json)
        {
            var expected = JsonSample.Serialize(JsonSample.Create(JsonSample.DefaultItems));
            return Encoding.UTF8.GetString(r.Body) == expected ? null : $"body differs from the contract's {JsonSample.DefaultItems} items";
        }
        if (sent is not null && !r.Body.AsSpan().SequenceEqual(sent))
            return $"echo differs: sent {sent.Length} bytes, got {r.Body.Length}";
        return null;
    }
}
