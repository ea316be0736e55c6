namespace Comparator.Soak;

/// <summary>
/// The soak's memory verdict, from RSS taken at the end of every pass over the cells, so every
/// sample is at the same point of the cycle. RSS anywhere else swings with the cell being run
/// (a 64 KiB echo at 256 connections holds far more than a time request) and with when the last
/// full GC happened. The baseline is the end of the first pass: a garbage-collected server
/// grows its heap and buffer pools until every code path has run once. Against it stands the
/// median of the pass ends of the later half of the soak: one late GC does not move a median,
/// a leak does. Growth is flagged when it is large both in MiB and relative to the baseline:
/// either alone is noise on a small or a big heap.
/// </summary>
public static class MemoryGrowth
{
    public const string None = "none";
    public const string Flagged = "flagged";
    public const string Undetermined = "undetermined";

    /// <summary>Pass ends the verdict needs: the first (the baseline) and one later. The soak runs this many at least (SoakRunner).</summary>
    public const int MinimumPasses = 2;

    public const double MinimumGrowthMb = 16;
    public const double MinimumGrowthFraction = 0.20;

    public static string Rule => string.Create(CultureInfo.InvariantCulture,
        $"flagged when the median RSS at the ends of the later half of the passes exceeds the RSS at the end of the first pass by more than {MinimumGrowthMb:0} MiB and more than {MinimumGrowthFraction * 100:0}%; needs at least {MinimumPasses} passes");

    /// <summary>A target soaked cleanly: it ran, stayed up, every request was a verified success, and memory did not grow.</summary>
    public static bool IsClean(Results.SoakTargetResult t) => t.NotRunReason is null && !t.ExitedDuringSoak && t.Failed == 0 && t.Growth != Flagged;

    /// <summary>The median of the pass ends after the first, from the middle of the soak on; null under two passes.</summary>
    public static double? LateMedian(IReadOnlyList<double> passEndsMb)
    {
        if (passEndsMb.Count < MinimumPasses) return null;
        var late = passEndsMb.Skip(Math.Max(1, passEndsMb.Count / 2)).OrderBy(v => v).ToArray();
        return late.Length % 2 == 1 ? late[late.Length / 2] : (late[late.Length / 2 - 1] + late[late.Length / 2]) / 2;
    }

    public static (string Verdict, string Detail) Judge(IReadOnlyList<double> passEndsMb)
    {
        if (LateMedian(passEndsMb) is not double late)
            return (Undetermined, $"only {passEndsMb.Count} complete pass(es) over the cells; run longer to judge memory growth");
        var baseline = passEndsMb[0];
        var growth = late - baseline;
        var fraction = baseline > 0 ? growth / baseline : 0;
        var detail = string.Create(CultureInfo.InvariantCulture,
            $"{growth:+0.0;-0.0;0.0} MiB ({fraction:+0.0%;-0.0%;0.0%}) from {baseline:0.0} MiB at the end of pass 1 to a median of {late:0.0} MiB over the later passes");
        return growth > MinimumGrowthMb && fraction > MinimumGrowthFraction ? (Flagged, detail) : (None, detail);
    }
}
