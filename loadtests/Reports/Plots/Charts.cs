using Comparator.Results;
using ScottPlot;
using Comparator.Reports.Exporters;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Plots;

/// <summary>
/// The charts of a run, drawn with ScottPlot: requests/s against payload size, p50 and p99 latency,
/// bytes per response beyond the body (heads and chunk framing), and server CPU per request.
/// Every chart gives a target the same colour; on the size chart an endpoint has its own line
/// pattern and marker, whiskers span the repeats' min to max, and dashed vertical lines mark the
/// sizes where the lead changes (Crossovers). A sweep (4 sizes or more) is drawn log-log.
/// With several drivers, the charts show the first one's cells and say so. Here the list and the
/// titles; each kind in a file of its own (ThroughputChart, BarCharts, LatencyDistributionChart,
/// CoreCharts, ForestChart), the shared style in ChartStyle, DashedLines and CrossoverMarks.
/// </summary>
public static partial class Charts
{
    /// <summary>The charts of a run; under several allotments of cores, the cores charts first, then each allotment's own, named and titled by its cores.</summary>
    public static IReadOnlyList<Chart> Build(RunResult run)
    {
        if (!run.HasSeveralCores()) return BuildOne(run);
        var charts = AcrossCores(run).ToList();
        foreach (var part in run.ByCores()) charts.AddRange(BuildOne(part).Select(c => c with { Name = c.Name + "-" + CoreParts.Tag(part) }));
        return charts;
    }

    private static IReadOnlyList<Chart> BuildOne(RunResult run)
    {
        var driver = run.ComparedDriver();
        var cells = run.ComparedCells().Where(c => c.Summary is not null).ToList();
        var charts = new List<Chart>();
        if (cells.Count == 0) return charts;
        var colors = new Palette(run);
        // First: every judgment and its interval, so the reader sees what is settled before any figure.
        if (ForestChart.Build(run) is Chart forest) charts.Add(forest);
        var several = cells.Any(c => c.Repeats.Count > 1);
        var whiskers = several ? $"bar = the median repeat (by requests/s) of {Repeats(cells)}, whisker = min–max of the repeats" : "one repeat, no whiskers";

        if (cells.Any(c => c.Key.SizeBytes > 0))
        {
            var (throughput, crossoverNote) = ThroughputChart.Build(run, cells, colors);
            charts.Add(Make(run, cells.Where(c => c.Key.SizeBytes > 0).ToList(), "throughput", "Requests per second against payload size", throughput,
                (cells.Any(c => c.Repeats.Count > 1) ? $"point = median of {Repeats(cells)} repeats, whisker = min–max" : "one repeat") + crossoverNote));
        }
        foreach (var (endpoint, figure, plot) in SizeModelChart.Build(Comparing.SizeModelFit.Of(run), colors))
            charts.Add(Make(run, cells.Where(c => c.Key.Endpoint == endpoint && c.Key.SizeBytes > 0).ToList(), $"size-model-{endpoint}",
                $"Cost against body size at {endpoint}: {figure.Label}", plot,
                "point = launches' mean, whisker = least–most launch; line = fixed + per KB × size over the sizes measured; dashed: segments, where no line holds"));
        charts.Add(Make(run, cells, "requests", "Requests per second per cell", BarCharts.Grouped(cells, colors, s => s.RequestsPerSecond, "requests/s"),
            several ? $"bar = median of {Repeats(cells)} repeats, whisker = min–max" : "one repeat, no whiskers"));
        charts.Add(Make(run, cells, "latency-p50", "Latency p50 (ms) per cell", BarCharts.Grouped(cells, colors, s => s.LatencyP50Ms, "p50 latency (ms)"), whiskers));
        charts.Add(Make(run, cells, "latency-p99", "Latency p99 (ms) per cell", BarCharts.Grouped(cells, colors, s => s.LatencyP99Ms, "p99 latency (ms)"), whiskers));
        charts.Add(Make(run, cells, "overhead", "Response heads and chunk framing: bytes per response beyond the body", BarCharts.Overhead(cells, colors), "bar = median repeat"));
        // Every judged count read only on some machines (the CPU's counters), where some cell has it: the work a request takes, before
        // the time it took. A chart a figure, named by its verdict id and titled by its descriptor's words.
        foreach (var figure in Metrics.Judged.Where(m => m.Judging!.WhereRead && cells.Any(c => m.Of(c.Summary!) is not null)))
            charts.Add(Make(run, cells, figure.VerdictId!, $"{char.ToUpperInvariant(figure.Judging!.Noun[0])}{figure.Judging.Noun[1..]} per cell",
                BarCharts.Grouped(cells, colors, s => figure.Of(s), figure.Judging.Noun, windows: c => c.WindowsOf(figure)),
                figure.Pass == MetricPass.Simulated
                    ? "bar = the median of the simulated pass's windows (its own launches, valgrind's callgrind, user mode only), whisker = min–max of its launches (each launch's median window)"
                    : whiskers));
        charts.Add(Make(run, cells, "cpu", "Server CPU µs per request", BarCharts.Grouped(cells, colors, s => s.ServerCpuUsPerRequest, "server CPU µs per request"), whiskers));
        charts.AddRange(LatencyDistributionChart.Build(run, driver, colors));
        return charts;
    }

