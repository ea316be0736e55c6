using System.Collections.Generic;
using System.IO;
using System.Linq;
using Comparator.Drivers;
using Comparator.Running;
using Xunit;
using Comparator.Statistics;

namespace Comparator.Tests;

/// <summary>The ab and wrk parsers against real outputs captured on this machine (tests/Fixtures).</summary>
public sealed class DriverOutputTests
{
    private static string Fixture(string name) => File.ReadAllText(Path.Combine(System.AppContext.BaseDirectory, "Fixtures", name));

    [Fact]
    public void Ab_clean_run_is_parsed_with_bytes_and_fractional_percentiles()
    {
        var r = AbReport.Parse(Fixture("ab-ok.txt"), Fixture("ab-ok.percentiles.csv"));

        Assert.Equal(42142, r.CompleteRequests);
        Assert.Equal(0, r.FailedRequests);
        Assert.Equal(0, r.Non2xxResponses);
        Assert.Equal(r.CompleteRequests * 500L, r.HtmlTransferred);
        Assert.True(r.TotalTransferred > r.HtmlTransferred);
        Assert.NotNull(r.TotalBodySent);
        Assert.Equal(101, r.PercentilesMs.Count);
        Assert.True(r.PercentilesMs[50] <= r.PercentilesMs[99] && r.PercentilesMs[99] <= r.PercentilesMs[100]);
        Assert.NotEqual(System.Math.Round(r.PercentilesMs[99]), r.PercentilesMs[99]); // not ab's whole-ms text table
    }

    [Fact]
    public void Ab_non_2xx_responses_line_is_read()
    {
        var r = AbReport.Parse(Fixture("ab-non2xx.txt"), null);

        Assert.Equal(34309, r.CompleteRequests);
        Assert.Equal(34309, r.Non2xxResponses);
        Assert.Equal(0, r.FailedRequests);
        Assert.Null(r.TotalBodySent); // a GET: ab prints no "Total body sent"
    }

    [Fact]
    public void Ab_failed_requests_line_and_its_breakdown_are_read()
    {
        var r = AbReport.Parse(Fixture("ab-failed.txt"), null);

        Assert.Equal(20640, r.CompleteRequests);
        Assert.Equal(375, r.FailedRequests);
        Assert.Equal((0, 0, 200, 175), (r.FailedConnect, r.FailedReceive, r.FailedLength, r.FailedExceptions));
    }

    [Fact]
    public void Ab_keepalive_close_requests_ab_sent_after_the_servers_close_are_neither_requests_nor_failures()
    {
        // ab -k -q -c 10 -t 1 against .NET 10's HttpListener; the capture of this run showed 260
        // "Connection: close" answers, each followed by one request of ab's that got no answer.
        var r = AbReport.Parse(Fixture("ab-keepalive-close.txt"), null);

        // ab's raw counts are kept as ab printed them
        Assert.Equal((27421L, 451L, 27161L), (r.CompleteRequests, r.FailedRequests, r.KeepAliveRequests!.Value));
        Assert.Equal((0, 0, 260, 191), (r.FailedConnect, r.FailedReceive, r.FailedLength, r.FailedExceptions));
        Assert.Equal(r.KeepAliveRequests * r.DocumentLength, r.HtmlTransferred);

        Assert.Equal(260, r.UnansweredAfterClose);
        Assert.Equal(191, r.ExceptionsEchoingClose);
        Assert.Equal(0, r.RealFailedRequests);
        Assert.Equal(27161, r.AnsweredRequests);

        var w = AbDriver.Window(r, new List<string>(), 0);
        Assert.Equal(27161, w.Requests);
        Assert.Equal(0, w.Failed);
        Assert.Equal(0, w.Errors);
        Assert.Empty(w.FailureSamples);
        var note = Assert.Single(w.Limitations, l => l.StartsWith("failed, requests:"));
        Assert.Contains("Complete requests 27421, Failed requests 451 (Connect 0, Receive 0, Length 260, Exceptions 191)", note);
        Assert.Contains("260 of those requests got no byte back", note);
        Assert.Contains("191 of them a second time as Exceptions", note);
        Assert.Contains(w.Limitations, l => l.StartsWith("latency_p50_ms") && l.Contains("260 unanswered"));
        Assert.DoesNotContain(CellFlags.Failed, CellFlags.For(new[] { CellMeasurer.ToMeasurement(w, null, null) }, 100, 2));
    }

