using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Xunit;
using Comparator.Statistics;
using Comparator.Reports.Exporters;

namespace Comparator.Tests;

/// <summary>The result model on its own: round-trip, schema version, the rules that flag cells.</summary>
public sealed class ResultsTests
{
    internal static Measurement Window(double rps, double clientCpu = 0.85, double? serverCpu = 0.2, long failed = 0, double elapsed = 1.0) =>
        Measurement.Of((Metrics.Requests, (long)(rps * elapsed) + failed), (Metrics.Failed, failed), (Metrics.Non2xx, 0), (Metrics.Errors, 0),
            (Metrics.Timeouts, 0), (Metrics.ElapsedSeconds, elapsed), (Metrics.RequestsPerSecond, rps), (Metrics.LatencyMeanMs, 1),
            (Metrics.LatencyP50Ms, 1), (Metrics.LatencyP90Ms, 2), (Metrics.LatencyP99Ms, 3), (Metrics.LatencyMaxMs, 4), (Metrics.BytesReceived, 1000),
            (Metrics.BytesSent, 500), (Metrics.BodyBytesReceived, 800), (Metrics.ConnectionsOpened, 100), (Metrics.ServerCpuSeconds, serverCpu),
            (Metrics.ServerPeakRssMb, 50), (Metrics.ClientCpuSeconds, clientCpu));

    public static RunResult Sample()
    {
        var spec = new RunSpec(new[] { "kestrel" }, new[] { "echo-post" }, new[] { new PayloadSpec("500B", 500, "payloads/payload-500B.txt") },
            new[] { 100 }, true, 2, 4, 3, 3, "kestrel", new[] { new DriverInfo("httpclient", "test driver") }, null,
            new MachineInfo("m", "Linux", "cpu", 2, ".NET 10", new Dictionary<string, string> { ["Newtonsoft.Json"] = "13.0.3" }));
        var repeats = new[] { Window(1000), Window(1100), Window(900) };
        var cell = new CellResult(new CellKey("kestrel", "echo-post", 500, 100, "httpclient"), ".NET 10", "500B", true, repeats,
            CellMeasurer.MedianRepeat(repeats), 900, 1100, 0, 0, CellFlags.For(repeats, 100, 2), null);
        return new RunResult(RunResult.CurrentSchemaVersion, spec, DateTimeOffset.Parse("2026-11-22T10:00:00Z"), DateTimeOffset.Parse("2026-11-22T10:01:00Z"), false,
            new[] { new TargetInfo("kestrel", "bare", ".NET 10", "Kestrel", "http://127.0.0.1:1", false, true, null) },
            new[] { new Check("kestrel", "echo-post", true, 200, "content-length", 617, "ok") }, new[] { cell });
    }

    [Fact]
    public void Results_json_round_trips_and_carries_its_schema_version()
    {
        var sample = Sample();
        var json = ResultStore.Serialize(sample with { Verdicts = Comparing.PairVerdicts.Build(sample) });
        var back = ResultStore.Deserialize(json, "sample");

        Assert.Contains("\"schemaVersion\": 4", json);
        Assert.Equal(json, ResultStore.Serialize(back));
        Assert.Equal(1000, back.Cells[0].Summary!.RequestsPerSecond);
        Assert.Equal(3, back.Cells[0].Repeats.Count);
    }

    [Fact]
    public void The_verdicts_array_has_exactly_the_documented_fields_and_round_trips()
    {
        var sample = Sample();
        var other = sample.Cells[0] with { Key = sample.Cells[0].Key with { Target = "httplistener" } };
        var run = sample with
        {
            Targets = sample.Targets.Append(sample.Targets[0] with { Name = "httplistener" }).ToList(),
            Cells = new[] { sample.Cells[0], other },
        };
        run = run with { Verdicts = Comparing.PairVerdicts.Build(run) };

        var json = ResultStore.Serialize(run);
        using var doc = System.Text.Json.JsonDocument.Parse(json);
        var verdict = Assert.Single(doc.RootElement.GetProperty("verdicts").EnumerateArray().ToList());
        Assert.Equal(new[] { "key", "baseline", "metric", "ratio", "ratioLow", "ratioHigh", "confidence", "leader", "reason", "outcome", "equivalenceLow", "equivalenceHigh", "launches", "withinMargin", "pacedBy" },
            verdict.EnumerateObject().Select(p => p.Name));
        Assert.Equal(new[] { "target", "endpoint", "sizeBytes", "concurrency", "driver", "rate", "cores", "load" }, verdict.GetProperty("key").EnumerateObject().Select(p => p.Name));
        Assert.Equal("httplistener", verdict.GetProperty("key").GetProperty("target").GetString()); // the other side's cell
        Assert.Equal("rps", verdict.GetProperty("metric").GetString());
        Assert.Equal(0.99, verdict.GetProperty("confidence").GetDouble());
        Assert.Equal("equivalent", verdict.GetProperty("outcome").GetString()); // identical windows: ratio 1, no lead, the same within the margin
        var back = ResultStore.Deserialize(json, "run");
        Assert.Equal(run.Verdicts, back.Verdicts);
        Assert.Equal(json, ResultStore.Serialize(back));
    }

