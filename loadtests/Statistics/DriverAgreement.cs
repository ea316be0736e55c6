using Comparator.Results;

namespace Comparator.Statistics;

/// <summary>
/// Cross-checks drivers on the same cell (target x endpoint x size x concurrency): requests/s more
/// than 15% apart, or response bytes per request apart by more than headers can explain, flags
/// every driver's row of that cell "drivers-disagree".
/// </summary>
public static class DriverAgreement
{
    public const double RpsTolerance = 0.15;

    /// <summary>
    /// Header differences between clients are a few dozen bytes a response (ab's HTTP/1.0 gets a
    /// "Connection: keep-alive" line back, for example); more than this per request is not headers.
    /// </summary>
    public const double HeaderBytesTolerance = 64;

    public static IReadOnlyList<CellResult> Flag(IReadOnlyList<CellResult> cells)
    {
        var disagreeing = new HashSet<CellResult>();
        foreach (var group in cells.Where(c => c.Summary is not null)
                     .GroupBy(c => (c.Key.Target, c.Key.Endpoint, c.Key.SizeBytes, c.Key.Concurrency, c.Key.Rate, c.Key.Cores)))
        {
            var measured = group.ToList();
            if (measured.Count < 2) continue;
            var rps = measured.Select(c => c.Summary!.RequestsPerSecond).ToList();
            var bytes = measured.Where(c => c.Summary!.Requests > 0).Select(c => (double)c.Summary!.BytesReceived / c.Summary.Requests).ToList();
            var rpsApart = rps.Min() <= 0 || rps.Max() / rps.Min() - 1 > RpsTolerance;
            var bytesApart = bytes.Count > 1 && bytes.Max() - bytes.Min() > HeaderBytesTolerance;
            if (rpsApart || bytesApart) disagreeing.UnionWith(measured);
        }
        return cells.Select(c => disagreeing.Contains(c) ? c with { Flags = c.Flags.Append(CellFlags.DriversDisagree).ToList() } : c).ToList();
    }
}
