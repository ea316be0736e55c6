namespace Comparator.Contracts
{
    /// <summary>How a response body is delimited on the wire (HTTP/1.1).</summary>
    public enum Framing
    {
        /// <summary>Buffered: a Content-Length header, no Transfer-Encoding.</summary>
        ContentLength,
        /// <summary>Streamed: Transfer-Encoding: chunked, no Content-Length.</summary>
        Chunked,
    }
}
