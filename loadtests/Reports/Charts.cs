using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using Comparator.Results;
using ScottPlot;

namespace Comparator.Reports;

/// <summary>
/// One chart of a run: a file name, a title, and the plot (ScottPlot) that draws it. The title and
/// the subtitle (what was measured: endpoints, concurrency, driver, machine) are drawn on the image
/// itself, so a PNG pasted on its own still says what it shows.
/// </summary>
public sealed record Chart(string Name, string Title, Plot Plot)
{
    public const int Width = 900;
    public const int DefaultHeight = 600;

    /// <summary>The image's height: the default, or taller for a chart with a row per judgment.</summary>
    public int Height { get; init; } = DefaultHeight;

    /// <summary>What was measured, in one or two lines; drawn under the title on the image.</summary>
    public string Subtitle { get; init; } = "";

    public string Svg() => Plot.GetSvgXml(Width, Height);
}

/// <summary>
/// The charts of a run, drawn with ScottPlot: requests/s against payload size, p50 and p99 latency,
/// bytes per response beyond the body (heads and chunk framing), and server CPU per request.
/// Every chart gives a target the same colour; on the size chart an endpoint has its own line
/// pattern and marker, whiskers span the repeats' min to max, and dashed vertical lines mark the
/// sizes where the lead changes (Crossovers). A sweep (4 sizes or more) is drawn log-log.
/// With several drivers, the charts show the first one's cells and say so.
/// </summary>
public static partial class Charts
{
    /// <summary>From this many payload sizes on, the size chart's requests/s axis is logarithmic too.</summary>
    public const int LogYFromSizes = 4;

        private static readonly MarkerShape[] Markers = { MarkerShape.FilledCircle, MarkerShape.FilledSquare, MarkerShape.FilledTriangleUp, MarkerShape.FilledDiamond, MarkerShape.OpenCircle, MarkerShape.OpenSquare };
    private static readonly string[] PatternNames = { "solid", "dashed", "dotted", "dash-dot" };

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
        var driver = run.Spec.Drivers.FirstOrDefault()?.Name;
        var cells = run.Cells.Where(c => c.Summary is not null && c.Key.Driver == driver && c.Key.Rate is null).ToList();
        var charts = new List<Chart>();
        if (cells.Count == 0) return charts;
        var colors = new Palette(run);
        // First: every judgment and its interval, so the reader sees what is settled before any figure.
        if (ForestChart.Build(run) is Chart forest) charts.Add(forest);
        var several = cells.Any(c => c.Repeats.Count > 1);
        var whiskers = several ? $"bar = the median repeat (by requests/s) of {Repeats(cells)}, whisker = min–max of the repeats" : "one repeat, no whiskers";

