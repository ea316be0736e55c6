using Comparator.Results;

namespace Comparator.Comparing;

/// <summary>
/// A cell as two runs are matched on: what was asked of it, not what a run derived. Its key without the rate, and the rate as
/// asked: a share of capacity ("50%") is a different number of requests a second in every run (each run finds its own capacity),
/// so cells at a share match by the share; an absolute rate matches by its number ("4000/s"). A cell measured sharing the cores
/// matches one saved before allotments were recorded. `diff`, `run --compare-to`, a history and the JUnit files of either match
/// cells by this and nothing else.
/// </summary>
/// <param name="Key">the cell's key with no rate (and no cores where it shared them)</param>
/// <param name="Rate">a fixed-rate cell's rate as asked ("50%", "4000/s"); null for the closed loop</param>
public sealed record CellMatch(CellKey Key, string? Rate)
{
    public static CellMatch Of(RunResult run, CellResult cell)
    {
        var key = cell.Key.Cores == CoresSpec.SharedLabel ? cell.Key with { Cores = null } : cell.Key;
        return new CellMatch(key with { Rate = null }, RateAsAsked(run, cell));
    }

    /// <summary>The same cell of any target: two targets of one run are matched on this.</summary>
    public CellMatch AnyTarget => this with { Key = Key with { Target = CellKey.AnyTarget } };

    /// <summary>How a matched cell is named in a diff's table, a history's and their JUnit cases: "echo-post 4KB c=16 socket @50%".</summary>
    public string Label(CellResult cell) => $"{cell.Key.Endpoint} {cell.SizeLabel} c={cell.Key.Concurrency} {cell.Key.Driver}" +
                                            (Rate is string rate ? " @" + rate : "") +
                                            (cell.Key.Cores is string cores && cores != CoresSpec.SharedLabel ? $" cores={cores}" : "");

    /// <summary>
    /// A fixed-rate cell's rate as the run was asked for it. Where every asked rate is a share of capacity, the cell's is the share whose
    /// place it holds among the asked ones, by size (a run asked "25%,50%" measured the smaller derived rate at 25%); otherwise its number.
    /// </summary>
    private static string? RateAsAsked(RunResult run, CellResult cell)
    {
        if (cell.Key.Rate is not double rate) return null;
        var asked = run.Spec.Rates ?? Array.Empty<string>();
        var same = run.Cells.Where(c => c.Key.Rate is not null && c.Key with { Rate = null } == cell.Key with { Rate = null })
            .Select(c => c.Key.Rate!.Value).Distinct().Order().ToList();
        var ordered = asked.Select(a => (Text: a, Size: LeadingNumber(a))).Where(a => a.Size is not null).OrderBy(a => a.Size).Select(a => a.Text).ToList();
        var relative = ordered.Count == same.Count && ordered.Count > 0 && ordered.All(a => a.Contains('%'));
        return relative ? ordered[same.IndexOf(rate)].Split(' ')[0] : rate.ToString("0.#", CultureInfo.InvariantCulture) + "/s";
    }

    private static double? LeadingNumber(string text)
    {
        var digits = new string(text.TakeWhile(c => char.IsDigit(c) || c == '.').ToArray());
        return double.TryParse(digits, NumberStyles.Float, CultureInfo.InvariantCulture, out var v) ? v : null;
    }
}
