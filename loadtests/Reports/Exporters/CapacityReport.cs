using System.IO;
using System.Net;
using System.Text;
using System.Text.Json;
using Comparator.Comparing;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Reports.Plots;
using Comparator.Reports.Sections;
using Comparator.Reports.Text;

namespace Comparator.Reports.Exporters;

/// <summary>
/// A capacity run's outputs, each only reading the result: capacity.json (the whole result), the verdict
/// lines, the table of capacities, capacity.md, and report.html with the hockey-stick charts (and their
/// files under charts/).
/// </summary>
public static class CapacityReport
{
    public static string Serialize(CapacityResult result) => JsonSerializer.Serialize(result, ResultStore.Options);

    /// <summary>Reads capacity.json; a file of another version or shape is one line.</summary>
    public static CapacityResult Deserialize(string json, string source)
    {
        CapacityResult? result;
        try { result = JsonSerializer.Deserialize<CapacityResult>(json, ResultStore.Options); }
        catch (JsonException e) { throw new InvalidDataException($"{source} is not a capacity result: {e.Message}"); }
        if (result is null || result.SchemaVersion != CapacityResult.CurrentSchemaVersion || result.Spec is null || result.Capacity is null || result.Cells is null || result.Verdicts is null)
            throw new InvalidDataException($"{source} is not a capacity result of schema {CapacityResult.CurrentSchemaVersion}");
        if (result.Capacity.Objectives?.Select(o => LatencyObjective.Parse(o ?? "").Error).FirstOrDefault(e => e is not null) is string refused)
            throw new InvalidDataException($"{source}: {refused}");
        return result;
    }

    /// <summary>A capacity run's capacity.json, or the run directory holding one; null for anything else (a run's results).</summary>
    public static CapacityResult? TryLoad(string path)
    {
        var file = Directory.Exists(path) ? Path.Combine(path, CapacityResult.FileName) : path;
        if (!File.Exists(file) || !string.Equals(Path.GetFileName(file), CapacityResult.FileName, StringComparison.Ordinal)) return null;
        return Deserialize(File.ReadAllText(file), file);
    }

    /// <summary>A capacity run as `report` renders it: html (the default), md, json or console.</summary>
    public static string? Render(CapacityResult result, string format) => format switch
    {
        "html" => Html(result, CapacityChart.Build(result).ToList()),
        "md" => Markdown(result),
        "json" => Serialize(result),
        "console" => Table(result).ToText() + "\n" + string.Join("\n", VerdictLines(result)) + "\n",
        _ => null,
    };

    /// <summary>capacity.json, capacity.md, report.html and charts/ into the directory.</summary>
    public static void WriteInto(CapacityResult result, string directory)
    {
        OutputFiles.WriteAtomically(Path.Combine(directory, CapacityResult.FileName), Serialize(result));
        OutputFiles.WriteAtomically(Path.Combine(directory, "capacity.md"), Markdown(result));
        var charts = CapacityChart.Build(result).ToList();
        OutputFiles.WriteAtomically(Path.Combine(directory, "report.html"), Html(result, charts));
        ChartFiles.WriteInto(charts, Path.Combine(directory, "charts"));
    }

    /// <summary>One line per comparison: who carries more within the objectives, by how much, or why that is not said.</summary>
    public static IReadOnlyList<string> VerdictLines(CapacityResult result)
    {
        var objectives = string.Join(" and ", result.Capacity.Objectives);
        return result.Verdicts.Select(v =>
        {
            var cell = Cell(v.Endpoint, v.SizeBytes, v.Concurrency, v.Cores);
            var ratio = v.Ratio is double r ? $"{Statistics.Format.Ratio(r)} ({v.RatioLow:0.00}x–{v.RatioHigh:0.00}x over {v.Units} launches)" : "";
            return v.Outcome switch
            {
                CellVerdict.Higher or CellVerdict.Lower => $"{cell}: {v.Leader} carries more within {objectives}: {v.Other}/{v.Baseline} capacity {ratio}",
                CellVerdict.Equivalent => $"{cell}: the same capacity within {objectives} ({v.Reason}): {v.Other}/{v.Baseline} {ratio}",
                _ => $"{cell}: not settled: {v.Reason}" + (ratio.Length > 0 ? $"; {v.Other}/{v.Baseline} {ratio}" : ""),
            };
        }).ToList();
    }

    public static TextTable Table(CapacityResult result)
    {
        var at = result.Capacity.AtRate is double r ? string.Create(CultureInfo.InvariantCulture, $"cores for {r:0} req/s") : null;
        var header = new List<string> { "cell", "target", "capacity req/s", "interval", "launches", "held none", "server CPU µs/req", "server cores" };
        if (at is not null) header.Add(at);
        header.Add("note");
        var rows = result.Cells.OrderBy(c => (c.Key.Endpoint, c.Key.SizeBytes, c.Key.Concurrency, c.Key.Cores)).Select(c =>
        {
            var s = c.Summary;
            var row = new List<string>
            {
                Cell(c.Key.Endpoint, c.Key.SizeBytes, c.Key.Concurrency, c.Key.Cores), c.Key.Target, N(s?.Capacity, "0"),
                s?.Low is double lo && s.High is double hi ? string.Create(CultureInfo.InvariantCulture, $"{lo:0}–{hi:0}") : "-",
                (s?.Launches ?? 0).ToString(CultureInfo.InvariantCulture), (s?.FailedEverywhere ?? 0).ToString(CultureInfo.InvariantCulture),
                N(s?.ServerCpuUsPerRequest, "0.0"), N(s?.ServerCoresAtCapacity, "0.00"),
            };
            if (at is not null) row.Add(N(s?.CoresAtRate, "0.00"));
            row.Add(s?.Note ?? "");
            return (IReadOnlyList<string>)row;
        }).ToList();
        return new TextTable(header, rows);
    }

