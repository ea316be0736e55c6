using System;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Wire;
using Xunit;

namespace Comparator.Tests;

/// <summary>The raw HTTP/1.1 reader on fixed byte sequences: framing and exact byte counts.</summary>
public sealed class RawHttpTests
{
    private static Task<RawResponse> Read(string wire) =>
        RawHttp.ReadResponseAsync(new MemoryStream(Encoding.ASCII.GetBytes(wire)), CancellationToken.None);

    [Fact]
    public async Task Content_length_body_is_read_exactly_and_every_byte_is_counted()
    {
        const string head = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\n";
        var r = await Read(head + "hello" + "EXTRA");

        Assert.Equal(200, r.StatusCode);
        Assert.Equal("hello", Encoding.ASCII.GetString(r.Body));
        Assert.Equal(head.Length, r.HeadBytes);
        Assert.Equal(head.Length + 5, r.WireBytes);
        Assert.False(r.IsChunked);
    }

    [Fact]
    public async Task Chunked_body_with_extensions_and_trailers_is_deframed_and_framing_is_counted()
    {
        const string wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
                            "5;name=value\r\nhello\r\n" + "1\r\n \r\n" + "5\r\nworld\r\n" + "0\r\nX-Trailer: 1\r\n\r\n";
        var r = await Read(wire);

        Assert.True(r.IsChunked);
        Assert.Equal("hello world", Encoding.ASCII.GetString(r.Body));
        Assert.Equal(wire.Length, r.WireBytes);
    }

    [Fact]
    public async Task A_response_cut_short_is_an_error_not_a_short_body()
    {
        await Assert.ThrowsAsync<IOException>(() => Read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort"));
        await Assert.ThrowsAsync<IOException>(() => Read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nA\r\nshort"));
        await Assert.ThrowsAsync<IOException>(() => Read("SSH-2.0-OpenSSH\r\n\r\n"));
    }

    [Fact]
    public void Requests_carry_a_body_only_with_content_length()
    {
        var url = new Uri("http://127.0.0.1:8080");
        var get = Encoding.ASCII.GetString(RawHttp.BuildRequest("GET", "/api/time", url, null));
        var post = Encoding.ASCII.GetString(RawHttp.BuildRequest("POST", "/api/echo", url, new byte[] { 65, 66 }));

        Assert.Equal("GET /api/time HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", get);
        Assert.Equal("POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/octet-stream\r\nContent-Length: 2\r\n\r\nAB", post);
    }
}
