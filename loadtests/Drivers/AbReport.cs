using System.IO;
using System.Text.RegularExpressions;

namespace Comparator.Drivers;

/// <summary>
/// ApacheBench's report, parsed from its text output (and its -e percentile CSV). Raw output is
/// kept apart from the parsed figures, which are kept apart from the cell they become.
/// </summary>
/// <remarks>
/// ab 2.3 (support/ab.c) miscounts a server that ends a kept-alive connection: it treats an answer
/// as keep-alive when the word "Keep-Alive" appears anywhere in its head (.NET's managed
/// HttpListener sends "Connection: close" together with "Keep-Alive: true" on an HTTP/1.0
/// connection's 101st answer), so read_connection() writes the next request on the closing
/// connection. No answer comes back; close_connection() then counts that request as done and as a
/// Length failure (0 body bytes), the reset that follows is counted again as an Exceptions failure
/// by the poll loop, and the request is never sent again. <see cref="UnansweredAfterClose"/> and
/// <see cref="ExceptionsEchoingClose"/> tell those apart from ab's figures alone.
/// </remarks>
public sealed record AbReport(
    double TimeTakenSeconds,
    long CompleteRequests,
    long FailedRequests,
    long FailedConnect,
    long FailedReceive,
    long FailedLength,
    long FailedExceptions,
    long Non2xxResponses,
    long TotalTransferred,
    long? TotalBodySent,
    long HtmlTransferred,
    double TimePerRequestMeanMs,
    IReadOnlyDictionary<int, double> PercentilesMs,
    long? KeepAliveRequests = null,
    long? DocumentLength = null)
{
    /// <summary>
    /// Requests ab counted in "Complete requests" that got no answer at all because ab wrote them on
    /// a connection the server was closing: completions that ab saw end with a close rather than a
    /// Content-Length (complete minus "Keep-Alive requests"), less those that carried a whole
    /// document (an answer without "Keep-Alive" read to the close, as Mono's HttpListener sends),
    /// each of which ab counted as a Length failure. Zero unless ab's figures add up exactly: a
    /// keep-alive run, a fixed document length, every kept-alive answer of that length, and no more
    /// such requests than Length failures; otherwise ab's counts stand.
    /// </summary>
    public long UnansweredAfterClose
    {
        get
        {
            if (KeepAliveRequests is not long keptAlive || DocumentLength is not long length || length <= 0) return 0;
            var endedByClose = CompleteRequests - keptAlive;
            var extraBody = HtmlTransferred - keptAlive * length;
            if (endedByClose <= 0 || extraBody < 0 || extraBody % length != 0) return 0;
            var empty = endedByClose - extraBody / length;
            return empty > 0 && empty <= FailedLength ? empty : 0;
        }
    }

    /// <summary>
    /// ab's Exceptions that are the same unanswered requests counted a second time: when the reset
    /// for such a request arrives with the close, the poll loop counts its error flag after
    /// read_connection() has already closed the connection. At most one for each.
    /// </summary>
    public long ExceptionsEchoingClose => Math.Min(FailedExceptions, UnansweredAfterClose);

    /// <summary>ab's "Failed requests" less the two miscounts above: the failures of answers that came back.</summary>
    public long RealFailedRequests => FailedRequests - UnansweredAfterClose - ExceptionsEchoingClose;

    /// <summary>ab's "Complete requests" less those that got no answer because ab sent them after the server's close.</summary>
    public long AnsweredRequests => CompleteRequests - UnansweredAfterClose;

    public static AbReport Parse(string output, string? percentilesCsv)
    {
        var failed = Regex.Match(output, @"^Failed requests:\s+(\d+)(?:\s*\n\s+\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\))?", RegexOptions.Multiline);
        if (!failed.Success) throw new InvalidDataException("ab output has no 'Failed requests' line");
        long Group(int i) => failed.Groups[i].Success ? long.Parse(failed.Groups[i].Value, CultureInfo.InvariantCulture) : 0;

        return new AbReport(
            TimeTakenSeconds: Number(output, @"^Time taken for tests:\s+([\d.]+) seconds"),
            CompleteRequests: Count(output, @"^Complete requests:\s+(\d+)") ?? throw new InvalidDataException("ab output has no 'Complete requests' line"),
            FailedRequests: Group(1),
            FailedConnect: Group(2),
            FailedReceive: Group(3),
            FailedLength: Group(4),
            FailedExceptions: Group(5),
            Non2xxResponses: Count(output, @"^Non-2xx responses:\s+(\d+)") ?? 0, // ab prints this line only when there were some
            TotalTransferred: Count(output, @"^Total transferred:\s+(\d+) bytes") ?? 0,
            TotalBodySent: Count(output, @"^Total body sent:\s+(\d+)"),
            HtmlTransferred: Count(output, @"^HTML transferred:\s+(\d+) bytes") ?? 0,
            TimePerRequestMeanMs: Count(output, @"^Complete requests:\s+(\d+)") > 0 ? Number(output, @"^Time per request:\s+([\d.]+) \[ms\] \(mean\)$") : 0,
            PercentilesMs: ParsePercentiles(percentilesCsv),
            KeepAliveRequests: Count(output, @"^Keep-Alive requests:\s+(\d+)"), // ab prints this line only with -k
            DocumentLength: Count(output, @"^Document Length:\s+(\d+) bytes")); // "Variable" with -l
    }

    /// <summary>ab -e: "Percentage served,Time in ms" then one line per percent 0..100.</summary>
    public static IReadOnlyDictionary<int, double> ParsePercentiles(string? csv)
    {
        var result = new Dictionary<int, double>();
        if (csv is null) return result;
        foreach (var line in csv.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var parts = line.Split(',');
            if (parts.Length == 2 && int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var percent)
                && double.TryParse(parts[1], NumberStyles.Float, CultureInfo.InvariantCulture, out var ms))
                result[percent] = ms;
        }
        return result;
    }

    private static long? Count(string output, string pattern)
    {
        var m = Regex.Match(output, pattern, RegexOptions.Multiline);
        return m.Success ? long.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture) : null;
    }

    private static double Number(string output, string pattern)
    {
        var m = Regex.Match(output, pattern, RegexOptions.Multiline);
        if (!m.Success) throw new InvalidDataException("ab output lacks a line matching " + pattern);
        return double.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture);
    }
}