    /// <summary>
    /// A default run saved by the comparator before figures were descriptors (schema 3; histograms cut to
    /// keep the file small): every figure it wrote reads back the same, its verdicts are judged again with
    /// the same outcomes, keyed by their cells, and every output renders.
    /// </summary>
    [Fact]
    public void A_schema_3_file_reads_back_every_figure_it_wrote_and_renders()
    {
        var path = Path.Combine(AppContext.BaseDirectory, "Fixtures", "results-schema3.json");
        var text = File.ReadAllText(path);
        using var doc = System.Text.Json.JsonDocument.Parse(text);
        var run = Comparator.Comparing.SavedRun.Read(text, "results-schema3.json");

        var written = doc.RootElement.GetProperty("cells").EnumerateArray().ToList();
        Assert.Equal(written.Count, run.Cells.Count);
        var compared = 0;
        for (var i = 0; i < written.Count; i++)
        {
            var windows = written[i].GetProperty("repeats").EnumerateArray().ToList();
            Assert.Equal(windows.Count, run.Cells[i].Repeats.Count);
            for (var r = 0; r < windows.Count; r++)
                foreach (var m in Metrics.All.Where(m => m.Storage != MetricStorage.Searched && m.Written))
                {
                    if (!windows[r].TryGetProperty(m.Id, out var e) || e.ValueKind != System.Text.Json.JsonValueKind.Number) continue;
                    Assert.Equal(e.GetDouble(), m.Of(run.Cells[i].Repeats[r])!.Value, 9);
                    compared++;
                }
        }
        Assert.True(compared > 300, $"{compared} figures compared");

        var before = doc.RootElement.GetProperty("verdicts").EnumerateArray().ToList();
        Assert.Equal(before.Count, run.Verdicts!.Count);
        foreach (var (old, now) in before.Zip(run.Verdicts!))
        {
            Assert.Equal(old.GetProperty("other").GetString(), now.Key.Target);
            Assert.Equal(old.GetProperty("endpoint").GetString(), now.Key.Endpoint);
            Assert.Equal(old.GetProperty("metric").GetString(), now.Metric);
            Assert.Equal(old.GetProperty("reason").GetString(), now.Reason);
            Assert.Equal(old.GetProperty("leader").GetString(), now.Leader);
        }

        var dir = Directory.CreateTempSubdirectory("schema3-");
        try
        {
            Comparator.Reports.Exporters.RunDirectory.WriteInto(run, dir.FullName);
            Assert.True(File.Exists(Path.Combine(dir.FullName, "report.html")));
            Assert.Contains("\"schemaVersion\": 4", File.ReadAllText(Path.Combine(dir.FullName, "results.json")));
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [Fact]
    public void A_schema_1_file_without_launches_or_verdicts_is_read_and_judged_by_the_same_rule()
    {
        var sample = Sample();
        var other = sample.Cells[0] with { Key = sample.Cells[0].Key with { Target = "httplistener" }, Repeats = sample.Cells[0].Repeats.Select(r => r.With(Metrics.RequestsPerSecond, r.RequestsPerSecond * 2)).ToList() };
        var json = ResultStore.Serialize(sample with { Cells = new[] { sample.Cells[0], other } })
            .Replace("\"schemaVersion\": 4", "\"schemaVersion\": 1").Replace("  \"verdicts\": null\n", "").Replace(",\n}", "\n}");

        var old = Comparing.SavedRun.Read(json, "old.json");

        Assert.Equal(1, old.SchemaVersion);
        var verdict = Assert.Single(old.Verdicts!);
        Assert.Equal("httplistener", verdict.Leader); // each old repeat counts as a unit: 2x in all three
        Assert.Equal(2, verdict.Ratio!.Value, 6);
    }

    [Theory]
    [InlineData("{\"schemaVersion\": 99, \"cells\": []}", "schema version 99")]
    [InlineData("{\"cells\": []}", "schema version none")]
    [InlineData("not json at all", "is not JSON")]
    public void A_foreign_or_corrupt_results_file_is_refused_with_one_line(string content, string expected)
    {
        var e = Assert.Throws<InvalidDataException>(() => ResultStore.Deserialize(content, "old.json"));
        Assert.Contains(expected, e.Message);
        Assert.StartsWith("old.json", e.Message);
    }

    [Fact]
    public void The_summary_is_the_median_repeat_and_failures_are_totals()
    {
        var repeats = new[] { Window(1000), Window(3000, failed: 2), Window(2000) };
        Assert.Equal(2000, CellMeasurer.MedianRepeat(repeats).RequestsPerSecond);
        Assert.Contains(CellFlags.Failed, CellFlags.For(repeats, 100, 2));
    }

    [Fact]
    public void A_driver_at_90_percent_of_a_core_is_client_bound()
    {
        Assert.Contains(CellFlags.ClientBound, CellFlags.For(new[] { Window(1000, clientCpu: 0.9) }, 100, 2));
        Assert.DoesNotContain(CellFlags.ClientBound, CellFlags.For(new[] { Window(1000, clientCpu: 0.89) }, 100, 2));
    }

    [Fact]
    public void Driver_and_server_at_90_percent_of_all_cores_is_machine_bound()
    {
        Assert.Contains(CellFlags.MachineBound, CellFlags.For(new[] { Window(1000, clientCpu: 0.8, serverCpu: 1.0) }, 100, 2));
        Assert.DoesNotContain(CellFlags.MachineBound, CellFlags.For(new[] { Window(1000, clientCpu: 0.5, serverCpu: 1.0) }, 100, 2));
    }

    [Fact]
    public void Repeats_that_vary_more_than_10_percent_are_noisy()
    {
        Assert.Contains(CellFlags.Noisy, CellFlags.For(new[] { Window(1000), Window(1300), Window(800) }, 100, 2));
        Assert.DoesNotContain(CellFlags.Noisy, CellFlags.For(new[] { Window(1000), Window(1050), Window(980) }, 100, 2));
    }

    [Fact]
    public void An_external_target_has_no_server_cpu_and_says_so()
    {
        var repeats = new[] { Window(1000, serverCpu: null) };
        Assert.Contains(CellFlags.NoServerCpu, CellFlags.For(repeats, 100, 2));
        Assert.Null(repeats[0].ServerCpuUsPerRequest);
    }

    [Fact]
    public void Latency_percentiles_come_from_the_histogram_at_three_significant_digits()
    {
        var recorder = new Comparator.Measuring.LatencyRecorder();
        for (var us = 1; us <= 10_000; us++) recorder.RecordMicroseconds(us); // 1 µs to 10 ms, evenly

        var summary = recorder.Summary();

        Assert.Equal(5.0, summary.P50Ms, 0.005 * 5);
        Assert.Equal(9.0, summary.P90Ms, 0.005 * 9);
        Assert.Equal(9.9, summary.P99Ms, 0.005 * 9.9);
        Assert.Equal(9.99, summary.P999Ms!.Value, 0.005 * 9.99);
        Assert.Equal(10.0, summary.MaxMs, 0.005 * 10);
        Assert.Equal(Comparator.Results.PercentilePoint.Standard, summary.Distribution!.Select(p => p.Percentile));
        Assert.Equal(LatencySummary.Empty, new Comparator.Measuring.LatencyRecorder().Summary());
    }

    [Fact]
    public void Csv_and_markdown_hold_every_cell_in_invariant_numbers()
    {
        var previous = System.Globalization.CultureInfo.CurrentCulture;
        System.Globalization.CultureInfo.CurrentCulture = new System.Globalization.CultureInfo("de-DE"); // decimal comma
        try
        {
            var csv = new CsvReport().Render(new RunReport(Sample())).Split('\n', StringSplitOptions.RemoveEmptyEntries);
            var md = new MarkdownReport().Render(new RunReport(Sample()));
            Assert.Equal(2, csv.Length);
            Assert.StartsWith("kestrel,.NET 10,echo-post,500,100,true,httpclient,,1000,0,0,", csv[1]); // no cores recorded in this sample
            Assert.Contains("| echo-post | 500B | 100 | httpclient | 1000 | 900-1100 |", md);
        }
        finally
        {
            System.Globalization.CultureInfo.CurrentCulture = previous;
        }
    }
}