    /// <summary>The colour of a target in every chart of this run: by its place in the run's target list.</summary>
    public static Color TargetColor(RunResult run, string target) => new Palette(run).Of(target);

    /// <summary>The line pattern of an endpoint on the size chart ("solid", "dashed"...): by its place among the run's endpoints that have a payload size.</summary>
    public static string EndpointPattern(RunResult run, string endpoint) =>
        ChartStyle.PatternNames[ChartStyle.Index(ChartStyle.SizedEndpoints(run), endpoint) % ChartStyle.PatternNames.Length];

    private static int Repeats(IReadOnlyList<CellResult> cells) => cells.Max(c => c.Repeats.Count);

    /// <summary>A chart with the run's title and subtitle drawn on it, for charts built outside this class.</summary>
    public static Chart Titled(RunResult run, string name, string title, Plot plot, string note) =>
        Make(run, run.Cells.Where(c => c.Summary is not null).ToList(), name, title, plot, note);

    /// <remarks>The title names the servers' cores: the answer can flip with them.</remarks>
    internal static Chart Make(RunResult run, IReadOnlyList<CellResult> cells, string name, string title, Plot plot, string note)
    {
        return Decorated(name, $"{title}, {CoreParts.Short(run.Spec)}", Subtitle(run, cells) + "\n" + note, plot);
    }

    /// <summary>A chart with its title and subtitle drawn on the image, so a PNG on its own still says what it shows.</summary>
    internal static Chart Decorated(string name, string title, string subtitle, Plot plot)
    {
        plot.Axes.Title.Label.Text = title;
        plot.Axes.Title.Label.FontSize = 16;
        plot.Axes.Title.Label.Bold = true;
        plot.Axes.Title.FullFigureCenter = true;
        var sub = new ScottPlot.Panels.TitlePanel();
        sub.Label.Text = subtitle;
        sub.Label.FontSize = 11;
        sub.Label.Bold = false;
        sub.Label.ForeColor = Colors.Black.WithAlpha(0.7);
        sub.FullFigureCenter = true;
        sub.VerticalPadding = 2;
        plot.Axes.AddPanel(sub);
        return new Chart(name, title, plot) { Subtitle = subtitle };
    }

    /// <summary>What was measured: endpoints, concurrency, driver, machine.</summary>
    private static string Subtitle(RunResult run, IReadOnlyList<CellResult> cells)
    {
        var s = run.Spec;
        var endpoints = cells.Select(c => c.Key.Endpoint).Distinct().ToList();
        var concurrency = cells.Select(c => c.Key.Concurrency).Distinct().OrderBy(c => c).ToList();
        var driver = s.Drivers.FirstOrDefault()?.Name ?? "?";
        var drivers = s.Drivers.Count > 1 ? $"driver {driver} (first of {s.Drivers.Count})" : $"driver {driver}";
        return string.Create(CultureInfo.InvariantCulture,
            $"{string.Join(", ", endpoints)} · concurrency {string.Join(", ", concurrency)} · {drivers} · keep-alive {(s.KeepAlive ? "on" : "off")} · {Machine(s.Machine)}");
    }

    /// <summary>"AMD EPYC …, 2 logical cores, Linux …": the machine a chart's figures came from.</summary>
    internal static string Machine(MachineInfo m) => $"{m.CpuModel}, {m.LogicalCores} logical cores, {m.OperatingSystem}";
}
