using System.Text;
using Comparator.Contracts;
using Comparator.Scenarios;

namespace Comparator.Drivers;

/// <summary>
/// The request a cell repeats, and what every response must be to count as a success. For the
/// contract's endpoints: a 2xx status and the exact bytes where the contract fixes them (echo, json),
/// otherwise an exact length and prefix (time), checked as the body streams in. For a scenario's
/// operation: the file's rule (<see cref="AnswerCheck"/>) on the status and the whole body.
/// </summary>
/// <param name="Name">the cell's endpoint: a contract endpoint's name or a scenario operation's</param>
/// <param name="AnswerChunked">whether a correct answer comes with Transfer-Encoding: chunked (an HTTP/1.0 client cannot ask for it)</param>
public sealed record LoadRequest(string Name, string Method, Uri Url, IReadOnlyList<KeyValuePair<string, string>> Headers, byte[]? Body,
    byte[]? ExpectedBody, int? ExpectedLength, byte[]? ExpectedPrefix, bool AnswerChunked)
{
    /// <summary>
    /// A scenario's rule: the status and the whole body in, null when the answer is correct, else
    /// what differs. When set, it replaces the contract's checks (any status may then be right).
    /// </summary>
    public Func<int, byte[], string?>? AnswerCheck { get; init; }

    /// <summary>An https target's certificate is accepted though it does not validate (--insecure).</summary>
    public bool Insecure { get; init; }

    /// <summary>Whether the target is asked over TLS (an https:// URL).</summary>
    public bool Tls => Wire.TlsClient.IsHttps(Url);

    /// <summary>The statuses a correct answer may have; empty for any 2xx.</summary>
    public IReadOnlyList<int> AcceptedStatus { get; init; } = Array.Empty<int>();

    /// <summary>True when a correct answer may be outside 2xx (a SOAP fault, a 404 on purpose): ab and wrk count those as failures.</summary>
    public bool AcceptsNon2xx => AcceptedStatus.Any(s => s is < 200 or > 299);

    /// <summary>
    /// A scenario request with {seq} or {uuid}: its parts, written afresh for each request (the fields above then
    /// hold its first request, seq 1); null when every request is the same bytes ({env:NAME} alone is fixed at start).
    /// </summary>
    public RequestParts? Variation { get; init; }

    /// <summary>What varies per request and where ("{seq} in the path"), or null: a driver that sends one fixed request cannot send it.</summary>
    public string? Varies => Variation?.Describe();

    /// <summary>The request numbered <paramref name="seq"/> on its connection, with a fresh {uuid}: its URL, headers and body (this request's own when nothing varies).</summary>
    public (Uri Url, IReadOnlyList<KeyValuePair<string, string>> Headers, byte[]? Body) Instance(long seq)
    {
        if (Variation is not { } parts) return (Url, Headers, Body);
        var (path, headers, body) = parts.Expand(seq, Guid.NewGuid());
        return (new Uri(Url, path), headers, body);
    }

    /// <summary>The Content-Type header of the request, or null.</summary>
    public string? ContentType => Headers.FirstOrDefault(h => h.Key.Equals("Content-Type", StringComparison.OrdinalIgnoreCase)).Value;

    public static LoadRequest For(EndpointSpec endpoint, Uri baseUrl, byte[] payload, int jsonItems)
    {
        var chunked = endpoint.ResponseFraming == Framing.Chunked;
        if (endpoint == Endpoints.Time)
            return new LoadRequest(endpoint.Name, endpoint.Method, new Uri(baseUrl, Routes.Time), NoHeaders, null, null, TimeText.Length, Encoding.ASCII.GetBytes(TimeText.Prefix), chunked);
        if (endpoint == Endpoints.Json)
        {
            var expected = Encoding.UTF8.GetBytes(JsonSample.Serialize(JsonSample.Create(jsonItems)));
            return new LoadRequest(endpoint.Name, endpoint.Method, new Uri(baseUrl, $"{Routes.Json}?{Routes.JsonItemsParameter}={jsonItems}"), NoHeaders, null, expected, expected.Length, null, chunked);
        }
        return new LoadRequest(endpoint.Name, endpoint.Method, new Uri(baseUrl, endpoint.Path), BinaryBody, payload, payload, payload.Length, null, chunked);
    }

    /// <summary>
    /// A scenario operation as one target asks it, checked by the target's rule; <paramref name="reference"/>
    /// is the reference target's answer to this operation in this launch's verification (null without same-as or same-fields).
    /// </summary>
    public static LoadRequest For(Operation operation, string target, Uri baseUrl, byte[]? reference, bool answerChunked)
    {
        var request = Scenario.RequestFor(operation, target) ?? throw new InvalidOperationException($"operation '{operation.Name}' has no request for {target}");
        var expect = Scenario.ExpectFor(operation, target);
        var (path, headers, body) = request.Parts.Expand(1, Guid.NewGuid());
        return new LoadRequest(operation.Name, request.Method, new Uri(baseUrl, path), headers, body, null, null, null, answerChunked)
        {
            AnswerCheck = AnswerRules.Checker(expect, target, reference),
            AcceptedStatus = expect.Status,
            Variation = request.Parts.Varies ? request.Parts : null,
        };
    }

    private static readonly IReadOnlyList<KeyValuePair<string, string>> NoHeaders = Array.Empty<KeyValuePair<string, string>>();
    private static readonly IReadOnlyList<KeyValuePair<string, string>> BinaryBody = new[] { new KeyValuePair<string, string>("Content-Type", ContentTypes.Binary) };
}
