using Comparator.Results;
using Comparator.Reports.Plots;
using Comparator.Reports.Sections;
using Comparator.Reports.Text;

namespace Comparator.Reports;

/// <summary>
/// A run as every exporter reads it, as BenchmarkDotNet's exporters read one Summary: the result,
/// its verdict lines and its sections, each built once; the charts drawn once, when an exporter
/// first asks for them.
/// </summary>
public sealed class RunReport
{
    private readonly Lazy<IReadOnlyList<VerdictLine>> verdict;
    private readonly Lazy<IReadOnlyList<IReadOnlyList<string>>> answer;
    private readonly Lazy<IReadOnlyList<ReportSection>> sections;
    private readonly Lazy<IReadOnlyList<JudgedTable>> tables;
    private readonly Lazy<IReadOnlyList<string>> headline;
    private readonly Lazy<IReadOnlyList<Chart>> charts;

    /// <param name="charts">The charts where they are drawn already (or none are wanted); null draws them on first use.</param>
    public RunReport(RunResult run, IReadOnlyList<Chart>? charts = null)
    {
        // The size models fitted once, here, from the cells (a file's own, from an older fit, are not read), so the answer, the sections,
        // the charts and results.json read the same ones.
        run = run with { SizeModels = Comparing.SizeModelFit.Build(run) };
        Run = run;
        verdict = new(() => Text.Verdict.Build(run));
        answer = new(() => Text.Answer.Paragraphs(run));
        sections = new(() => ReportSections.Build(run));
        tables = new(() => JudgedTable.Of(run));
        headline = new(() => Text.Headline.Of(run, tables.Value));
        this.charts = charts is null ? new(() => Plots.Charts.Build(run)) : new(charts);
    }

    public RunResult Run { get; }

    /// <summary>The verdict's lines: first in report.md, report.html and summary.md, last on the terminal.</summary>
    public IReadOnlyList<VerdictLine> Verdict => verdict.Value;

    /// <summary>The answer in a reviewer's words (<see cref="Reports.Answer"/>), as paragraphs (one per pair, then what was not measured and the
    /// machine): first in every report, the last lines on the terminal.</summary>
    public IReadOnlyList<IReadOnlyList<string>> AnswerParagraphs => answer.Value;

    /// <summary>The first screen's words: a sentence or two per pair (<see cref="Text.Headline"/>), above the table of every judged figure.</summary>
    public IReadOnlyList<string> Headline => headline.Value;

    /// <summary>The first screen's tables, one per pair: cells by judged figures (<see cref="JudgedTable"/>).</summary>
    public IReadOnlyList<JudgedTable> Tables => tables.Value;

    /// <summary>The sections of the report, in the order every exporter writes them.</summary>
    public IReadOnlyList<ReportSection> Sections => sections.Value;

    public IReadOnlyList<Chart> Charts => charts.Value;
}