    public static string Markdown(CapacityResult result)
    {
        var md = new StringBuilder();
        md.AppendLine($"# Capacity within {string.Join(" and ", result.Capacity.Objectives)}").AppendLine();
        if (result.Partial) md.AppendLine("**PARTIAL: the run was stopped before the end.**").AppendLine();
        md.AppendLine("## Verdict").AppendLine();
        foreach (var line in VerdictLines(result)) md.AppendLine("- " + line);
        md.AppendLine().AppendLine("## Capacity per target and cell").AppendLine().Append(Table(result).ToMarkdown()).AppendLine();
        foreach (var line in Notes(result)) md.AppendLine("- " + line);
        return md.ToString();
    }

    /// <summary>How to read the figures: the method, the cores, what the capacity is of, and who is not in it.</summary>
    public static IReadOnlyList<string> Notes(CapacityResult result)
    {
        var notes = new List<string>
        {
            "Capacity: the highest constant arrival rate that held every objective; interval: Student's t over the launches' capacities (log scale) " +
            $"at {Statistics.Format.Percent(result.Spec.Confidence ?? 0.99)}; server CPU µs/req and cores: at the median launch's highest step that held.",
            "The search: " + result.Capacity.Method + ".",
            $"Cores: the targets {CoreParts.Short(result.Spec)}; the driver ran on the same machine, so a capacity here includes the driver's share of the cores " +
            "(the crank path in the README moves it elsewhere). Cores for a rate: the rate times the server's CPU per request at the step that held nearest to it (the median launch's).",
            $"Machine: {Charts.Machine(result.Spec.Machine)}; {result.Spec.Launches} launch(es), steps of {result.Capacity.StepWarmupSeconds:0.##} s warm-up and {result.Capacity.StepSeconds:0.##} s window; " +
            "every step's window (rate asked, achieved, latency histogram, CPU) is in capacity.json.",
        };
        notes.AddRange(result.Targets.Where(t => !t.Measured).Select(t => $"not measured: {t.Name}: {t.NotMeasuredReason}"));
        return notes;
    }

    private static string Html(CapacityResult result, IReadOnlyList<Chart> charts)
    {
        static string E(string text) => WebUtility.HtmlEncode(text);
        var html = HtmlReport.Head("Comparator capacity " + result.StartedAt.ToString("u", CultureInfo.InvariantCulture));
        html.Append("<h1>Capacity within ").Append(E(string.Join(" and ", result.Capacity.Objectives))).Append("</h1>");
        if (result.Partial) html.Append("<p class=\"partial\">PARTIAL: the run was stopped before the end.</p>");
        html.Append("<h2>Verdict</h2><ul>");
        foreach (var line in VerdictLines(result)) html.Append("<li>").Append(E(line)).Append("</li>");
        html.Append("</ul><h2>Capacity per target and cell</h2>").Append(Table(result).ToHtml());
        html.Append("<h2>Latency against offered rate</h2>");
        foreach (var chart in charts) HtmlReport.Figure(html, chart);
        html.Append("<h2>How to read it</h2><ul>");
        foreach (var note in Notes(result)) html.Append("<li>").Append(E(note)).Append("</li>");
        return html.Append("</ul></body></html>").ToString();
    }

    /// <summary>Two capacity runs compared (<see cref="CapacityDiff"/>), as Markdown: the counts, then a row per target and cell.</summary>
    public static string Diff(CapacityDiff diff)
    {
        var md = new StringBuilder();
        var rows = diff.Rows;
        md.AppendLine($"Capacity within {string.Join(" and ", diff.Objectives)}: {rows.Count(r => r.Outcome == RunDiff.Regression)} regression(s), " +
                      $"{rows.Count(r => r.Outcome == RunDiff.Improvement)} improvement(s), {rows.Count(r => r.Outcome == PairVerdicts.Equivalent)} equivalent, " +
                      $"{rows.Count(r => r.Outcome == PairVerdicts.NotSettled)} not settled (threshold {Statistics.Format.Percent(diff.Threshold)}, {Statistics.Format.Percent(diff.Confidence)} intervals, Welch's t over launches)");
        md.AppendLine();
        md.AppendLine("| target | cell | base req/s | new req/s | new/base | interval | outcome |");
        md.AppendLine("| --- | --- | ---: | ---: | ---: | --- | --- |");
        foreach (var r in rows)
        {
            var k = r.Key;
            md.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"| {k.Target} | {Cell(k.Endpoint, k.SizeBytes, k.Concurrency, k.Cores)} | {r.Base:0} | {r.New:0} | {(r.Interval is { } i ? Statistics.Format.Ratio(i.Ratio) : "-")} | {(r.Interval is { } j ? $"{Statistics.Format.Ratio(j.Low)}–{Statistics.Format.Ratio(j.High)}" : "-")} | {r.Outcome}{(r.Reason is null ? "" : ": " + r.Reason)} |"));
        }
        return md.ToString();
    }

    private static string Cell(string endpoint, long size, int concurrency, string? cores) =>
        $"{endpoint}{(size > 0 ? " " + Contracts.PayloadCatalogue.SizeLabel(size) : "")} c={concurrency}" + (cores is null or "shared" ? "" : $" {cores}");

    private static string N(double? v, string format) => v is double x ? x.ToString(format, CultureInfo.InvariantCulture) : "-";
}
