using System;
using Comparator.Measuring;
using HdrHistogram;
using Xunit;

namespace Comparator.Tests;

/// <summary>Each window keeps its whole latency histogram, encoded, so any percentile can be read again from results.json.</summary>
public sealed class LatencyHistogramTests
{
    [Fact]
    public void The_encoded_histogram_reads_back_with_the_same_percentiles()
    {
        var recorder = new LatencyRecorder();
        var random = new Random(7);
        for (var i = 0; i < 20_000; i++) recorder.RecordMicroseconds(200 + (long)(random.NextDouble() * random.NextDouble() * 50_000));

        var summary = recorder.Summary();
        var back = LatencyRecorder.Decode(summary.Histogram!);

        Assert.Equal(20_000, back.TotalCount);
        Assert.Equal(summary.P90Ms, back.GetValueAtPercentile(90) / 1000.0);
        Assert.Equal(summary.P99Ms, back.GetValueAtPercentile(99) / 1000.0);
        Assert.Equal(summary.P999Ms, back.GetValueAtPercentile(99.9) / 1000.0);
    }
}
