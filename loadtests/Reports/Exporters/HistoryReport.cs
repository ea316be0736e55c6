using System.Net;
using System.Text;
using System.Text.Json;
using Comparator.Comparing;
using Comparator.Results;
using Comparator.Statistics;
using Comparator.Reports.Plots;
using Comparator.Reports.Sections;
using Comparator.Reports.Text;

namespace Comparator.Reports.Exporters;

/// <summary>
/// A history's outputs, all read from one <see cref="HistoryResult"/>: history.md (the verdict, then per group its runs, the change
/// points and every series' word), history.html (the same with one trend chart per cell and figure: inline SVG, no script, nothing
/// fetched) and history.json (the result whole).
/// </summary>
public static class HistoryReport
{
    public static string Json(HistoryResult history) => JsonSerializer.Serialize(history, ResultStore.Options);

    /// <summary>The history's first line: what its gate says, in a release engineer's words.</summary>
    public static string Verdict(HistoryResult history)
    {
        var regressions = history.Gating.Where(s => s.Judgment == HistorySeries.Regression).ToList();
        if (regressions.Count > 0)
            return $"REGRESSION: {string.Join("; ", regressions.Select(s => $"{s.Target} {s.CellLabel} {s.Descriptor.Label} {Step(s.Changes.Last(c => c.Current && c.Worse))}"))}";
        var unjudged = history.Gating.Count(s => s.Judgment == HistorySeries.CannotJudge);
        var gating = history.Gating.Count();
        if (unjudged > 0)
            return $"CANNOT JUDGE: {unjudged} of {gating} gating series have too few runs to find a change ({history.Gating.First(s => s.WhyNot is not null).WhyNot})";
        var improved = history.Gating.Count(s => s.Judgment == HistorySeries.Improvement);
        return $"No regression: {gating} gating series, {(improved > 0 ? $"{improved} improved, " : "")}no change for the worse since {(history.Groups.Any(g => g.Runs.Any(r => r.Baseline)) ? "the newest baseline" : "the first run")}";
    }

    /// <summary>"-24.3% between runs 6 and 7 (5120 → 3876)".</summary>
    public static string Step(HistoryChange c) =>
        $"{Format.Signed(c.Change)} between runs {c.Before} and {c.After} ({Format.Figure(c.MedianBefore)} → {Format.Figure(c.MedianAfter)})";

    public static string Markdown(HistoryResult history)
    {
        var md = new StringBuilder();
        md.AppendLine("# Comparator history: " + Verdict(history)).AppendLine();
        foreach (var line in Method(history)) md.AppendLine("- " + line);
        md.AppendLine();
        foreach (var skipped in history.Skipped) md.AppendLine("- skipped: " + skipped);
        if (history.Skipped.Count > 0) md.AppendLine();
        foreach (var group in history.Groups)
        {
            md.AppendLine("## " + Heading(group)).AppendLine();
            md.AppendLine(Runs(group).ToMarkdown());
            md.AppendLine("### Change points").AppendLine();
            md.AppendLine(Changes(group) is { Rows.Count: > 0 } changes ? changes.ToMarkdown() : "None found.\n");
            md.AppendLine("### Series").AppendLine();
            md.AppendLine(Series(group).ToMarkdown());
        }
        return md.ToString();
    }

    public static string Html(HistoryResult history)
    {
        var html = HtmlReport.Head("Comparator history", ".regression{color:#b00;font-weight:bold}.ok{color:#060;font-weight:bold}");
        var cls = history.HasRegression ? "regression" : history.CannotJudge ? "partial" : "ok";
        html.Append("<h1>Comparator history</h1><p class=\"").Append(cls).Append("\">").Append(E(Verdict(history))).Append("</p><ul>");
        foreach (var line in Method(history)) html.Append("<li>").Append(E(line)).Append("</li>");
        foreach (var skipped in history.Skipped) html.Append("<li>skipped: ").Append(E(skipped)).Append("</li>");
        html.Append("</ul>");
        foreach (var (group, index) in history.Groups.Select((g, i) => (g, i)))
        {
            html.Append("<h2>").Append(E(Heading(group))).Append("</h2>");
            html.Append("<h3>Change points</h3>").Append(Changes(group) is { Rows.Count: > 0 } changes ? changes.ToHtml() : "<p>None found.</p>");
            foreach (var chart in HistoryChart.Build(group)) HtmlReport.Figure(html, chart with { Name = $"{index + 1}-{chart.Name}" });
            html.Append("<h3>Runs</h3>").Append(Runs(group).ToHtml());
            html.Append("<h3>Series</h3>").Append(Series(group).ToHtml());
        }
        return html.Append("</body></html>").ToString();
    }

