using System;
using System.Collections.Generic;
using System.Linq;

namespace Comparator.Wire;

/// <summary>An HTTP/1.1 response as it came off the socket: head, de-framed body, and byte counts.</summary>
public sealed record RawResponse(
    int StatusCode,
    IReadOnlyList<KeyValuePair<string, string>> Headers,
    byte[] Body,
    long HeadBytes,
    long WireBytes)
{
    public IEnumerable<string> HeaderValues(string name) =>
        Headers.Where(h => string.Equals(h.Key, name, StringComparison.OrdinalIgnoreCase)).Select(h => h.Value);

    public string? Header(string name) => HeaderValues(name).FirstOrDefault();

    public bool HasHeader(string name) => HeaderValues(name).Any();

    public bool IsChunked => HeaderValues("Transfer-Encoding").Any(v => v.Contains("chunked", StringComparison.OrdinalIgnoreCase));

    public long? ContentLength => long.TryParse(Header("Content-Length"), out var n) ? n : null;
}