        if (cells.Any(c => c.Key.SizeBytes > 0))
        {
            var (throughput, crossoverNote) = Throughput(run, cells, colors);
            charts.Add(Make(run, cells.Where(c => c.Key.SizeBytes > 0).ToList(), "throughput", "Requests per second against payload size", throughput,
                (cells.Any(c => c.Repeats.Count > 1) ? $"point = median of {Repeats(cells)} repeats, whisker = min–max" : "one repeat") + crossoverNote));
        }
        charts.Add(Make(run, cells, "requests", "Requests per second per cell", Grouped(cells, colors, s => s.RequestsPerSecond, "requests/s"),
            several ? $"bar = median of {Repeats(cells)} repeats, whisker = min–max" : "one repeat, no whiskers"));
        charts.Add(Make(run, cells, "latency-p50", "Latency p50 (ms) per cell", Grouped(cells, colors, s => s.LatencyP50Ms, "p50 latency (ms)"), whiskers));
        charts.Add(Make(run, cells, "latency-p99", "Latency p99 (ms) per cell", Grouped(cells, colors, s => s.LatencyP99Ms, "p99 latency (ms)"), whiskers));
        charts.Add(Make(run, cells, "overhead", "Response heads and chunk framing: bytes per response beyond the body", Overhead(cells, colors), "bar = median repeat"));
        charts.Add(Make(run, cells, "cpu", "Server CPU µs per request", Grouped(cells, colors, s => s.ServerCpuUsPerRequest, "server CPU µs per request"), whiskers));
        charts.AddRange(LatencyDistributions(run, driver, colors));
        return charts;
    }

    /// <summary>
    /// The HDR plot of every fixed-rate cell: latency against percentile on a log 1/(1−p) axis (50%,
    /// 90%, 99%, 99.9% ... evenly spaced), every target of the cell on it, from the median repeat's
    /// histogram. Latency counts from each request's intended send time, so the tail is what callers wait.
    /// </summary>
    private static IEnumerable<Chart> LatencyDistributions(RunResult run, string? driver, Palette colors)
    {
        var rated = run.Cells.Where(c => c.Key.Driver == driver && c.Key.Rate is not null && c.Summary?.LatencyDistribution is { Count: > 0 }).ToList();
        foreach (var cell in rated.GroupBy(c => c.Key with { Target = "" }))
        {
            var key = cell.Key;
            var plot = new Plot();
            double X(double p) => Math.Log10(1 / (1 - Math.Min(p, 99.999) / 100));
            var top = 0.0;
            foreach (var c in cell.OrderBy(c => colors.IndexOf(c.Key.Target)))
            {
                var points = c.Summary!.LatencyDistribution!.Where(p => p.Percentile < 100).ToList();
                var line = plot.Add.Scatter(points.Select(p => X(p.Percentile)).ToArray(), points.Select(p => p.Ms).ToArray());
                line.Color = colors.Of(c.Key.Target);
                line.LineWidth = 2;
                line.MarkerSize = 6;
                line.LegendText = $"{c.Key.Target} (max {c.Summary.LatencyMaxMs.ToString("0.##", CultureInfo.InvariantCulture)} ms)";
                top = Math.Max(top, points.Max(p => p.Ms));
            }
            var ticks = new[] { 0.0, 50, 90, 99, 99.9, 99.99, 99.999 };
            plot.Axes.Bottom.SetTicks(ticks.Select(X).ToArray(), ticks.Select(t => t.ToString("0.###", CultureInfo.InvariantCulture) + "%").ToArray());
            plot.Axes.Bottom.Label.Text = "percentile (log scale of 1/(1−p))";
            plot.Axes.Left.Label.Text = "latency from the intended send time (ms)";
            plot.Axes.SetLimits(0, X(99.999) * 1.02, 0, top * 1.1);
            plot.Legend.FontSize = 11;
            plot.ShowLegend(Edge.Bottom);
            var size = rated.HasSizes(key.Endpoint) ? " " + cell.First().SizeLabel : "";
            var rate = key.Rate!.Value.ToString("0", CultureInfo.InvariantCulture);
            var name = $"latency-{key.Endpoint}{(size.Length > 0 ? "-" + cell.First().SizeLabel : "")}-c{key.Concurrency}-{rate}rps";
            yield return Make(run, cell.ToList(), name, $"Latency distribution at {rate} req/s: {key.Endpoint}{size}",
                plot, "fixed rate (open model), the median repeat's HDR histogram; coordinated omission corrected");
        }
    }

    /// <summary>The colour of a target in every chart of this run: by its place in the run's target list.</summary>
    public static Color TargetColor(RunResult run, string target) => new Palette(run).Of(target);

    /// <summary>The line pattern of an endpoint on the size chart ("solid", "dashed"...): by its place among the run's endpoints that have a payload size.</summary>
    public static string EndpointPattern(RunResult run, string endpoint) => PatternNames[Index(SizedEndpoints(run), endpoint) % PatternNames.Length];

    /// <summary>The endpoints on the size chart (those with a payload size), in the run's order: the first is drawn solid.</summary>
    private static IReadOnlyList<string> SizedEndpoints(RunResult run) =>
        run.Spec.Endpoints.Concat(run.Cells.Select(c => c.Key.Endpoint)).Distinct().Where(e => run.Cells.Any(c => c.Key.Endpoint == e && c.Key.SizeBytes > 0)).ToList();

    private sealed class Palette
    {
        private readonly List<string> targets;
        public Palette(RunResult run) =>
            targets = run.Spec.Targets.Concat(run.Targets.Select(t => t.Name)).Concat(run.Cells.Select(c => c.Key.Target)).Distinct().ToList();
        public int IndexOf(string target) => Math.Max(0, targets.IndexOf(target));
        public Color Of(string target) => new ScottPlot.Palettes.Category10().GetColor(IndexOf(target));
    }

    private static int Index(IReadOnlyList<string> list, string item) => Math.Max(0, list.ToList().IndexOf(item));

    private static int Repeats(IReadOnlyList<CellResult> cells) => cells.Max(c => c.Repeats.Count);

    /// <summary>A chart with the run's title and subtitle drawn on it, for charts built outside this class.</summary>
    public static Chart Titled(RunResult run, string name, string title, Plot plot, string note) =>
        Make(run, run.Cells.Where(c => c.Summary is not null).ToList(), name, title, plot, note);

    /// <remarks>The title names the servers' cores: the answer can flip with them.</remarks>
    private static Chart Make(RunResult run, IReadOnlyList<CellResult> cells, string name, string title, Plot plot, string note)
    {
        title = $"{title}, {CoreParts.Short(run.Spec)}";
        var subtitle = Subtitle(run, cells) + "\n" + note;
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
            $"{string.Join(", ", endpoints)} · concurrency {string.Join(", ", concurrency)} · {drivers} · keep-alive {(s.KeepAlive ? "on" : "off")} · {s.Machine.CpuModel}, {s.Machine.LogicalCores} logical cores, {s.Machine.OperatingSystem}");
    }

    private static string Si(double v) => v switch
    {
        >= 1e6 => (v / 1e6).ToString("0.#", CultureInfo.InvariantCulture) + "M",
        >= 1e3 => (v / 1e3).ToString("0.#", CultureInfo.InvariantCulture) + "k",
        >= 1 => v.ToString("0.#", CultureInfo.InvariantCulture),
        _ => v.ToString("0.###", CultureInfo.InvariantCulture),
    };

    /// <summary>Requests/s against payload size: one colour per target, one line pattern and marker per endpoint, whiskers min–max of the repeats.</summary>
    private static (Plot Plot, string Note) Throughput(RunResult run, IReadOnlyList<CellResult> cells, Palette colors)
    {
        var plot = new Plot();
        var sized = cells.Where(c => c.Key.SizeBytes > 0).ToList();
        var sizes = sized.Select(c => c.Key.SizeBytes).Distinct().OrderBy(s => s).ToList();
        var logY = sizes.Count >= LogYFromSizes;
        var concurrencies = sized.Select(c => c.Key.Concurrency).Distinct().OrderBy(c => c).ToList();
        double Y(double rps) => logY ? Math.Log10(Math.Max(rps, 0.1)) : rps;
        var endpoints = SizedEndpoints(run);
        var lines = sized.GroupBy(c => (c.Key.Target, c.Key.Endpoint, c.Key.Concurrency))
            .OrderBy(g => colors.IndexOf(g.Key.Target)).ThenBy(g => Index(endpoints, g.Key.Endpoint)).ThenBy(g => g.Key.Concurrency)
            .Select(g => g.OrderBy(c => c.Key.SizeBytes).ToList()).ToList();
        var found = Crossovers.Find(run);
        var ys = sized.SelectMany(c => new[] { c.RpsMin ?? c.Summary!.RequestsPerSecond, c.RpsMax ?? c.Summary!.RequestsPerSecond }).ToList();

        // Limits first: the dashes are cut to a length in pixels, and the crossover labels need a band on top.
        var max = ys.DefaultIfEmpty(1).Max();
        var min = logY ? ys.Where(v => v > 0).DefaultIfEmpty(1).Min() : 0;
        var headroom = found.Any(c => c.Changes.Any()) ? 0.6 : 0.12;
        var (bottom, top) = logY
            ? (Math.Log10(min) - 0.08, Math.Log10(max) + (Math.Log10(max) - Math.Log10(min) + 0.3) * headroom)
            : (0, max * (1 + headroom));
        var (left, right) = sizes.Count > 0
            ? (Math.Log10(sizes[0]) - Math.Max(Math.Log10(sizes[^1]) - Math.Log10(sizes[0]), 0.5) * 0.05, Math.Log10(sizes[^1]) + Math.Max(Math.Log10(sizes[^1]) - Math.Log10(sizes[0]), 0.5) * 0.05)
            : (0, 1);
        var frame = new Frame(left, right, bottom, top);

        foreach (var points in lines)
        {
            var key = points[0].Key;
            var xs = points.Select(c => Math.Log10(c.Key.SizeBytes)).ToArray();
            var mid = points.Select(c => c.Summary!.RequestsPerSecond).ToArray();
            var lo = points.Select(c => c.RpsMin ?? c.Summary!.RequestsPerSecond).ToArray();
            var hi = points.Select(c => c.RpsMax ?? c.Summary!.RequestsPerSecond).ToArray();
            var color = colors.Of(key.Target);
            var e = Index(endpoints, key.Endpoint);
            var marker = concurrencies.Count > 1 ? Markers[concurrencies.IndexOf(key.Concurrency) % Markers.Length] : Markers[e % Markers.Length];

            if (points.Any(c => c.Repeats.Count > 1))
            {
                var whisker = new ScottPlot.Plottables.ErrorBar(xs, mid.Select(Y).ToArray(), null, null,
                    mid.Select((m, i) => Y(hi[i]) - Y(m)).ToArray(), mid.Select((m, i) => Y(m) - Y(lo[i])).ToArray());
                plot.Add.Plottable(whisker);
                whisker.Color = color.WithAlpha(0.8);
                whisker.LineWidth = 1.5f;
                whisker.CapSize = 6;
            }
            Polyline(plot, frame, xs, mid.Select(Y).ToArray(), color, 2, e % DashPatterns.Length);
            var scatter = plot.Add.ScatterPoints(xs, mid.Select(Y).ToArray());
            scatter.LegendText = $"{key.Target} · {key.Endpoint}" + (concurrencies.Count > 1 ? $" c{key.Concurrency}" : "") + $" ({PatternNames[e % PatternNames.Length]})";
            scatter.Color = color;
            scatter.MarkerShape = marker;
            scatter.MarkerSize = 8;
        }

        if (sizes.Count > 0)
            plot.Axes.Bottom.SetTicks(sizes.Select(s => Math.Log10(s)).ToArray(), sizes.Select(s => sized.First(c => c.Key.SizeBytes == s).SizeLabel).ToArray());
        plot.Axes.Bottom.Label.Text = "payload size (log scale)";
        plot.Axes.Left.Label.Text = logY ? "requests/s (log scale)" : "requests/s (linear scale)";
        if (logY)
        {
            var ticks = LogTicks(min, max);
            plot.Axes.Left.SetTicks(ticks.Select(Math.Log10).ToArray(), ticks.Select(Si).ToArray());
        }
        plot.Axes.SetLimits(left, right, bottom, top);
        var note = CrossoverLines(run, plot, frame, found, sizes);
        plot.Legend.FontSize = 11;
        plot.Legend.Orientation = Orientation.Horizontal;
        plot.ShowLegend(Edge.Bottom);
        return (plot, note);
    }

    /// <summary>Ticks 1, 2, 5 x 10^k spanning [min, max].</summary>
    private static IReadOnlyList<double> LogTicks(double min, double max)
    {
        var ticks = new List<double>();
        for (var decade = Math.Pow(10, Math.Floor(Math.Log10(min))); decade <= max * 10; decade *= 10)
            foreach (var m in new[] { 1.0, 2, 5 })
                if (decade * m >= min * 0.8 && decade * m <= max * 1.25) ticks.Add(decade * m);
        return ticks;
    }

    /// <summary>The axis limits and, roughly, the data area in pixels: dashes are measured in pixels.</summary>
    private sealed record Frame(double Left, double Right, double Bottom, double Top)
    {
        public double PxX => 760 / (Right - Left);
        public double PxY => 360 / (Top - Bottom);
    }

    /// <summary>On/off lengths in pixels per endpoint: solid, dashed, dotted, dash-dot-like. Drawn as segments (Skia's SVG output has no dash effect).</summary>
    private static readonly double[][] DashPatterns = { Array.Empty<double>(), new double[] { 9, 5 }, new double[] { 2.5, 4 }, new double[] { 14, 4, 3, 4 } };

    /// <summary>A line through the points, solid or cut into dashes by the pattern; every piece kept out of the legend.</summary>
    private static void Polyline(Plot plot, Frame frame, IReadOnlyList<double> xs, IReadOnlyList<double> ys, Color color, float width, int pattern)
    {
        var dashes = DashPatterns[pattern];
        if (dashes.Length == 0)
        {
            var solid = plot.Add.ScatterLine(xs.ToArray(), ys.ToArray());
            solid.Color = color;
            solid.LineWidth = width;
            return;
        }
        int k = 0;
        double left = dashes[0];
        bool on = true;
        for (var i = 0; i + 1 < xs.Count; i++)
        {
            var dx = (xs[i + 1] - xs[i]) * frame.PxX;
            var dy = (ys[i + 1] - ys[i]) * frame.PxY;
            var length = Math.Sqrt(dx * dx + dy * dy);
            double at = 0;
            while (at < length)
            {
                var step = Math.Min(left, length - at);
                if (on)
                {
                    double X(double t) => xs[i] + (xs[i + 1] - xs[i]) * t / length;
                    double Yy(double t) => ys[i] + (ys[i + 1] - ys[i]) * t / length;
                    var dash = plot.Add.Line(X(at), Yy(at), X(at + step), Yy(at + step));
                    dash.Color = color;
                    dash.LineWidth = width;
                    dash.LegendText = "";
                }
                at += step;
                left -= step;
                if (left <= 1e-9)
                {
                    k = (k + 1) % dashes.Length;
                    left = dashes[k];
                    on = k % 2 == 0;
                }
            }
        }
    }

    /// <summary>
    /// Thin dashed grey vertical lines where the lead changes (Crossovers), labelled
    /// "endpoint: before → after". With more than one pair (baseline against several targets),
    /// only the baseline against the first other target is marked, and the returned note says so.
    /// </summary>
    private static string CrossoverLines(RunResult run, Plot plot, Frame frame, IReadOnlyList<Crossover> found, IReadOnlyList<long> sizes)
    {
        if (found.Count == 0 || sizes.Count < 2) return "";
        var other = found.Select(c => c.Other).Distinct().OrderBy(o => Index(run.Spec.Targets, o)).First();
        var concurrency = found.Where(c => c.Other == other).Min(c => c.Concurrency);
        var marked = found.Where(c => c.Other == other && c.Concurrency == concurrency).ToList();
        var pair = $"{other} vs {run.Spec.BaselineTarget}" + (found.Select(c => c.Concurrency).Distinct().Count() > 1 ? $", c{concurrency}" : "");
        var changes = marked.SelectMany(c => c.Changes.Select(change => (Crossover: c, Change: change))).ToList();
        if (changes.Count == 0) return $"\nthe lead does not change with the payload size ({pair})";
        var endpoints = marked.Select(c => c.Endpoint).Distinct().ToList();
        // "echo-post", "echo-put" -> "post", "put": the labels stand in a narrow band.
        var prefix = endpoints.All(e => e.Contains('-')) && endpoints.Select(e => e[..(e.IndexOf('-') + 1)]).Distinct().Count() == 1 ? endpoints[0].IndexOf('-') + 1 : 0;
        var grey = Colors.Black.WithAlpha(0.5);
        foreach (var size in changes.GroupBy(c => c.Change.SizeBytes))
        {
            var x = Math.Log10(size.Key);
            Polyline(plot, frame, new[] { x, x }, new[] { frame.Bottom, frame.Top }, grey, 1, 1);
            var label = string.Join("\n", size.Select(c =>
            {
                var measured = c.Crossover.Sizes.Where(v => v.Measured).ToList();
                var before = measured[measured.IndexOf(c.Change) - 1];
                return (endpoints.Count > 1 ? c.Crossover.Endpoint[prefix..] + ": " : "lead: ") + $"{before.Who} → {c.Change.Who}";
            }));
            var text = plot.Add.Text(label, x, frame.Top);
            text.LabelFontSize = 9.5f;
            text.LabelFontColor = Colors.Black.WithAlpha(0.85);
            text.LabelRotation = -90;
            text.LabelAlignment = Alignment.LowerRight;
            text.LabelOffsetX = -2;
            text.LabelOffsetY = 4;
        }
        var only = found.Select(c => c.Other).Distinct().Count() > 1 || found.Count > marked.Count ? " only" : "";
        return $"\ngrey dashed lines: where the verdict changes, {pair}{only}; a lead = the interval wholly beyond the minimum effect, same = equivalent within the margin";
    }

    /// <summary>One group of bars per endpoint x size x concurrency, one bar per target; whiskers over the repeats where there are several.</summary>
    private static Plot Grouped(IReadOnlyList<CellResult> cells, Palette colors, Func<Measurement, double?> value, string axisLabel, bool whiskers = true)
    {
        var plot = new Plot();
        var targets = cells.Select(c => c.Key.Target).Distinct().OrderBy(colors.IndexOf).ToList();
        var groups = cells.GroupBy(Category).ToList();
        var bars = new List<Bar>();
        var whiskerXs = new List<double>();
        var whiskerYs = new List<double>();
        var whiskerUp = new List<double>();
        var whiskerDown = new List<double>();
        for (var g = 0; g < groups.Count; g++)
            foreach (var cell in groups[g])
                if (value(cell.Summary!) is double v)
                {
                    var position = g * (targets.Count + 1) + targets.IndexOf(cell.Key.Target);
                    bars.Add(new Bar { Position = position, Value = v, FillColor = colors.Of(cell.Key.Target), LineWidth = 0 });
                    var repeats = cell.Repeats.Select(value).OfType<double>().ToList();
                    if (whiskers && repeats.Count > 1)
                    {
                        whiskerXs.Add(position);
                        whiskerYs.Add(v);
                        whiskerUp.Add(Math.Max(0, repeats.Max() - v));
                        whiskerDown.Add(Math.Max(0, v - repeats.Min()));
                    }
                }
        BarsWithWhiskers(plot, bars, whiskerXs, whiskerYs, whiskerUp, whiskerDown);
        Ticks(plot, groups.Select(g => g.Key).ToList(), targets.Count);
        Legend(plot, targets, colors);
        plot.Axes.Left.Label.Text = axisLabel;
        plot.Axes.Margins(bottom: 0);
        return plot;
    }

    /// <summary>
    /// What each request costs beyond its body: response heads and chunk framing (wire bytes minus
    /// body bytes). Drawn on its own, since next to a 64 KB body a 120-byte head would not show.
    /// </summary>
    private static Plot Overhead(IReadOnlyList<CellResult> cells, Palette colors) =>
        Grouped(cells.Where(c => c.Summary!.BodyBytesReceived is not null).ToList(), colors,
            s => s.Requests > 0 ? (double)(s.BytesReceived - s.BodyBytesReceived!.Value) / s.Requests : null, "bytes per response beyond the body", whiskers: false);

    private static string Category(CellResult c) => c.Key.Endpoint + (c.Key.SizeBytes > 0 ? " " + c.SizeLabel : "") + $" c{c.Key.Concurrency}";

    /// <summary>The bars, and a whisker (min–max of the windows) on each bar that has one.</summary>
    private static void BarsWithWhiskers(Plot plot, List<Bar> bars, List<double> xs, List<double> ys, List<double> up, List<double> down)
    {
        plot.Add.Bars(bars);
        if (xs.Count == 0) return;
        var error = new ScottPlot.Plottables.ErrorBar(xs, ys, null, null, up, down);
        plot.Add.Plottable(error);
        error.Color = Colors.Black.WithAlpha(0.75);
        error.LineWidth = 1.2f;
        error.CapSize = 4;
    }

    private static void Ticks(Plot plot, IReadOnlyList<string> categories, int perGroup)
    {
        plot.Axes.Bottom.SetTicks(categories.Select((_, g) => g * (perGroup + 1) + (perGroup - 1) / 2.0).ToArray(), categories.ToArray());
        plot.Axes.Bottom.TickLabelStyle.Rotation = 30;
        plot.Axes.Bottom.TickLabelStyle.Alignment = Alignment.MiddleLeft;
        plot.Axes.Bottom.MinimumSize = 120;
        plot.Axes.Right.MinimumSize = 70; // the last rotated category label runs to the right of the data
    }

    private static void Legend(Plot plot, IReadOnlyList<string> targets, Palette colors)
    {
        foreach (var target in targets)
            plot.Legend.ManualItems.Add(new LegendItem { LabelText = target, FillColor = colors.Of(target) });
        plot.Legend.FontSize = 11;
        plot.Legend.Orientation = Orientation.Horizontal;
        plot.ShowLegend(Edge.Top); // outside the data: inside, it hid the tallest bars' whiskers
    }
}
