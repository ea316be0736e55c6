using Comparator.Comparing;
using Comparator.Results;

namespace Comparator.Reports.Text;

public static partial class Answer
{
    /// <summary>What a kind of work is called where the answer places a cost's gap in it or out of it.</summary>
    private static (string Name, string Is) Called(WorkKinds kind) => kind switch
    {
        WorkKinds.Kernel => ("the kernel's calls", "are"),
        WorkKinds.Collector => ("the collector's work", "is"),
        _ => (kind.ToString().ToLowerInvariant() + " work", "is"),
    };

    /// <summary>
    /// Where a cost settled (one stack takes more CPU time, instructions or cycles a request), what kind of work its extra is, as far as the counts
    /// of work can say without timing them: where the costlier side makes no more system calls (it makes fewer, or as many, settled), its extra
    /// is not in the kernel's calls; where it allocates no more bytes, not in the collector's work; where it makes or allocates more (settled), that
    /// work is part of the extra, by how much of it these counts cannot say (a call's or a byte's cost is time, and the profile's to share out).
    /// Which count stands for which kind, and which costs hold it, are the descriptors' (<see cref="Judging.StandsFor"/>, <see cref="Judging.Includes"/>).
    /// </summary>
    private static IEnumerable<string> KindsOfWork(RunResult run, string other, string baseline)
    {
        var verdicts = run.ClosedLoopOthers().Concat(run.AtFixedRate()).Where(v => v.Baseline == baseline && v.Other == other).ToList();
        foreach (var kind in Metrics.Judged.Where(m => m.Judging!.StandsFor != WorkKinds.None))
        {
            var stands = kind.Judging!.StandsFor;
            // "makes fewer system calls per request than" → "makes no more system calls per request", "makes more system calls per request".
            var does = kind.Judging.Leads.EndsWith(" than", StringComparison.Ordinal) ? kind.Judging.Leads[..^" than".Length] : kind.Judging.Leads;
            var (noMore, more) = (does.Replace("fewer", "no more", StringComparison.Ordinal), does.Replace("fewer", "more", StringComparison.Ordinal));
            var found = new List<(string Costlier, string Cheaper, bool NoMore, CellVerdict Cost, CellVerdict Count)>();
            foreach (var cost in verdicts.Where(v => v.Leader is not null && v.Figure?.Judging is { } j && j.Includes.HasFlag(stands)))
            {
                var costlier = cost.Leader == other ? baseline : other;
                if (verdicts.FirstOrDefault(v => v.Figure == kind && v.Key == cost.Key) is not { } count || !count.Settled) continue;
                // Equivalent, or the costlier side leads in the count (makes fewer): no more. The cheaper side leading: more.
                var noMoreHere = count.Leader is null || count.Leader == costlier;
                if (found.Any(f => f.Count.Key == count.Key)) continue; // one cost is enough to place a cell
                found.Add((costlier, cost.Leader!, noMoreHere, cost, count));
            }
            foreach (var group in found.GroupBy(f => (f.Costlier, f.Cheaper, f.NoMore)))
            {
                var (costlier, cheaper, none) = group.Key;
                var cells = group.Select(f => $"{Where(run, new[] { f.Count })} ({Counts(run, f.Count, costlier, cheaper).TrimEnd(',', ' ')}{(f.Count.Leader is null ? ", the same within the margin" : "")})").ToList();
                yield return $"Where {costlier} costs more than {cheaper} in {Costs(group.Select(f => f.Cost))}, it {(none ? noMore : more)} at {Join(cells)}: " +
                             (none ? $"its extra work is not in {Called(stands).Name}." : $"{Called(stands).Name} {Called(stands).Is} part of its extra work, how large a part these counts do not say " +
                                                                                   "(what a call or a byte costs is time; the profile shares it out).");
            }
        }
    }

    private static string Costs(IEnumerable<CellVerdict> costs) => Join(costs.Select(c => c.Figure!.Judging!.Noun).Distinct().ToList());
}
