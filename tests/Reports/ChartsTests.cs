using System;
using System.Collections.Generic;
using System.Linq;
using Comparator.Comparing;
using Comparator.Reports;
using Comparator.Results;
using ScottPlot;
using ScottPlot.Plottables;
using Xunit;
using Comparator.Reports.Plots;
using Comparator.Reports.Text;

namespace Comparator.Tests;

/// <summary>The charts of a run, read from their plots: colours, line styles, whiskers, axes, titles.</summary>
public sealed class ChartsTests
{
    private static readonly string[] Targets = { "wcf-classic", "webapi-selfhost" };

    /// <summary>Two targets x echo-post, echo-put x the given sizes, 3 repeats; the baseline (webapi-selfhost) leads small, wcf-classic large.</summary>
    private static RunResult Sweep(params long[] sizes)
    {
        var sample = ResultsTests.Sample();
        var spec = sample.Spec with
        {
            Targets = Targets, Endpoints = new[] { "echo-post", "echo-put" }, BaselineTarget = "webapi-selfhost",
            Sizes = sizes.Select(s => new PayloadSpec(s + "B", s, "")).ToList(), Concurrency = new[] { 64 },
            Machine = sample.Spec.Machine with { CpuModel = "Test CPU 9000", LogicalCores = 8 },
        };
        var cells = new List<CellResult>();
        foreach (var target in Targets)
            foreach (var endpoint in spec.Endpoints)
                for (var i = 0; i < sizes.Length; i++)
                {
                    var rps = target == "webapi-selfhost" ? 4000.0 / (i + 1) : 3000.0 / Math.Pow(1.2, i);
                    var repeats = new[] { ResultsTests.Window(rps * 0.98), ResultsTests.Window(rps), ResultsTests.Window(rps * 1.02) };
                    cells.Add(new CellResult(new CellKey(target, endpoint, sizes[i], 64, "httpclient"), ".NET 10", sizes[i] + "B", true, repeats,
                        repeats[1], rps * 0.98, rps * 1.02, 0, 0, Array.Empty<string>(), null));
                }
        return sample with { Spec = spec, Cells = cells };
    }

    private static Chart Throughput(RunResult run) => Charts.Build(run).Single(c => c.Name == "throughput");

    private static IEnumerable<Scatter> Points(Chart chart) => chart.Plot.GetPlottables().OfType<Scatter>().Where(s => !string.IsNullOrEmpty(s.LegendText));

    [Fact]
    public void Every_target_has_one_colour_in_every_chart()
    {
        var run = Sweep(64, 1024, 16384, 262144);
        var colours = Targets.ToDictionary(t => t, t => Charts.TargetColor(run, t));
        Assert.NotEqual(colours[Targets[0]], colours[Targets[1]]);

        var charts = Charts.Build(run);
        foreach (var point in Points(Throughput(run)))
            Assert.Equal(colours[point.LegendText.Split(' ')[0]], point.Color);
        foreach (var chart in charts.Where(c => c.Name is not ("throughput" or ForestChart.Name)))
        {
            foreach (var item in chart.Plot.Legend.ManualItems)
                Assert.Equal(colours[item.LabelText], item.FillColor);
            var bars = chart.Plot.GetPlottables().OfType<BarPlot>().SelectMany(b => b.Bars).ToList();
            Assert.NotEmpty(bars);
            Assert.All(bars, bar => Assert.Contains(bar.FillColor, colours.Values));
        }
    }

    [Fact]
    public void Two_endpoints_of_a_target_share_its_colour_and_differ_in_line_style_and_marker()
    {
        var run = Sweep(64, 1024, 16384, 262144);
        var chart = Throughput(run);
        var wcf = Points(chart).Where(p => p.LegendText.StartsWith("wcf-classic", StringComparison.Ordinal)).ToList();

        Assert.Equal(2, wcf.Count);
        Assert.Equal(wcf[0].Color, wcf[1].Color);
        Assert.NotEqual(wcf[0].MarkerShape, wcf[1].MarkerShape);
        Assert.Contains(wcf, p => p.LegendText == "wcf-classic · echo-post (solid)");
        Assert.Contains(wcf, p => p.LegendText == "wcf-classic · echo-put (dashed)");
        Assert.Equal("solid", Charts.EndpointPattern(run, "echo-post"));
        Assert.Equal("dashed", Charts.EndpointPattern(run, "echo-put"));
        // The dashed line is drawn as dashes (Skia's SVG has no dash effect): many short segments in the target's colour.
        Assert.True(chart.Plot.GetPlottables().OfType<LinePlot>().Count(l => l.LineColor == wcf[0].Color) > 3 * 4);
    }

    [Fact]
    public void The_first_endpoint_with_a_size_is_drawn_solid_even_after_a_sizeless_one()
    {
        var run = Sweep(64, 1024);
        run = run with { Spec = run.Spec with { Endpoints = new[] { "time", "echo-post", "echo-put" } } };

        Assert.Equal("solid", Charts.EndpointPattern(run, "echo-post"));
        Assert.Contains(Points(Throughput(run)), p => p.LegendText == "webapi-selfhost · echo-post (solid)");
    }

