using System;
using System.IO;
using System.IO.Pipelines;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Wire;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The one HTTP/1.1 response reader (<see cref="ResponseReader"/>) on fixed byte sequences: its
/// framing rules, byte counts, and the raw client's request bytes. The same answers over real
/// sockets, through the socket driver and both verifiers, are in <see cref="FramingAgreementTests"/>.
/// </summary>
public sealed class ResponseReaderTests
{
    private static Task<RawResponse> Read(string wire, string method = "GET") =>
        RawHttp.ReadResponseAsync(new MemoryStream(Encoding.ASCII.GetBytes(wire)), method, CancellationToken.None);

    private static PipeReader Pipe(string wire) => PipeReader.Create(new MemoryStream(Encoding.ASCII.GetBytes(wire)));

    /// <summary>One answer off a pipe that may hold more: its head (HeadBytes zeroed), its body as text.</summary>
    private static async Task<(ResponseHead? Head, string Body)> Next(PipeReader reader, string method = "GET")
    {
        var head = await ResponseReader.ReadHeadAsync(reader, method, CancellationToken.None);
        var sink = new Collect();
        if (head is ResponseHead h) await ResponseReader.ReadBodyAsync(reader, h, sink, CancellationToken.None);
        return (head is ResponseHead found ? found with { HeadBytes = 0 } : null, sink.Text.ToString());
    }

