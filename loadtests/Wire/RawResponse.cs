namespace Comparator.Wire;

/// <summary>
/// One HTTP/1.1 answer as <see cref="ResponseReader"/> read it off the socket: its head (framing as
/// the reader decided it), every field line, the de-framed body, and its bytes on the wire.
/// </summary>
public sealed record RawResponse(ResponseHead Head, IReadOnlyList<KeyValuePair<string, string>> Headers, byte[] Body, long WireBytes)
{
    public int StatusCode => Head.Status;

    public long HeadBytes => Head.HeadBytes;

    public bool IsChunked => Head.Chunked;

    /// <summary>The Content-Length the framing used or, on a body-less answer, announced; null when chunked or absent.</summary>
    public long? ContentLength => Head.ContentLength;

    public IEnumerable<string> HeaderValues(string name) =>
        Headers.Where(h => string.Equals(h.Key, name, StringComparison.OrdinalIgnoreCase)).Select(h => h.Value);

    public string? Header(string name) => HeaderValues(name).FirstOrDefault();

    public bool HasHeader(string name) => HeaderValues(name).Any();
}
