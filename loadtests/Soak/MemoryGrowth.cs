using System;
using System.Globalization;

namespace Comparator.Soak;

/// <summary>
/// The soak's memory verdict. A garbage-collected server grows its heap and buffer pools until the
/// load has touched every code path once, so the baseline is the RSS after the first full pass over
/// the cells, not at start. Growth from there to the end is flagged when it is both large in
/// absolute terms and large relative to the baseline: either alone is noise on a small or a big heap.
/// </summary>
public static class MemoryGrowth
{
    public const string None = "none";
    public const string Flagged = "flagged";
    public const string Undetermined = "undetermined";

    public const double MinimumGrowthMb = 16;
    public const double MinimumGrowthFraction = 0.20;

    public static string Rule => string.Create(CultureInfo.InvariantCulture,
        $"flagged when RSS at the end exceeds RSS after the first pass over all cells by more than {MinimumGrowthMb:0} MiB and more than {MinimumGrowthFraction * 100:0}%; needs at least two passes");

    /// <summary>A target soaked cleanly: it ran, stayed up, every request was a verified success, and memory did not grow.</summary>
    public static bool IsClean(Results.SoakTargetResult t) => t.NotRunReason is null && !t.ExitedDuringSoak && t.Failed == 0 && t.Growth != Flagged;

    public static (string Verdict, string Detail) Judge(double? afterFirstPassMb, double? endMb, int passes)
    {
        if (passes < 2 || afterFirstPassMb is not double baseline || endMb is not double end)
            return (Undetermined, $"only {passes} complete pass(es) over the cells; run longer to judge memory growth");
        var growth = end - baseline;
        var fraction = baseline > 0 ? growth / baseline : 0;
        var detail = string.Create(CultureInfo.InvariantCulture, $"{growth:+0.0;-0.0;0.0} MiB ({fraction:+0.0%;-0.0%;0.0%}) from {baseline:0.0} MiB after the first pass to {end:0.0} MiB");
        return growth > MinimumGrowthMb && fraction > MinimumGrowthFraction ? (Flagged, detail) : (None, detail);
    }
}
