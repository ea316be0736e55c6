using System.IO;
using Comparator.Drivers;
using Xunit;

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
