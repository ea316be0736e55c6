using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text.RegularExpressions;

namespace Comparator.Drivers;

/// <summary>
/// ApacheBench's report, parsed from its text output (and its -e percentile CSV). Raw output is
/// kept apart from the parsed figures, which are kept apart from the cell they become.
/// </summary>
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
    IReadOnlyDictionary<int, double> PercentilesMs)
{
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
            PercentilesMs: ParsePercentiles(percentilesCsv));
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
