namespace Comparator.Wire;

/// <summary>How a response's body is delimited on the wire (RFC 9112 §6.3).</summary>
public enum BodyFraming
{
    /// <summary>No body, whatever the head says: an answer to HEAD, a 1xx, 204 or 304.</summary>
    None,
    /// <summary>Exactly <see cref="ResponseHead.ContentLength"/> bytes.</summary>
    ContentLength,
    /// <summary>Transfer-Encoding whose last coding is chunked.</summary>
    Chunked,
    /// <summary>Everything until the server closes the connection.</summary>
    UntilClose,
}

/// <summary>What a response's head says about the body that follows and the connection.</summary>
/// <param name="ContentLength">the Content-Length field's value where no Transfer-Encoding overrides it (also on a body-less answer, where it is only information), else null</param>
/// <param name="Close">the server ends the connection after this answer (Connection: close, or HTTP/1.0 without keep-alive)</param>
/// <param name="HeadBytes">the head's bytes on the wire, any interim 1xx heads before it included</param>
public readonly record struct ResponseHead(int Status, BodyFraming Framing, long? ContentLength, bool Close, long HeadBytes = 0)
{
    public bool Chunked => Framing == BodyFraming.Chunked;

    /// <summary>Whether the connection can carry the next request once the body is read.</summary>
    public bool KeepsConnection => !Close && Framing != BodyFraming.UntilClose;

    /// <summary>How many more requests the server takes on this connection, where its Keep-Alive field says (max=N; Mono's listener: 100 on a new connection), else null.</summary>
    public int? KeepAliveMax { get; init; }
}

/// <summary>Takes a body's pieces as they arrive (a struct or a sealed class, so the reader's calls need no virtual dispatch where it can).</summary>
public interface IBodySink
{
    void Feed(ReadOnlySpan<byte> piece);
}
