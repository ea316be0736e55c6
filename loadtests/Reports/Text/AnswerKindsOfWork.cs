using Comparator.Comparing;
using Comparator.Results;

namespace Comparator.Reports.Text;

public static partial class Answer
{
    /// <summary>The costs whose gap the kernel's calls can be part of: they count the kernel's work (CPU time, instructions and cycles in both modes).</summary>
    private static readonly MetricDescriptor[] CostsWithKernel = { Metrics.ServerCpuUsPerRequest, Metrics.InstructionsPerRequest, Metrics.CyclesPerRequest };

    /// <summary>The costs whose gap the collector's work can be part of: every cost, the user-mode simulated count too (the collector runs in user mode).</summary>
    private static readonly MetricDescriptor[] CostsWithCollector = CostsWithKernel.Append(Metrics.SimulatedInstructionsPerRequest).ToArray();

    /// <summary>
    /// Where a cost settled (one stack takes more CPU time, instructions or cycles a request), what kind of work its extra is, as far as the counts
    /// of work can say without timing them: where the costlier side makes no more system calls (it makes fewer, or as many, settled), its extra
    /// is not in the kernel's calls; where it allocates no more bytes, not in the collector's work; where it makes or allocates more (settled), that
    /// work is part of the extra, by how much of it these counts cannot say (a call's or a byte's cost is time, and the profile's to share out).
    /// </summary>
    private static IEnumerable<string> KindsOfWork(RunResult run, string other, string baseline)
    {
        var verdicts = run.ClosedLoopOthers().Concat(run.AtFixedRate()).Where(v => v.Baseline == baseline && v.Other == other).ToList();
        foreach (var (kind, costs, noMore, more) in new[]
                 {
                     (Metrics.SystemCallsPerRequest, CostsWithKernel, ("makes no more system calls a request", "its extra work is not in the kernel's calls"),
                         ("makes more system calls a request", "the kernel's calls are part of its extra work")),
                     (Metrics.AllocatedBytesPerRequest, CostsWithCollector, ("allocates no more bytes a request", "its extra work is not in the collector's"),
                         ("allocates more bytes a request", "the collector's work is part of its extra work")),
                 })
        {
            var found = new List<(string Costlier, string Cheaper, bool NoMore, CellVerdict Cost, CellVerdict Count)>();
            foreach (var cost in verdicts.Where(v => v.Leader is not null && costs.Any(c => c.VerdictId == v.Metric)))
            {
                var costlier = cost.Leader == other ? baseline : other;
                if (verdicts.FirstOrDefault(v => v.Metric == kind.VerdictId && v.Key == cost.Key) is not { } count || !count.Settled) continue;
                // Equivalent, or the costlier side leads in the count (makes fewer): no more. The cheaper side leading: more.
                var noMoreHere = count.Leader is null || count.Leader == costlier;
                if (found.Any(f => f.Count.Key == count.Key)) continue; // one cost is enough to place a cell
                found.Add((costlier, cost.Leader!, noMoreHere, cost, count));
            }
            foreach (var group in found.GroupBy(f => (f.Costlier, f.Cheaper, f.NoMore)))
            {
                var (costlier, cheaper, none) = group.Key;
                var cells = group.Select(f => $"{Where(run, new[] { f.Count })} ({Counts(run, f.Count, costlier, cheaper).TrimEnd(',', ' ')}{(f.Count.Leader is null ? ", the same within the margin" : "")})").ToList();
                var (does, so) = none ? noMore : more;
                yield return $"Where {costlier} costs more than {cheaper} in {Costs(group.Select(f => f.Cost))}, it {does} at {Join(cells)}: {so}" +
                             (none ? "." : ", how large a part these counts do not say (what a call or a byte costs is time; the profile shares it out).");
            }
        }
    }

    private static string Costs(IEnumerable<CellVerdict> costs) => Join(costs.Select(c => c.Figure!.Judging!.Noun).Distinct().ToList());
}