    [Fact]
    public void The_throughput_chart_has_whiskers_from_the_slowest_to_the_fastest_repeat()
    {
        var run = Sweep(64, 1024);
        var whiskers = Throughput(run).Plot.GetPlottables().OfType<ErrorBar>().ToList();

        Assert.Equal(4, whiskers.Count); // one per target and endpoint
        var first = whiskers[0];
        Assert.Equal(2, first.Ys.Count);
        Assert.All(first.YErrorPositive!, e => Assert.True(e > 0));
        Assert.All(first.YErrorNegative!, e => Assert.True(e > 0));
        // Linear axis for 2 sizes: the whisker spans exactly min..max of the repeats.
        var cell = run.Cells.First(c => c.Key.Target == "wcf-classic" && c.Key.Endpoint == "echo-post" && c.Key.SizeBytes == 64);
        Assert.Equal(cell.RpsMax!.Value - cell.Summary!.RequestsPerSecond, first.YErrorPositive![0], 6);
        Assert.Equal(cell.Summary!.RequestsPerSecond - cell.RpsMin!.Value, first.YErrorNegative![0], 6);
    }

    [Fact]
    public void Every_chart_image_has_a_title_and_a_subtitle_saying_what_was_measured()
    {
        var run = Sweep(64, 1024, 16384, 262144);
        foreach (var chart in Charts.Build(run))
        {
            Assert.Equal(chart.Title, chart.Plot.Axes.Title.Label.Text);
            foreach (var part in new[] { "driver httpclient", "concurrency 64", "echo-post, echo-put", "Test CPU 9000", "8 logical cores" })
                Assert.Contains(part, chart.Subtitle);
            Assert.Contains(chart.Plot.Axes.GetPanels().OfType<ScottPlot.Panels.TitlePanel>(), p => p.Label.Text == chart.Subtitle);
            Assert.Contains(chart.Title.Split(':')[0], chart.Svg()); // drawn on the image, so the PNG and SVG carry it
            Assert.Contains("driver httpclient", chart.Svg());
        }
    }

    [Fact]
    public void A_sweep_is_drawn_log_log_and_two_sizes_keep_a_linear_requests_axis()
    {
        Assert.Equal("requests/s (log scale)", Throughput(Sweep(64, 1024, 16384, 262144)).Plot.Axes.Left.Label.Text);
        Assert.Equal("requests/s (linear scale)", Throughput(Sweep(64, 1024)).Plot.Axes.Left.Label.Text);
        Assert.Equal("payload size (log scale)", Throughput(Sweep(64, 1024)).Plot.Axes.Bottom.Label.Text);
    }

    [Fact]
    public void The_first_chart_shows_every_judgment_as_a_row_coloured_by_its_outcome()
    {
        var run = Sweep(64, 1024, 16384, 262144);
        var charts = Charts.Build(run);
        var forest = charts[0];
        var rows = ForestChart.Rows(run);

        Assert.Equal(ForestChart.Name, forest.Name);
        Assert.NotEmpty(rows);
        // One estimate dot per judged row, in the outcome's colour (the legend's keys sit at NaN).
        var dots = forest.Plot.GetPlottables().OfType<ScottPlot.Plottables.Marker>().Where(m => !double.IsNaN(m.Location.X)).ToList();
        Assert.Equal(rows.Count, dots.Count);
        Assert.Equal(rows.Select(ForestChart.Of), Enumerable.Reverse(dots.OrderBy(d => d.Location.Y)).Select(d => d.Color));
        Assert.True(forest.Height >= Chart.DefaultHeight);
    }

    [Fact]
    public void The_forest_plot_puts_settled_judgments_above_open_ones()
    {
        var sweep = Sweep(64, 1024, 16384, 262144);
        // The first judgment left open: in the verdict's order it would be the top row.
        var judged = sweep.AllJudged();
        var first = judged[0];
        var run = sweep with { Verdicts = judged.Select(v => v == first ? v with { Leader = null, Outcome = CellVerdict.Unsettled } : v).ToList() };

        var rank = ForestChart.Rows(run).Select(v => v.Leader is not null ? 0 : v.Outcome == CellVerdict.Equivalent ? 1 : 2).ToList();
        Assert.Equal(2, rank[^1]);
        Assert.Equal(0, rank[0]);
        Assert.Equal(rank.Order(), rank);
    }

    [Fact]
    public void Crossovers_are_marked_on_the_size_chart_with_who_leads_before_and_after()
    {
        var run = Sweep(64, 1024, 16384, 262144);
        var chart = Throughput(run);
        var labels = chart.Plot.GetPlottables().OfType<Text>().Select(t => t.LabelText).ToList();

        Assert.Contains(Crossovers.Find(run), c => c.Changes.Any());
        Assert.NotEmpty(labels);
        Assert.Contains(labels, l => l.Contains("post: webapi-selfhost → unsettled", StringComparison.Ordinal) || l.Contains("post: webapi-selfhost → same", StringComparison.Ordinal) || l.Contains("post: webapi-selfhost → wcf-classic", StringComparison.Ordinal));
        Assert.Contains("where the verdict changes, wcf-classic vs webapi-selfhost", chart.Subtitle);
    }

    [Fact]
    public void A_run_with_sizeless_cells_still_gets_every_chart()
    {
        var sample = ResultsTests.Sample();
        var cell = sample.Cells[0] with { Key = sample.Cells[0].Key with { Endpoint = "time", SizeBytes = 0 }, SizeLabel = "" };
        var charts = Charts.Build(sample with { Cells = new[] { cell } });

        Assert.Equal(new[] { "requests", "latency-p50", "latency-p99", "overhead", "cpu" }, charts.Select(c => c.Name)); // no size, no size chart
        Assert.All(charts, c => Assert.Contains("<path", c.Svg()));
    }
}
