using System.IO;
using Comparator.Contracts;
using Comparator.Results;
using Comparator.Running;

namespace Comparator.Cli;

/// <summary>
/// The values options take, read alike by every command: percentages, durations, sizes, payloads.
/// Each mistake is a UsageException with one line that starts with the command's name.
/// </summary>
public static class OptionValues
{
    /// <summary>
    /// A percentage, as every option that takes one reads it: "5%" and "5" both mean five percent,
    /// "0.5%" half of one. A bare number between 0 and 1 ("0.05") is refused: it reads as a fraction
    /// as readily as a percentage, and the two differ a hundredfold. Returned as a fraction (0.05),
    /// within [min, max] percent (above min unless zero is allowed).
    /// </summary>
    public static double Percent(string command, string option, string raw, double min, double max, bool allowZero = false, string? example = null)
    {
        var text = raw.Trim();
        var sign = text.EndsWith('%');
        if (sign) text = text[..^1].TrimEnd();
        var number = double.TryParse(text, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var percent);
        if (number && !sign && percent > 0 && percent < 1)
            throw new UsageException($"{command}: {option} {raw} is ambiguous (a fraction or a percentage?): write {Invariant(Math.Round(percent * 100, 9))}% or {Invariant(percent)}%");
        return number && (percent > min || (allowZero && percent == min)) && percent <= max
            ? percent / 100
            : throw new UsageException($"{command}: {option} takes a percentage {(allowZero ? "from" : "above")} {Invariant(min)} " +
                                       $"to {Invariant(max)} such as {example ?? (max > 90 ? "99%" : "3%")}, not '{raw}'");
    }

    private static string Invariant(double value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>"2s", "500ms", "1m", or a plain number of seconds.</summary>
    public static TimeSpan Duration(string option, string raw, bool allowZero, string command = "run")
    {
        var text = raw.Trim().ToLowerInvariant();
        var (number, scale) = text.EndsWith("ms") ? (text[..^2], 0.001)
            : text.EndsWith('s') ? (text[..^1], 1.0)
            : text.EndsWith('m') ? (text[..^1], 60.0)
            : (text, 1.0);
        if (!double.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value)
            || double.IsNaN(value) || value * scale > 24 * 3600 || (value <= 0 && !(allowZero && value == 0)))
            throw new UsageException($"{command}: {option} takes a {(allowZero ? "non-negative" : "positive")} duration such as 2s or 500ms, not '{raw}'");
        return TimeSpan.FromSeconds(value * scale);
    }

    /// <summary>A whole number from 1 to <paramref name="max"/>.</summary>
    public static int PositiveInt(string option, string raw, int max, string command = "run") =>
        int.TryParse(raw, NumberStyles.None, CultureInfo.InvariantCulture, out var v) && v >= 1 && v <= max
            ? v
            : throw new UsageException($"{command}: {option} takes a whole number from 1 to {max}, not '{raw}'");

    /// <summary>A comma list's items, trimmed, without empty ones.</summary>
    public static IEnumerable<string> List(string raw) =>
        raw.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    /// <summary>"sweep" in a --sizes list stands for the payload-size study's sizes, 64B to 4MB in x4 steps.</summary>
    public static string ExpandSweep(string raw) => string.Join(',', List(raw).SelectMany(item =>
        item.Equals(PayloadCatalogue.SweepName, StringComparison.OrdinalIgnoreCase)
            ? PayloadCatalogue.SweepSizes.Select(b => b.ToString(CultureInfo.InvariantCulture))
            : new[] { item }));

    /// <summary>0, 500, 4KB, 1MB (binary units), or the name of a file in payloads/.</summary>
    public static Payload ReadPayload(string raw, string payloadDirectory, string command = "run")
    {
        var bytes = PayloadCatalogue.SizeBytes(raw);
        if (bytes is long size)
        {
            if (size > ServiceLimits.DefaultMaxBodyBytes)
                throw new UsageException($"{command}: size {raw} is over the services' {ServiceLimits.DefaultMaxBodyBytes / (1024 * 1024)} MiB body limit");
            var standard = Path.Combine(payloadDirectory, PayloadCatalogue.FileName((int)size));
            if (File.Exists(standard))
                return new Payload(new PayloadSpec(PayloadCatalogue.SizeLabel(size), size, "payloads/" + Path.GetFileName(standard)), File.ReadAllBytes(standard));
            return new Payload(new PayloadSpec(PayloadCatalogue.SizeLabel(size), size, "generated"), PayloadCatalogue.Generate((int)size));
        }

        var file = Path.Combine(payloadDirectory, raw);
        if (raw.Contains('/') || raw.Contains('\\') || !File.Exists(file))
            throw new UsageException($"{command}: '{raw}' is neither a size (0, 500, 4KB, 1MB) nor a file in {payloadDirectory}");
        byte[] content;
        try { content = File.ReadAllBytes(file); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        { throw new UsageException($"{command}: cannot read payload file {file}: {e.Message}"); }
        if (content.LongLength > ServiceLimits.DefaultMaxBodyBytes)
            throw new UsageException($"{command}: payload file {raw} is over the services' 16 MiB body limit");
        return new Payload(new PayloadSpec(raw, content.LongLength, "payloads/" + raw), content);
    }
}