    private sealed class Collect : IBodySink
    {
        public readonly StringBuilder Text = new();
        public void Feed(ReadOnlySpan<byte> piece) => Text.Append(Encoding.ASCII.GetString(piece));
    }

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
        Assert.Equal("text/plain", r.Header("content-type"));
    }

    [Fact]
    public async Task Chunked_body_with_extensions_and_trailers_is_deframed_and_framing_is_counted()
    {
        const string wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
                            "5;name=value\r\nhello\r\n" + "1 ; a=\"b;c\"\r\n \r\n" + "5\r\nworld\r\n" + "0;last\r\nX-Trailer: 1\r\nX-Other: 2\r\n\r\n";
        var r = await Read(wire);

        Assert.True(r.IsChunked);
        Assert.Equal("hello world", Encoding.ASCII.GetString(r.Body));
        Assert.Equal(wire.Length, r.WireBytes);
    }

    [Fact]
    public async Task Heads_say_how_the_body_is_framed_and_whether_the_connection_stays()
    {
        var (head, body) = await Next(Pipe("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nhello"));
        Assert.Equal(new ResponseHead(200, BodyFraming.ContentLength, 5, false), head);
        Assert.Equal("hello", body);

        (head, body) = await Next(Pipe("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n"));
        Assert.Equal(new ResponseHead(200, BodyFraming.Chunked, null, true), head);
        Assert.Equal("abcde", body);

        (head, body) = await Next(Pipe("HTTP/1.0 404 Not Found\r\n\r\ngone"));
        Assert.Equal(new ResponseHead(404, BodyFraming.UntilClose, null, true), head); // HTTP/1.0 without keep-alive closes; the body runs to the end
        Assert.Equal("gone", body);

        (head, _) = await Next(Pipe("HTTP/1.1 200 OK\r\n\r\nuntil close"));
        Assert.False(head!.Value.KeepsConnection); // neither length nor chunked: only the close ends it

        (head, _) = await Next(Pipe(""));
        Assert.Null(head); // the server closed a kept-alive connection before answering
    }

    [Theory]
    [InlineData("HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\n")]
    [InlineData("HEAD", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")]
    [InlineData("GET", "HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n")]
    [InlineData("GET", "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n")]
    [InlineData("GET", "HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n")]
    public async Task Answers_to_HEAD_and_204_and_304_end_at_their_head_and_the_next_answer_follows_on_the_same_connection(string method, string first)
    {
        var reader = Pipe(first + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi");

        var (head, body) = await Next(reader, method);
        Assert.Equal(BodyFraming.None, head!.Value.Framing);
        Assert.True(head.Value.KeepsConnection);
        Assert.Equal("", body);
        Assert.Equal(first.Contains("Content-Length: 5") ? 5 : null, head.Value.ContentLength); // announced, not read

        (head, body) = await Next(reader);
        Assert.Equal(200, head!.Value.Status);
        Assert.Equal("hi", body);
    }

    [Fact]
    public async Task Interim_1xx_answers_are_skipped_and_counted_in_the_head_bytes()
    {
        const string interim = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n";
        const string final = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n";
        var r = await Read(interim + final + "hi");

        Assert.Equal(200, r.StatusCode);
        Assert.Equal("hi", Encoding.ASCII.GetString(r.Body));
        Assert.Equal(interim.Length + final.Length, r.HeadBytes);
        Assert.DoesNotContain(r.Headers, h => h.Key == "Link"); // the final answer's fields only
    }

    [Theory]
    [InlineData("chunked", BodyFraming.Chunked)]
    [InlineData("CHUNKED", BodyFraming.Chunked)]
    [InlineData("gzip, chunked", BodyFraming.Chunked)]
    [InlineData("gzip,chunked,", BodyFraming.Chunked)]
    [InlineData("chunked, gzip", BodyFraming.UntilClose)]
    [InlineData("notchunked", BodyFraming.UntilClose)]
    [InlineData("gzip\r\nTransfer-Encoding: chunked", BodyFraming.Chunked)]
    [InlineData("chunked\r\nTransfer-Encoding: gzip", BodyFraming.UntilClose)]
    [InlineData("chunked\r\nContent-Length: 99", BodyFraming.Chunked)]
    [InlineData("chunked\r\nContent-Length: abc", BodyFraming.Chunked)] // Transfer-Encoding overrides Content-Length, a bad one too
    public void Chunked_is_the_last_transfer_coding_compared_case_insensitively(string value, BodyFraming expected)
    {
        var head = ResponseReader.ParseHead(Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nTransfer-Encoding: {value}\r\n\r\n"), "GET");
        Assert.Equal(expected, head.Framing);
        Assert.Null(head.ContentLength);
    }

    [Theory]
    [InlineData("abc")]
    [InlineData("-1")]
    [InlineData("+5")]
    [InlineData("5 5")]
    [InlineData("")]
    [InlineData("5, 6")]
    [InlineData("0x10")]
    [InlineData("99999999999999999999")]
    public void A_bad_content_length_is_a_framing_error_with_its_reason_on_any_answer(string value)
    {
        foreach (var (status, method) in new[] { ("200 OK", "GET"), ("304 Not Modified", "GET"), ("200 OK", "HEAD") })
        {
            var e = Assert.Throws<InvalidDataException>(() =>
                ResponseReader.ParseHead(Encoding.ASCII.GetBytes($"HTTP/1.1 {status}\r\nContent-Length: {value}\r\n\r\n"), method));
            Assert.StartsWith("framing: a bad Content-Length: ", e.Message);
        }
    }

    [Theory]
    [InlineData("timeout=15,max=100", 100)]
    [InlineData("timeout=5, MAX=7", 7)]
    [InlineData("max=0", 0)]
    [InlineData("timeout=15", null)]
    [InlineData("max=-1", null)]
    [InlineData("max=12x", null)]
    public void A_keep_alive_field_says_how_many_more_requests_the_connection_takes(string value, int? expected)
    {
        var head = ResponseReader.ParseHead(Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nKeep-Alive: {value}\r\nContent-Length: 0\r\n\r\n"), "GET");
        Assert.Equal(expected, head.KeepAliveMax);
        Assert.True(head.KeepsConnection);
    }

    [Fact]
    public void Repeated_equal_content_lengths_are_one()
    {
        var head = ResponseReader.ParseHead("HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\ncontent-length: 5\r\n\r\n"u8, "GET");
        Assert.Equal(5, head.ContentLength);
    }

    [Fact]
    public async Task A_bare_LF_ends_a_line_everywhere_and_every_byte_is_counted()
    {
        const string plain = "HTTP/1.1 200 OK\nContent-Length: 5\nContent-Type: text/plain\n\nhello";
        var r = await Read(plain);
        Assert.Equal(200, r.StatusCode);
        Assert.Equal("hello", Encoding.ASCII.GetString(r.Body));
        Assert.Equal("text/plain", r.Header("Content-Type"));
        Assert.Equal(plain.Length, r.WireBytes);

        const string chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\n\r\n5;x\nhello\n1\r\n!\n0\nX-T: 1\n\n";
        r = await Read(chunked);
        Assert.Equal("hello!", Encoding.ASCII.GetString(r.Body));
        Assert.Equal(chunked.Length, r.WireBytes);
    }

    [Fact]
    public async Task A_folded_field_is_joined_and_a_folded_framing_field_is_refused()
    {
        var r = await Read("HTTP/1.1 200 OK\r\nX-Long: one\r\n two\r\nContent-Length: 0\r\n\r\n");
        Assert.Equal("one two", r.Header("X-Long"));
        await Assert.ThrowsAsync<InvalidDataException>(() => Read("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n 5\r\n\r\n"));
    }

    [Theory]
    [InlineData("FFFFFFFFF", "over the")] // 68 GB: a long, not an int, and over the maximum
    [InlineData("10000000000000000", "1 to 16 hexadecimal digits")] // 17 digits
    [InlineData("zz", "1 to 16 hexadecimal digits")]
    [InlineData("-5", "1 to 16 hexadecimal digits")]
    [InlineData("", "1 to 16 hexadecimal digits")]
    public async Task Chunk_sizes_are_longs_up_to_a_maximum(string size, string reason)
    {
        var e = await Assert.ThrowsAsync<InvalidDataException>(() => Read($"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n{size}\r\nabc"));
        Assert.Contains(reason, e.Message);
        Assert.StartsWith("framing: ", e.Message);
    }

    [Fact]
    public async Task A_content_length_that_lies_is_an_error_when_short_and_frames_the_body_when_long()
    {
        await Assert.ThrowsAsync<EndOfStreamException>(() => Read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort"));

        var reader = Pipe("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloEXTRAHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        var (_, body) = await Next(reader);
        Assert.Equal("hello", body);
        // What follows the framed body is read as the next answer, and is not one.
        await Assert.ThrowsAsync<InvalidDataException>(() => Next(reader));
    }

    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nA\r\nshort", typeof(EndOfStreamException))]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloX\r\n0\r\n\r\n", typeof(InvalidDataException))]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r", typeof(EndOfStreamException))]
    [InlineData("SSH-2.0-OpenSSH\r\n\r\n", typeof(InvalidDataException))]
    [InlineData("HTTP/1.1 20 OK\r\n\r\n", typeof(InvalidDataException))]
    [InlineData("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", typeof(InvalidDataException))]
    [InlineData("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", typeof(InvalidDataException))]
    public async Task Malformed_framing_is_an_error_not_a_success(string wire, Type expected) =>
        Assert.IsType(expected, await Record.ExceptionAsync(() => Read(wire)));

    [Fact]
    public void Requests_carry_a_body_only_with_content_length_and_name_their_method()
    {
        var url = new Uri("http://127.0.0.1:8080");
        var get = RawHttp.BuildRequest("GET", "/api/time", url, null);
        var post = RawHttp.BuildRequest("POST", "/api/echo", url, new byte[] { 65, 66 });

        Assert.Equal("GET /api/time HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", Encoding.ASCII.GetString(get));
        Assert.Equal("POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/octet-stream\r\nContent-Length: 2\r\n\r\nAB", Encoding.ASCII.GetString(post));
        Assert.Equal("HEAD", RawHttp.RequestMethod(RawHttp.BuildRequest("HEAD", "/", url, null)));
    }
}
