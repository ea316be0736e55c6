using Comparator.Comparing;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Reports.Text;

/// <summary>
/// The first thing a reviewer reads: per pair one or two sentences (about fifty words) saying what is settled, in the figure's own words,
/// with the range of its ratios, and what is not. Read from the pair's table (<see cref="JudgedTable"/>), so the headline and the table
/// below it can never disagree. The figure settled at the most cells comes first; requests a second, the figure the run leads with,
/// comes second wherever it is not first.
/// </summary>
public static class Headline
{
    public static IReadOnlyList<string> Of(RunResult run) => Of(run, JudgedTable.Of(run));

    public static IReadOnlyList<string> Of(RunResult run, IReadOnlyList<JudgedTable> tables)
    {
        // No table (one target, one launch, nothing judged): the answer's own first sentence says why.
        var said = tables.Count == 0 ? Answer.Paragraphs(run)[0].Take(1) : tables.Select(Pair);
        return said.Concat(Answer.NotMeasured(run)).Distinct().ToList();
    }

    private sealed record Column(MetricDescriptor Figure, IReadOnlyList<(string Cell, JudgedEntry Entry)> Entries)
    {
        public int Leads => Entries.Count(x => x.Entry.Outcome == EntryOutcome.Lead);
        public int Settled => Entries.Count(x => x.Entry.Outcome is EntryOutcome.Lead or EntryOutcome.Same);
    }

    private static string Pair(JudgedTable table)
    {
        var columns = table.Figures.Select((f, i) => new Column(f, table.Rows.Where(r => r.Entries[i] is not null).Select(r => (r.Cell, r.Entries[i]!)).ToList())).ToList();
        // First the figure with the most leads (then the most settled cells), ties to the judged order; then the run's headline figure.
        var first = columns.OrderByDescending(c => c.Leads).ThenByDescending(c => c.Settled).First();
        var chosen = new List<Column> { first };
        if (columns.FirstOrDefault(c => c.Figure == Metrics.Headline && c != first) is { } head) chosen.Add(head);
        else if (columns.Where(c => c != first && c.Leads > 0).OrderByDescending(c => c.Leads).FirstOrDefault() is { } next) chosen.Add(next);
        if (first.Settled == 0)
            return $"Nothing is settled between {table.Other} and {table.Baseline}: {string.Join(" and ", chosen.Select(c => c.Figure.Judging!.Noun))} " +
                   $"{(chosen.Count > 1 ? "are" : "is")} not settled at any of {Cells(first.Entries.Count)}.";
        return string.Join(" ", chosen.Select(c => Sentence(table, c)));
    }

    private static string Sentence(JudgedTable table, Column column)
    {
        var (figure, entries) = (column.Figure, column.Entries);
        var all = entries.Count;
        var parts = new List<string>();
        foreach (var byLeader in entries.Where(x => x.Entry.Outcome == EntryOutcome.Lead).GroupBy(x => x.Entry.Leader!).OrderByDescending(g => g.Count()))
        {
            var trailer = byLeader.Key == table.Other ? table.Baseline : table.Other;
            var ratios = byLeader.Select(x => x.Entry.Advantage!.Value).ToList();
            var range = ratios.Min() == ratios.Max() ? Format.Ratio(ratios[0]) : $"{Format.Ratio(ratios.Min())}–{Format.Ratio(ratios.Max())}";
            var where = byLeader.Count() == all ? (all == 1 ? $"at {byLeader.First().Cell}" : all == 2 ? "at both cells" : $"at all {all} cells")
                : byLeader.Count() <= 2 ? $"at {string.Join(" and ", byLeader.Select(x => x.Cell))}" : $"at {byLeader.Count()} of {Cells(all)}";
            parts.Add($"{byLeader.Key} {figure.Judging!.Leads} {trailer} {where} ({range})");
        }
        var same = entries.Count(x => x.Entry.Outcome == EntryOutcome.Same);
        var open = entries.Count(x => x.Entry.Outcome is EntryOutcome.Open or EntryOutcome.None);
        var rest = new List<string>();
        if (same > 0) rest.Add($"the same within {Format.Percent(table.Margin)} at {Cells(same)}");
        if (open > 0) rest.Add(open == all ? $"not settled at any of the {Cells(open)}" : $"not settled at {Cells(open)}");
        if (parts.Count == 0) return $"{Capital(figure.Judging!.Noun)}: {string.Join(", ", rest)}.";
        return string.Join("; ", parts) + (rest.Count > 0 ? $"; {figure.Judging!.Short} {string.Join(", ", rest)}" : "") + ".";
    }

    private static string Cells(int n) => n == 1 ? "1 cell" : $"{n} cells";

    private static string Capital(string text) => text.Length == 0 ? text : char.ToUpperInvariant(text[0]) + text[1..];
}
