using Comparator.Results;

namespace Comparator.Reports.Text;

/// <summary>
/// What two launches cannot say. An interval over two launches rests on one degree of freedom (Student's t at 99% is 63.7): it is
/// wide whatever the spread, and the spread behind it is one difference, no estimate. So where a verdict has fewer launches than
/// <see cref="LeastBounding"/>, the reports say so in words instead of printing a 0.00x–566x interval, and advise no launch count from it.
/// </summary>
public static class FewLaunches
{
    /// <summary>The fewest launches whose interval the reports print and whose spread a launch estimate is drawn from.</summary>
    public const int LeastBounding = 3;

    /// <summary>Whether a verdict's interval says something: it has no launch count (an older file) or at least <see cref="LeastBounding"/>.</summary>
    public static bool Bounds(CellVerdict v) => v.Launches is not int n || n >= LeastBounding;

    /// <summary>"two launches cannot bound requests a second here; a third would give the first interval (`--launches 3`)".</summary>
    public static string Words(CellVerdict v)
    {
        var n = v.Launches ?? 0;
        var noun = v.Figure?.Judging?.Noun ?? v.Metric;
        return $"{Count(n)} launch{(n == 1 ? "" : "es")} cannot bound {noun} here; {(n + 1 == LeastBounding ? "a third" : $"{LeastBounding}")} would (`--launches {LeastBounding}`)";
    }

    private static string Count(int n) => n switch { 1 => "one", 2 => "two", _ => n.ToString(CultureInfo.InvariantCulture) };
}