    [Fact]
    public void Ab_keepalive_close_without_keep_alive_in_the_closing_answer_is_read_whole_and_not_reclassified()
    {
        // The same against Mono's HttpListener: its "Connection: close" answer has no "Keep-Alive"
        // header, so ab reads it to the close; those complete outside "Keep-Alive requests" with a whole body.
        var r = AbReport.Parse(Fixture("ab-keepalive-close-mono.txt"), null);

        Assert.Equal(0, r.FailedRequests);
        Assert.True(r.CompleteRequests > r.KeepAliveRequests);
        Assert.Equal(r.CompleteRequests * r.DocumentLength, r.HtmlTransferred);
        Assert.Equal(0, r.UnansweredAfterClose);
        Assert.Equal(r.CompleteRequests, AbDriver.Window(r, new List<string>(), 0).Requests);
    }

    [Theory]
    [InlineData("HTML transferred:       1358050 bytes", "HTML transferred:       1358040 bytes")] // an answer came back short
    [InlineData("Length: 260, Exceptions: 191", "Length: 259, Exceptions: 192")] // fewer Length failures than empty completions
    [InlineData("Keep-Alive requests:    27161\n", "")] // not a keep-alive run
    public void Ab_failures_that_the_close_does_not_explain_stay_failures(string from, string to)
    {
        var tampered = Fixture("ab-keepalive-close.txt").Replace(from, to);
        Assert.NotEqual(Fixture("ab-keepalive-close.txt"), tampered);
        var r = AbReport.Parse(tampered, null);

        Assert.Equal(0, r.UnansweredAfterClose);
        Assert.Equal(451, r.RealFailedRequests);
        var w = AbDriver.Window(r, new List<string>(), 0);
        Assert.Equal((27421L, 451L), (w.Requests, w.Failed));
        Assert.DoesNotContain(w.Limitations, l => l.StartsWith("failed, requests:"));
    }

    [Theory]
    [InlineData("ab-ok.txt")]
    [InlineData("ab-non2xx.txt")]
    public void Ab_runs_without_closes_are_unchanged(string fixture)
    {
        var r = AbReport.Parse(Fixture(fixture), null);
        Assert.Equal(0, r.UnansweredAfterClose);
        Assert.Equal(r.CompleteRequests, r.AnsweredRequests);
        Assert.Equal(r.FailedRequests, r.RealFailedRequests);
    }

    [Fact]
    public void Wrk_clean_run_is_parsed_from_the_exact_summary_line()
    {
        var r = WrkReport.Parse(Fixture("wrk-ok.txt"));

        Assert.Equal(39362, r.Requests);
        Assert.Equal(6573454, r.BytesRead);
        Assert.Equal(1.100216, r.DurationSeconds, 6);
        Assert.Equal(0.164, r.LatencyP50Ms, 6);
        Assert.Equal(2.172, r.LatencyP99Ms, 6);
        Assert.Equal(0, r.StatusErrors + r.ConnectErrors + r.ReadErrors + r.WriteErrors + r.Timeouts);
    }

    [Fact]
    public void Wrk_non_2xx_responses_are_status_errors()
    {
        var r = WrkReport.Parse(Fixture("wrk-non2xx.txt"));
        Assert.Equal(11431, r.Requests);
        Assert.Equal(11431, r.StatusErrors);
    }

    [Fact]
    public void Wrk_socket_errors_line_is_read_and_agrees_with_the_summary()
    {
        var r = WrkReport.Parse(Fixture("wrk-socket-errors.txt"));
        Assert.Equal(0, r.Requests);
        Assert.Equal(25138, r.ReadErrors);
    }

    [Fact]
    public void Output_without_a_report_is_an_error_not_zeros()
    {
        Assert.Throws<InvalidDataException>(() => AbReport.Parse("apr_pollset_poll: The timeout specified has expired (70007)", null));
        Assert.Throws<InvalidDataException>(() => WrkReport.Parse("unable to connect to 127.0.0.1:5309 Connection refused"));
        var tampered = Fixture("wrk-socket-errors.txt").Replace("read 25138", "read 25138").Replace("connect 0, read", "connect 7, read");
        Assert.Throws<InvalidDataException>(() => WrkReport.Parse(tampered));
    }
}
