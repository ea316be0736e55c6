
namespace Comparator.Reports.Sections;

/// <summary>
/// One section of a run's report, built once from the result (<see cref="ReportSections"/>) and
/// written by each exporter in its own form: a title, what it shows, then a table, lines, or both.
/// </summary>
/// <param name="Explanation">What the section shows and how to read it, or null.</param>
public sealed record ReportSection(string Title, string? Explanation = null, TextTable? Table = null)
{
    /// <summary>Lines after the table, each one item: "machine: ...", "kestrel: context switches ...".</summary>
    public IReadOnlyList<string> Lines { get; init; } = Array.Empty<string>();

    /// <summary>What to do about what this run shows here, ahead of the rest; the terminal prints them too, as hints.</summary>
    public IReadOnlyList<string> Hints { get; init; } = Array.Empty<string>();

    /// <summary>Where the run's charts stand: report.html draws them here, the text outputs leave the section out.</summary>
    public bool HoldsCharts { get; init; }

    /// <summary>How the terminal shows the section, or null where it leaves it out.</summary>
    public TerminalView? Terminal { get; init; }
}

/// <summary>A section on the terminal: a caption over its table ("" for none), the table in a form that fits a screen.</summary>
public sealed record TerminalView(string Caption, TextTable Table);
