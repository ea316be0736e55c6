using Comparator.Results;
using Comparator.Statistics;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;
using Comparator.Reports.Text;

namespace Comparator.Reports.Sections;

/// <summary>
/// The sections of a run's report, in the one order every exporter writes them: the run's settings,
/// the operations of a scenario, the targets, the charts, the crossovers across cores, then for each
/// allotment of cores its own tables (side by side, where the difference comes from, crossovers,
/// payload throughput, what bounded each cell), the drivers, every cell, and the flags.
/// </summary>
public static class ReportSections
{
    public static IReadOnlyList<ReportSection> Build(RunResult run)
    {
        var sections = new List<ReportSection?>
        {
            new("Run") { Lines = SpecText.Facts(run) },
            ScenarioOperations.Build(run) is TextTable operations ? new("Operations", ScenarioOperations.Explanation(run.Spec.Scenario!), operations) : null,
            new("Targets by runtime and server", Table: Attribution.Groups(run)),
            new("Charts") { HoldsCharts = true },
            TableSection("Crossovers across cores: who leads as the servers' cores change", CoreCrossovers.Explanation, CoreCrossovers.Table(run),
                "crossovers across cores (who leads under each allotment of the servers' cores):"),
        };
        var targets = run.Cells.Select(c => c.Key.Target).Distinct().Count();
        // Each allotment of cores is its own comparison: its tables carry its cores in their titles.
        foreach (var part in run.ByCores())
        {
            var cores = CoreParts.Short(part.Spec);
            var sideBySide = SideBySide.Build(part);
            sections.Add(new(CoreParts.Titled("Side by side", part), Table: sideBySide)
            {
                Terminal = new(run.HasSeveralCores() ? $"the servers {CoreParts.Phrase(part.Spec)}:" : "", targets > 2 ? SideBySide.BuildLong(part) : sideBySide),
            });
            sections.Add(TableSection(CoreParts.Titled("Where the difference comes from", part), Attribution.Explanation, Attribution.Build(part),
                $"where the difference comes from, {cores} (server CPU µs per request; steps are differences):"));
            sections.Add(TableSection(CoreParts.Titled("Crossovers: who leads as the payload grows", part), Crossovers.Explanation, Crossovers.Table(part),
                $"crossovers, {cores} (where the lead, as the interval rule judged it, changes hands as the payload grows):"));
            sections.Add(TableSection(CoreParts.Titled("Payload throughput and wire overhead per size", part), PayloadThroughput.ExplanationFor(part), PayloadThroughput.Build(part)));
            sections.Add(CellBounds.Build(part) is TextTable bounds
                ? new(CoreParts.Titled("What bounded each cell", part), CellBounds.Explanation, bounds)
                {
                    Lines = CellBounds.CounterSources(part).Concat(CellBounds.ThreadSources(part)).ToList(),
                }
                : null);
        }
        var models = Comparing.SizeModelFit.Of(run);
        if (SizeModelText.Models(models) is TextTable modelTable)
            sections.Add(new("Cost per request and per KB: each stack's line over the sizes", SizeModelText.Explanation, modelTable));
        if (SizeModelText.Comparisons(models) is TextTable pairs)
            sections.Add(new("Cost per request and per KB: the pairs' parts judged", Table: pairs));
        if (run.Spec.Drivers.Count > 1)
        {
            var drivers = DriversView.Build(run);
            sections.Add(new("Drivers side by side", Table: drivers) { Terminal = new("", drivers) });
        }
        sections.Add(new("Every cell (median repeat)", Table: EveryCell(run)));
        if (run.Profile is ProfileResult profile) sections.AddRange(ProfileReport.Sections(profile));
        sections.Add(Flags(run));
        return sections.OfType<ReportSection>().ToList();
    }

    /// <summary>A section with a table, or none where there is no table; on the terminal under <paramref name="caption"/> where one is given.</summary>
    private static ReportSection? TableSection(string title, string explanation, TextTable? table, string? caption = null) =>
        table is null ? null : new(title, explanation, table) { Terminal = caption is null ? null : new(caption, table) };

    /// <summary>
    /// Every cell's median repeat: the columns of results.csv but the runtime, keep-alive and those "What bounded each cell"
    /// shows; a column of the CPU's counters that no cell has (a machine without a PMU) is left out, the run's line says why.
    /// </summary>
    private static TextTable EveryCell(RunResult run)
    {
        var counted = Metrics.OptionalFigures.Select(m => m.Column).OfType<string>().ToHashSet();
        var columns = CellColumns.All.Where(c => c.Name is not ("runtime" or "keep_alive") && !CellBounds.Shows(c.Name))
            .Where(c => !counted.Contains(c.Name) || run.Cells.Any(cell => cell.Summary is not null && c.Value(cell) is not null)).ToList();
        return new TextTable(columns.Select(c => c.Name).ToList(),
            run.Cells.Select(cell => (IReadOnlyList<string>)columns.Select(c => CellColumns.FormatFor(cell, c)).ToList()).ToList());
    }

    /// <summary>What each flag means, and what to do about those this run has.</summary>
    private static ReportSection Flags(RunResult run)
    {
        var meanings = CellFlags.Meanings(run.Spec.PrecisionPercent);
        var present = run.Cells.SelectMany(c => c.Flags).ToHashSet();
        return new("How to read the flags")
        {
            Hints = meanings.Where(m => present.Contains(m.Name)).Select(m => m.Hint).OfType<string>().ToList(),
            Lines = meanings.Select(m => $"{m.Name}: {m.Meaning}.").ToList(),
        };
    }
}
