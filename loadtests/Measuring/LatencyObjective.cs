using System.Text.RegularExpressions;
using Comparator.Errors;
using Comparator.Results;

namespace Comparator.Measuring;

/// <summary>
/// A latency objective such as p90&lt;=20ms: the percentile of a window's latencies (measured from each
/// request's intended send, so a stalled server cannot hide its queue) must be at or under the bound.
/// </summary>
public sealed record LatencyObjective(double Percentile, double BoundMs)
{
    private static readonly Regex Shape = new(@"^p(?<p>\d+(\.\d+)?)\s*<=\s*(?<v>-?\d+(\.\d+)?)\s*(?<u>ms|s|us|µs)$", RegexOptions.CultureInvariant);

    /// <summary>"p90&lt;=20ms", "p99.9&lt;=1s", "p50&lt;=500us"; anything else is refused with one line naming the form.</summary>
    public static Validated<LatencyObjective> Parse(string raw, string command = "capacity")
    {
        var m = Shape.Match(raw.Trim().ToLowerInvariant());
        if (!m.Success)
            return Validated<LatencyObjective>.Refused($"{command}: --objective takes PERCENTILE<=BOUND with a unit, such as p90<=20ms or p99.9<=1s, not '{raw}'");
        var percentile = double.Parse(m.Groups["p"].Value, CultureInfo.InvariantCulture);
        if (percentile <= 0 || percentile >= 100)
            return Validated<LatencyObjective>.Refused($"{command}: --objective's percentile is above 0 and under 100 (p50, p90, p99.9), not p{m.Groups["p"].Value} in '{raw}'");
        var value = double.Parse(m.Groups["v"].Value, CultureInfo.InvariantCulture);
        var ms = value * m.Groups["u"].Value switch { "s" => 1000.0, "ms" => 1.0, _ => 0.001 };
        if (ms <= 0 || ms > 3_600_000)
            return Validated<LatencyObjective>.Refused($"{command}: --objective's bound is a positive time of at most an hour, not '{raw}'");
        return Validated<LatencyObjective>.Valid(new LatencyObjective(percentile, ms));
    }

    /// <summary>"p90 ≤ 20 ms".</summary>
    public string Describe() => string.Create(CultureInfo.InvariantCulture, $"p{Percentile:0.###} ≤ {BoundMs:0.###} ms");

    /// <summary>The window's latency at this percentile, from its whole histogram where kept, else its standard percentiles; null where neither has it.</summary>
    public double? LatencyMs(Measurement window)
    {
        if (window.LatencyHistogram is string encoded)
            return LatencyRecorder.Decode(encoded).GetValueAtPercentile(Percentile) / 1000.0;
        return Percentile switch
        {
            50 => window.LatencyP50Ms,
            90 => window.LatencyP90Ms,
            99 => window.LatencyP99Ms,
            99.9 => window.LatencyP999Ms,
            _ => window.LatencyDistribution?.FirstOrDefault(p => Math.Abs(p.Percentile - Percentile) < 1e-9)?.Ms,
        };
    }
}
