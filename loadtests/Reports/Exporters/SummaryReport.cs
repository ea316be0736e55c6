using System.Text;
using Comparator.Results;
using Comparator.Reports.Plots;
using Comparator.Reports.Text;

namespace Comparator.Reports.Exporters;

/// <summary>
/// summary.md: the headline and the table of every judged figure, the answer, one chart and the verdict, at most <see cref="MaxLines"/> lines, to paste into a
/// review or a pull request. Sizes are dropped first when the verdict is longer (their endpoint's
/// line still gives the crossover and the ratio from smallest to largest size; report.md has all).
/// </summary>
public sealed class SummaryReport : IExporter
{
    public const int MaxLines = 40;

    public string Name => "summary";
    public string? FileName => "summary.md";

    /// <summary>The chart it shows, by preference: req/s across cores, every judgment, req/s by size, req/s per cell.</summary>
    private static readonly string[] ChartsShown = { Charts.CoresChart, ForestChart.Name, "throughput", "requests" };

    public string Render(RunReport report)
    {
        var chart = ChartsShown.FirstOrDefault(name => report.Charts.Any(c => c.Name == name)) is string name ? $"charts/{name}.png" : null;
        return Render(report.Run, report.Verdict, chart, report.AnswerParagraphs, FirstScreen.ToMarkdown(report.Headline, report.Tables));
    }

    /// <param name="chart">The chart to show, relative to the run directory (charts/throughput.png), or null.</param>
    /// <param name="answer">The answer's paragraphs (<see cref="Answer"/>), joined into one before the chart; built from the run when not given.</param>
    /// <param name="firstScreen">The headline and the table of every judged figure, as Markdown (<see cref="FirstScreen"/>); built from the run when not given.</param>
    public static string Render(RunResult run, IReadOnlyList<VerdictLine> lines, string? chart, IReadOnlyList<IReadOnlyList<string>>? answer = null, string? firstScreen = null)
    {
        // The first screen (headline and table), then the answer in full, the picture, then the verdict without its method: a reviewer reads the top.
        var head = new List<string>
        {
            "# WCF or Web API: verdict of the run of " + run.StartedAt.ToString("u", CultureInfo.InvariantCulture) + (run.Partial ? " (PARTIAL)" : ""),
            "",
        };
        head.AddRange(Lines(firstScreen ?? FirstScreen.ToMarkdown(Headline.Of(run), JudgedTable.Of(run))));
        head.AddRange(new[] { "", string.Join(" ", (answer ?? Answer.Paragraphs(run)).SelectMany(p => p)), "" });
        if (chart is not null) head.AddRange(new[] { $"![{System.IO.Path.GetFileNameWithoutExtension(chart)}]({chart})", "" });
        var tail = new List<string> { "" };
        if (run.Spec.Crank is CrankSpec crank)
            tail.Add("Measured through crank: " + (crank.SharedCores ? "server and driver on one machine's cores" : "the server on a machine of its own") +
                     "; server CPU from its agent's samples of the target's process.");
        // The method (the rule and its α spending, the cores, the noise floor, the family bound) stays in the reports, one click away.
        lines = WithoutMethod(lines, out var folded);
        tail.Add((folded ? "How this was judged (the rule, the cores, the noise floor, the family of judgments) and the full figures: " : "Full figures: ") +
                 "report.md and report.html in this directory.");

        var body = Lines(VerdictRenderer.ToMarkdown(lines));
        if (head.Count + body.Count + tail.Count > MaxLines)
        {
            var withoutSizes = lines.Where(l => l.Kind != VerdictLineKind.Size).ToList();
            body = Lines(VerdictRenderer.ToMarkdown(withoutSizes));
            body.Add("");
            body.Add("(per-size lines left out to stay short: see report.md)");
        }
        var room = MaxLines - head.Count - tail.Count;
        if (body.Count > room)
        {
            var left = body.Count - (room - 1);
            body = body.Take(room - 1).Append($"({left.ToString(CultureInfo.InvariantCulture)} more lines in report.md)").ToList();
        }
        var md = new StringBuilder();
        foreach (var line in head.Concat(body).Concat(tail)) md.Append(line).Append('\n');
        return md.ToString();
    }

    /// <summary>The verdict without each pair's method notes (those between its heading and its table).</summary>
    private static IReadOnlyList<VerdictLine> WithoutMethod(IReadOnlyList<VerdictLine> lines, out bool folded)
    {
        var kept = new List<VerdictLine>();
        var beforeTable = false;
        foreach (var line in lines)
        {
            if (line.Kind == VerdictLineKind.Pair) beforeTable = true;
            else if (line.Kind == VerdictLineKind.Table) beforeTable = false;
            if (!(beforeTable && line.Kind == VerdictLineKind.Note)) kept.Add(line);
        }
        folded = kept.Count < lines.Count;
        return kept;
    }

    private static List<string> Lines(string text) => text.TrimEnd('\n', '\r').Split('\n').Select(l => l.TrimEnd('\r')).ToList();
}
