using System.Net;
using System.Text;
using Comparator.Contracts;
using Comparator.Results;
using Comparator.Reports.Plots;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Exporters;

/// <summary>
/// Where each stack's work goes, read from a <see cref="ProfileResult"/>: per cell, every target's samples by layer scaled into its
/// cost of a request (instructions where counted, else server CPU time, both over the profile's own window), the difference from
/// the baseline layer by layer, and each target's hottest frames; profile.md and profile.html (with each flame graph), and the
/// same sections at the end of a profiled run's report.
/// </summary>
public static class ProfileReport
{
    public const string Explanation =
        "Each target was sampled in a pass of its own after the measured windows (started afresh with its runtime's JIT map on, warmed, then " +
        "loaded as the cell was), so that no judged figure comes from a sampled process. A sample counts for the layer of its leaf-most frame " +
        "that a rule of the layers file claims: time in the serializer called by a controller is serialization's, a lock taken by the listener " +
        "the runtime's. Each layer's share is scaled into the target's cost of a request (the run's measured figure, or the profile's own window: " +
        "the line under each table says which); a difference is the target's " +
        "minus the baseline's. A share is of samples, not a judged figure: it says where the work goes, not by how much one stack is cheaper.";

    private static readonly string[] Palette = { "#d62728", "#ff7f0e", "#2ca02c", "#1f77b4", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf", "#7f7f7f" };

    /// <summary>Each layer's colour in every flame graph and table: by its first place in the rules; the unattributed grey.</summary>
    public static IReadOnlyDictionary<string, string> LayerColors(IReadOnlyList<LayerRule> rules)
    {
        var colors = rules.Select(r => r.Layer).Distinct().Select((layer, i) => (layer, Palette[i % Palette.Length])).ToDictionary(p => p.layer, p => p.Item2);
        colors[Measuring.StackLayers.Unattributed] = "#cccccc";
        return colors;
    }

    /// <summary>"echo-post 64KB c=100": a cell as the profile names it.</summary>
    public static string CellLabel(CellKey key) =>
        $"{key.Endpoint}{(key.SizeBytes > 0 ? " " + PayloadCatalogue.SizeLabel(key.SizeBytes) : "")} c={key.Concurrency}" +
        (key.Driver == Drivers.SocketDriver.DriverName ? "" : " " + key.Driver);

    public const string BehalfExplanation =
        "The same samples, each counted for the nearest frame on its stack outside the kernel and the runtime: the layer the work was done " +
        "for (a socket's send called by the listener is the listener's; a collection in the serializer's allocation the serializer's). A sample " +
        "with no such frame (a collector's own thread, an idle pool thread) keeps its own layer.";

    /// <summary>The profile's sections: how it was taken, then two per cell (where the work goes, and on whose behalf).</summary>
    public static IReadOnlyList<ReportSection> Sections(ProfileResult profile)
    {
        if (profile.Unavailable is string why)
            return new[] { new ReportSection("Where the work goes (sampling profiles)") { Lines = new[] { why } } };
        var sections = new List<ReportSection> { Intro(profile) };
        foreach (var cell in profile.CellKeys) sections.AddRange(CellSections(profile, cell));
        return sections;
    }

    private static TextTable RulesTable(ProfileResult profile) => new(new[] { "layer", "frames of the types (prefix)", "native symbols (prefix)", "frames in the files" },
        profile.Layers.Select(r => (IReadOnlyList<string>)new[] { r.Layer, string.Join(", ", r.Types), string.Join(", ", r.Symbols ?? Array.Empty<string>()), string.Join(", ", r.Files) }).ToList());

    private static ReportSection Intro(ProfileResult profile) => new("Where the work goes (sampling profiles)", Explanation, RulesTable(profile))
    {
        Lines = new[] { "sampled with: " + profile.Sampler, "layers: " + profile.LayersFile + " (the rules above, tried in order for each frame; add your service's namespaces with --layers FILE)" },
    };

    /// <summary>A cell's two sections: each target's samples by the layer they were spent in, then by the layer they were spent for.</summary>
    public static IReadOnlyList<ReportSection> CellSections(ProfileResult profile, CellKey cell)
    {
        var shown = profile.Targets.Select(t => profile.Of(cell, t)).Where(c => c is { NotProfiled: null }).Cast<ProfiledCell>().ToList();
        var lines = profile.Targets.Select(t => profile.Of(cell, t)).Where(c => c?.NotProfiled is not null).Select(c => $"{c!.Key.Target}: {c.NotProfiled}").ToList();
        // A cost scales the shares only where every profiled target has it in one unit: else shares alone.
        var unit = shown.Select(c => (c.Cost?.Unit, c.Cost?.Measured)).Distinct().ToList() is { Count: 1 } units && units[0].Unit is string u ? u : null;
        var measured = unit is not null && shown[0].Cost!.Value.Measured;
        if (unit is not null)
            lines.Add(measured
                ? $"each target's {unit} a request as the run measured it (the cell's median window, as the verdict quotes it), shared out by the profile's samples; whether the difference is real is the verdict's to say"
                : $"each target's {unit} a request over the profile's own window: under sampling, with the JIT map and frame pointers on, not a measured figure " +
                  "(the sampled process may spend more than a measured one, and not alike on every stack); `run --profile` scales by the measured figures instead");
        var baseline = shown.FirstOrDefault(c => c.Key.Target == profile.Baseline);
        var layers = profile.Layers.Select(r => r.Layer).Append(Measuring.StackLayers.Unattributed).Distinct().ToList();
        var own = Table(shown, baseline, unit, layers, (c, l) => c.ShareOf(l));
        var behalf = Table(shown, baseline, unit, layers, (c, l) => c.BehalfOf(l));
        if (unit is not null && baseline is not null)
            foreach (var other in shown.Where(c => c != baseline))
            {
                lines.Add(ExtraWork(other, baseline, layers, unit, (c, l) => c.ShareOf(l), "spent in"));
                lines.Add(ExtraWork(other, baseline, layers, unit, (c, l) => c.BehalfOf(l), "done for"));
            }
        foreach (var c in shown)
        {
            lines.Add($"{c.Key.Target}: {c.Samples:N0} samples over {c.Seconds:0.0} s, {c.Requests:N0} requests" +
                      (c.CpuUsPerRequest is double sampled ? $", {Cost(sampled, "µs CPU")} µs CPU a request under sampling" : "") +
                      (c.MeasuredCpuUsPerRequest is double m ? $" ({Cost(m, "µs CPU")} measured: the median of {c.MeasuredWindows} windows)" : "") +
                      (c.NamedShare is double named ? $"; {Statistics.Format.Share(named)} of the frames in JIT-compiled code named" : "") +
                      $"; flame graph {c.FlameGraph}, folded stacks {c.Folded}");
            lines.Add($"{c.Key.Target}'s hottest frames (self): " + string.Join("; ", c.Frames.Take(5).Select(f => $"{f.Frame} ({f.Layer ?? Measuring.StackLayers.Unattributed}) {Statistics.Format.Share(f.Share)}")));
        }
        var sections = new List<ReportSection>
        {
            new ReportSection($"Where the work goes: {CellLabel(cell)}", null, own) { Lines = lines },
            new ReportSection($"On whose behalf: {CellLabel(cell)}", BehalfExplanation, behalf),
        };
        if (SystemCallSection(profile, cell) is { } calls) sections.Add(calls);
        return sections;
    }

    public const string SystemCallsExplanation =
        "Each target's system calls by call, counted by perf trace -s on every thread over a window of the pass's own after the sampled one, " +
        "divided by the requests served in it; in brackets, those of them that returned an error (EAGAIN from a drained socket is one). " +
        "Tracing slows the server, which can change how many requests one wake-up serves: these say which calls, and the judged system calls " +
        "per request (counted, untraced, in the measured windows) say how many.";

    /// <summary>Calls down (the most frequent of any target first), targets across, a request each, and the difference from the baseline; null where none was traced.</summary>
    private static ReportSection? SystemCallSection(ProfileResult profile, CellKey cell)
    {
        var cells = profile.Targets.Select(t => profile.Of(cell, t)).Where(c => c is { NotProfiled: null }).Cast<ProfiledCell>().ToList();
        var traced = cells.Where(c => c.SystemCalls.Count > 0).ToList();
        var lines = cells.Where(c => c.SystemCallsNotTraced is not null).Select(c => $"{c.Key.Target}: {c.SystemCallsNotTraced}").ToList();
        if (traced.Count == 0) return lines.Count == 0 ? null : new ReportSection($"System calls by call: {CellLabel(cell)}") { Lines = lines };
        var baseline = traced.FirstOrDefault(c => c.Key.Target == profile.Baseline);
        var others = traced.Where(c => c != baseline).ToList();
        // Each target's most frequent calls, but none that no target makes once in a hundred requests (the start-up's and the timers' calls).
        var calls = traced.SelectMany(c => c.SystemCalls.Take(TopCalls)).GroupBy(c => c.Call)
            .Where(g => g.Max(c => c.PerRequest) >= RareCall).OrderByDescending(g => g.Max(c => c.PerRequest)).Select(g => g.Key).ToList();
        // Every call a target made is kept: one outside its own top calls is a count (zero where it never made it), not an unknown.
        static SystemCallCount Of(ProfiledCell c, string call) => c.SystemCalls.FirstOrDefault(s => s.Call == call) ?? new SystemCallCount(call, 0, 0);
        static string Show(double v) => v.ToString(v >= 10 ? "0.0" : v >= 0.01 || v == 0 ? "0.00" : "0.000", CultureInfo.InvariantCulture);
        var header = new List<string> { "call" };
        header.AddRange(traced.Select(c => $"{c.Key.Target} a request (errors)"));
        if (baseline is not null) header.AddRange(others.Select(o => $"{o.Key.Target} - {baseline.Key.Target}"));
        var rows = calls.Select(call =>
        {
            var row = new List<string> { call };
            row.AddRange(traced.Select(c => $"{Show(Of(c, call).PerRequest)} ({Show(Of(c, call).ErrorsPerRequest)})"));
            if (baseline is not null)
                row.AddRange(others.Select(o => (Of(o, call).PerRequest - Of(baseline, call).PerRequest) is var d ? (d >= 0 ? "+" : "-") + Show(Math.Abs(d)) : ""));
            return (IReadOnlyList<string>)row;
        }).ToList();
        lines.AddRange(traced.Select(c => $"{c.Key.Target}: {c.SystemCallRequests:N0} requests in the tracing window; {SystemCallsCounted(c)}"));
        return new ReportSection($"System calls by call: {CellLabel(cell)}", SystemCallsExplanation, new TextTable(header, rows)) { Lines = lines };
    }

    /// <summary>How many calls, by count, each target brings into a cell's table (every call is kept, so a difference is known where a call is not in a table).</summary>
    public const int TopCalls = 10;

    /// <summary>Calls a request under which no target's call gets a row of its own.</summary>
    public const double RareCall = 0.01;

    private static string SystemCallsCounted(ProfiledCell c) =>
        $"{c.SystemCalls.Count} different calls, {c.SystemCalls.Sum(s => s.PerRequest).ToString("0.0", CultureInfo.InvariantCulture)} a request in all" +
        (c.SystemCalls.Count(s => s.PerRequest < RareCall) is var rare and > 0 ? $"; {rare} of them under one in a hundred requests each, not shown" : "");

    /// <summary>Layers down, targets across (cost a request and share), then each other target's difference from the baseline; null where no target was profiled.</summary>
    private static TextTable? Table(IReadOnlyList<ProfiledCell> shown, ProfiledCell? baseline, string? unit, IReadOnlyList<string> layers, Func<ProfiledCell, string, double> share)
    {
        if (shown.Count == 0) return null;
        var others = shown.Where(c => c != baseline).ToList();
        var diff = unit is not null && baseline is not null;
        var header = new List<string> { "layer" };
        header.AddRange(shown.Select(c => unit is null ? $"{c.Key.Target} share" : $"{c.Key.Target} {unit}/req (share)"));
        if (diff) header.AddRange(others.Select(o => $"{o.Key.Target} - {baseline!.Key.Target}"));
        var rows = new List<IReadOnlyList<string>>();
        foreach (var layer in layers.Where(l => shown.Any(c => share(c, l) > 0)).Append("total"))
        {
            double Share(ProfiledCell c) => layer == "total" ? 1 : share(c, layer);
            var row = new List<string> { layer };
            row.AddRange(shown.Select(c => unit is null ? Statistics.Format.Share(Share(c)) : $"{Cost(Share(c) * c.Cost!.Value.PerRequest, unit)} ({Statistics.Format.Share(Share(c))})"));
            if (diff) row.AddRange(others.Select(o => Signed(Share(o) * o.Cost!.Value.PerRequest - Share(baseline!) * baseline!.Cost!.Value.PerRequest, unit!)));
            rows.Add(row);
        }
        return new TextTable(header, rows);
    }

    /// <summary>
    /// "wcf-classic spends 12.3 µs CPU more a request than webapi-selfhost in this profile's windows, the most of it spent in framework pipeline
    /// (+8.1 µs CPU)": the difference in a reviewer's words, by the layers the work was spent in, or done for.
    /// </summary>
    public static string ExtraWork(ProfiledCell other, ProfiledCell baseline, IReadOnlyList<string> layers, string unit, Func<ProfiledCell, string, double> share, string verb)
    {
        var total = other.Cost!.Value.PerRequest - baseline.Cost!.Value.PerRequest;
        var byLayer = layers.Select(l => (Layer: l, Delta: share(other, l) * other.Cost!.Value.PerRequest - share(baseline, l) * baseline.Cost!.Value.PerRequest)).ToList();
        var (who, than, sign) = total >= 0 ? (other.Key.Target, baseline.Key.Target, 1) : (baseline.Key.Target, other.Key.Target, -1);
        var largest = byLayer.OrderByDescending(d => sign * d.Delta).First();
        var where = other.Cost!.Value.Measured ? "as measured (median window)" : "in this profile's windows (under sampling)";
        return $"{who} spends {Cost(Math.Abs(total), unit)} {unit} more a request than {than} {where}, " +
               $"the most of it {verb} {largest.Layer} ({Signed(sign * largest.Delta, unit)} {unit})";
    }

    private static string Cost(double value, string unit) => unit == ProfiledCell.InstructionsUnit
        ? (value >= 1e6 ? (value / 1e6).ToString("0.00", CultureInfo.InvariantCulture) + "M" : (value / 1e3).ToString("0.0", CultureInfo.InvariantCulture) + "k")
        : value.ToString("0.0", CultureInfo.InvariantCulture);

    private static string Signed(double value, string unit)
    {
        var text = Cost(Math.Abs(value), unit);
        return (value >= 0 || text.Trim('0', '.', 'k', 'M').Length == 0 ? "+" : "-") + text; // a difference that rounds to nothing has no sign
    }

    /// <summary>profile.md: the sections as Markdown.</summary>
    public static string Markdown(ProfileResult profile)
    {
        var md = new StringBuilder("# Where the work goes\n\n");
        foreach (var s in Sections(profile))
        {
            md.Append("## ").Append(s.Title).Append("\n\n");
            if (s.Explanation is string e) md.Append(e).Append("\n\n");
            if (s.Table is TextTable t) md.Append(t.ToMarkdown()).Append('\n');
            foreach (var line in s.Lines) md.Append("- ").Append(line).Append('\n');
            md.Append('\n');
        }
        return md.ToString();
    }

    /// <summary>profile.html: the sections, each cell's flame graphs under its tables (a link opens one with a tooltip on every frame); no script, nothing fetched.</summary>
    public static string Html(ProfileResult profile)
    {
        var html = HtmlReport.Head("Comparator profile", ".flame img{max-width:100%;border:1px solid #ddd}");
        html.Append("<h1>Where the work goes</h1>");
        if (profile.Unavailable is not null)
        {
            foreach (var s in Sections(profile)) Section(html, s);
            return html.Append("</body></html>").ToString();
        }
        Section(html, Intro(profile));
        foreach (var cell in profile.CellKeys)
        {
            foreach (var s in CellSections(profile, cell)) Section(html, s);
            foreach (var c in profile.Targets.Select(t => profile.Of(cell, t)).Where(c => c?.FlameGraph is not null))
                html.Append("<figure class=\"flame\"><figcaption>").Append(E($"{c!.Key.Target}, {CellLabel(cell)}: flame graph (the root on top, callees under their callers; open it for each frame's name and share)"))
                    .Append("</figcaption><a href=\"").Append(E(c.FlameGraph!)).Append("\"><img src=\"").Append(E(c.FlameGraph!)).Append("\" alt=\"")
                    .Append(E($"flame graph of {c.Key.Target}")).Append("\"></a></figure>");
        }
        return html.Append("</body></html>").ToString();
    }

    private static void Section(StringBuilder html, ReportSection s)
    {
        html.Append("<h2>").Append(E(s.Title)).Append("</h2>");
        if (s.Explanation is string e) html.Append("<p>").Append(E(e)).Append("</p>");
        if (s.Table is TextTable t) html.Append(t.ToHtml());
        if (s.Lines.Count > 0) html.Append("<ul>").Append(string.Concat(s.Lines.Select(l => "<li>" + E(l) + "</li>"))).Append("</ul>");
    }

    private static string E(string text) => WebUtility.HtmlEncode(text);
}