    /// <summary>The summary a CI job's page shows: the verdict, every change point that gates, and what the exit code means.</summary>
    public static string Summary(HistoryResult history, int exitCode)
    {
        var md = new StringBuilder("# Comparator history: " + Verdict(history) + "\n\n");
        foreach (var group in history.Groups)
        foreach (var s in group.Series.Where(s => s.Changes.Any(c => c.Current)))
        foreach (var c in s.Changes.Where(c => c.Current))
            md.AppendLine($"- {s.Target} {s.CellLabel} {s.Descriptor.Label}: {Step(c)}{(s.Gates ? "" : " (informs, does not gate)")}");
        return md.AppendLine().AppendLine($"Exit {exitCode}: " + exitCode switch
        {
            0 => "no change for the worse in a gating figure.",
            1 => "a gating figure changed for the worse.",
            3 => "too few runs to find a change in some gating figure.",
            _ => "see the history.",
        }).ToString();
    }

    private static IEnumerable<string> Method(HistoryResult history)
    {
        yield return "Change points: " + history.RuleText + ". A run's figure is its geometric mean over its launches.";
        yield return "Smallest step findable: the step the rule would find in a series as spread as this one is since its newest baseline, halfway along it " +
                     $"(|t| > {history.Rule.TThreshold:0.#} with its runs on each side); a smaller change passes unseen.";
        yield return "Gate: instructions per request where every run of a cell counted them, else req/s (p90 at a fixed rate); the other judged figures inform.";
        yield return "Baselines: a run marked with `history --mark-baseline RUN` starts a new segment; no change is looked for across it and only changes after the newest one gate.";
        var s = history.Selection;
        var picked = new[]
        {
            s.Since is DateTimeOffset since ? $"runs since {since:yyyy-MM-dd HH:mm} UTC" : null,
            s.Last is int last ? $"the newest {last} runs of each group" : null,
            s.Machine switch { null => null, HistorySelection.EachMachine => "each machine apart", HistorySelection.AnyMachine => "runs of every machine mixed in one series (asked)", var m => $"machine {m}" },
        }.OfType<string>().ToList();
        if (picked.Count > 0) yield return "Selection: " + string.Join(", ", picked) + ".";
    }

    private static string Heading(HistoryGroup g) =>
        $"{string.Join(" vs ", g.Targets)}: {g.Runs.Count} run{(g.Runs.Count == 1 ? "" : "s")}, {g.Runs[0].StartedAt:yyyy-MM-dd HH:mm} to {g.Runs[^1].StartedAt:yyyy-MM-dd HH:mm} UTC, on {g.MachineText}" +
        (g.Machine == HistorySelection.AnyMachine ? "" : $" (machine {g.Machine})");

    private static TextTable Runs(HistoryGroup g) => new(
        new[] { "run", "started (UTC)", "label", "revision", "baseline", "directory" },
        g.Runs.Select(r => (IReadOnlyList<string>)new[]
        {
            r.Number.ToString(CultureInfo.InvariantCulture), r.StartedAt.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) + (r.Partial ? " (partial)" : ""),
            r.Label ?? "", string.Join(", ", r.Revisions), r.Baseline ? "baseline" + (r.BaselineReason is string why ? ": " + why : "") : "", r.Source,
        }).ToList());

    private static TextTable Changes(HistoryGroup g) => new(
        new[] { "target", "cell", "figure", "between runs", "median before", "median after", "change", "t", "counts" },
        g.Series.SelectMany(s => s.Changes.Select(c => (IReadOnlyList<string>)new[]
        {
            s.Target, s.CellLabel, s.Descriptor.Label, $"{c.Before} → {c.After}", Format.Figure(c.MedianBefore), Format.Figure(c.MedianAfter), Format.Signed(c.Change),
            double.IsInfinity(c.T) ? (c.T > 0 ? "+inf" : "-inf") : c.T.ToString("0.0", CultureInfo.InvariantCulture),
            !c.Current ? "before the newest baseline" : !s.Gates ? "informs" : c.Worse ? "REGRESSION" : "improvement",
        })).ToList());

    private static TextTable Series(HistoryGroup g) => new(
        new[] { "target", "cell", "figure", "runs", "first", "latest", "smallest step findable", "gates", "word" },
        g.Series.Select(s => (IReadOnlyList<string>)new[]
        {
            s.Target, s.CellLabel, s.Descriptor.Label, s.Points.Count.ToString(CultureInfo.InvariantCulture), Format.Figure(s.Points[0].Value), Format.Figure(s.Points[^1].Value),
            s.Findable is double f ? "±" + (f * 100).ToString("0.#", CultureInfo.InvariantCulture) + "%" : "", s.Gates ? "gates" : "informs", s.WhyNot is string why && s.Judgment == HistorySeries.CannotJudge ? $"{s.Judgment}: {why}" : s.Judgment,
        }).ToList());

    private static string E(string text) => WebUtility.HtmlEncode(text);
}
