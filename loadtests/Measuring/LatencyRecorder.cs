using System.Diagnostics;
using Comparator.Results;
using HdrHistogram;

namespace Comparator.Measuring;

/// <summary>
/// Latencies in an HDR histogram (HdrHistogram 2.5.0): microseconds from 1 µs to an hour at three
/// significant digits, a fixed few tens of kilobytes however many requests, and percentiles to the
/// histogram's precision (0.1%). One per worker, merged at the end of a window.
/// </summary>
public sealed class LatencyRecorder
{
    private const long HighestMicroseconds = 3_600_000_000;
    private readonly LongHistogram _histogram = new(1, HighestMicroseconds, 3);

    /// <summary>Records the time from <paramref name="startTimestamp"/> (a Stopwatch timestamp) to now.</summary>
    public void RecordSince(long startTimestamp) => RecordMicroseconds(Stopwatch.GetElapsedTime(startTimestamp).Ticks / 10);

    public void RecordMicroseconds(long microseconds) => _histogram.RecordValue(Math.Clamp(microseconds, 1, HighestMicroseconds));

    public void Add(LatencyRecorder other) => _histogram.Add(other._histogram);

    public double PercentileMs(double percent) => _histogram.TotalCount == 0 ? 0 : _histogram.GetValueAtPercentile(percent) / 1000.0;

    public LatencySummary Summary() => _histogram.TotalCount == 0
        ? LatencySummary.Empty
        : new LatencySummary(_histogram.GetMean() / 1000.0, PercentileMs(50), PercentileMs(90), PercentileMs(99), _histogram.GetMaxValue() / 1000.0)
        {
            P999Ms = PercentileMs(99.9),
            Distribution = PercentilePoint.Standard.Select(p => new PercentilePoint(p, p >= 100 ? _histogram.GetMaxValue() / 1000.0 : PercentileMs(p))).ToList(),
            Histogram = Encode(),
        };

    /// <summary>The histogram in HdrHistogram's compressed encoding, base64: what its log files hold per interval.</summary>
    public string Encode()
    {
        var buffer = HdrHistogram.Utilities.ByteBuffer.Allocate(_histogram.GetNeededByteBufferCapacity());
        var length = _histogram.EncodeIntoCompressedByteBuffer(buffer);
        buffer.Position = 0;
        var bytes = new byte[length];
        for (var i = 0; i < length; i++) bytes[i] = buffer.Get();
        return Convert.ToBase64String(bytes);
    }

    /// <summary>A histogram read back from <see cref="Encode"/>'s text.</summary>
    public static HistogramBase Decode(string encoded) =>
        HistogramEncoding.DecodeFromCompressedByteBuffer(HdrHistogram.Utilities.ByteBuffer.Allocate(Convert.FromBase64String(encoded)), 0);
}
