using Comparator.Comparing;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Reports.Text;

/// <summary>
/// The answer a reviewer pastes into a decision record, first in every report and last on the terminal: per pair of targets two to
/// four plain sentences. Which stack leads in the headline figure (serves more requests a second), by how much and for which cells,
/// how sure (the interval as judged); which cells are the same within the margin; which are not settled and how many launches would
/// settle them; every other judged figure where a lead settled; and on what machine. Every sentence comes from the run's stored
/// verdicts through one template per outcome, worded by the figure's descriptor (<see cref="Judging"/>), and every number is the
/// verdict's own, never judged again here.
/// </summary>
public static partial class Answer
{
    public static IReadOnlyList<string> Sentences(RunResult run) => Paragraphs(run).SelectMany(p => p).ToList();

    /// <summary>The same sentences as paragraphs: one per pair of targets, then one for what was not measured and the machine (the terminal prints a line each).</summary>
    public static IReadOnlyList<IReadOnlyList<string>> Paragraphs(RunResult run)
    {
        var baseline = run.Spec.BaselineTarget;
        var baseInfo = run.Targets.FirstOrDefault(t => t.Name == baseline);
        if (baseInfo is { Measured: false })
            return new[] { new[] { $"No answer: the baseline {baseline} was not measured ({baseInfo.NotMeasuredReason ?? "no reason recorded"})." } };
        // A target that could not run has its own sentence below; its cells' "not measured" verdicts would only say it again.
        var unmeasured = run.Targets.Where(t => !t.Measured).Select(t => t.Name).ToHashSet();
        var verdicts = run.Headline().Where(v => v.Baseline == baseline && !unmeasured.Contains(v.Other)).ToList();
        var rule = PairVerdicts.RuleOf(run.Spec);
        var paragraphs = verdicts.GroupBy(v => v.Other).Select(pair => (IReadOnlyList<string>)Pair(run, pair.Key, baseline, pair.ToList(), rule).ToList()).ToList();
        if (paragraphs.Count == 0) paragraphs.Add(new[] { $"No answer: {baseline} is the only target measured in this run." });
        var facts = NotMeasured(run).ToList();
        if (verdicts.Count > 0) facts.Add(Machine(run, verdicts));
        if (facts.Count > 0) paragraphs.Add(facts);
        return paragraphs;
    }

    /// <summary>Targets that could not run, by the first words of their reason ("not built", "failed verification"): the report gives the whole of it.</summary>
    public static IEnumerable<string> NotMeasured(RunResult run) =>
        run.Targets.Where(t => t.Name != run.Spec.BaselineTarget && !t.Measured).GroupBy(t => Short(t.NotMeasuredReason))
            .Select(why => $"{Join(why.Select(t => t.Name).ToList())} {(why.Count() == 1 ? "was" : "were")} not measured ({why.Key}); the report says why.");

    private static IEnumerable<string> Pair(RunResult run, string other, string baseline, IReadOnlyList<CellVerdict> verdicts, LeadRule rule)
    {
        var said = Metrics.Headline.Judging!;
        var leads = verdicts.Where(v => v.Leader is not null && v.Ratio is not null && v.RatioLow is not null && v.RatioHigh is not null).ToList();
        var equivalent = verdicts.Where(v => v.Leader is null && v.Outcome == CellVerdict.Equivalent).ToList();
        var unsettled = verdicts.Where(v => v.Leader is null && v.Outcome == CellVerdict.Unsettled && v.RatioLow is not null && v.RatioHigh is not null).ToList();
        var unjudged = verdicts.Except(leads).Except(equivalent).Except(unsettled).ToList();
        // Two launches give an interval at one degree of freedom: wide whatever the spread, so said in words, with no launch estimate.
        var unbounded = unsettled.Where(v => !FewLaunches.Bounds(v)).ToList();
        unsettled = unsettled.Except(unbounded).ToList();
        var cannot = unbounded.Count > 0 ? $"At {Where(run, unbounded)}, {FewLaunches.Words(unbounded[0])}." : null;

        if (leads.Count == 0 && equivalent.Count == 0)
        {
            yield return unsettled.Count > 0
                ? $"Nothing is settled between {other} and {baseline}: at {Where(run, unsettled)} the ratio of {said.Noun} {other}/{baseline} could lie " +
                  $"anywhere in {Intervals(unsettled)}, so neither leads by more than {Format.Percent(rule.MinEffect)} and neither is shown the same within {Format.Percent(rule.Equivalence)}. " +
                  Settle(run, unsettled, rule)
                : cannot is not null ? $"Nothing is settled between {other} and {baseline}."
                : $"Nothing is judged between {other} and {baseline}: {Unjudged(run, unjudged)}.";
            if (cannot is not null) yield return cannot;
            foreach (var sentence in Others(run, other, baseline).Concat(KindsOfWork(run, other, baseline)).Concat(SizeModelText.Sentences(run, other, baseline))) yield return sentence;
            yield break;
        }
        foreach (var byLeader in leads.GroupBy(v => v.Leader!))
        {
            var leader = byLeader.Key;
            var trailer = leader == other ? baseline : other;
            var cells = byLeader.Select(v => $"{Where(run, new[] { v })} ({Led(v, leader)})").ToList();
            yield return $"{leader} {said.Leads} {trailer} at {Join(cells)}" +
                         (byLeader.Any(v => v.WithinMargin) ? $", by less than the {Format.Percent(rule.Equivalence)} margin where marked so in the table" : "") + ".";
        }
        if (equivalent.Count > 0)
            yield return $"At {Where(run, equivalent)}, {other} and {baseline} are the same in {said.Noun} within ±{Format.Percent(rule.Equivalence)} " +
                         $"({string.Join("; ", equivalent.Select(v => $"{Format.Ratio(v.Ratio ?? 1)}, 90% interval {Format.Ratio(v.EquivalenceLow ?? v.RatioLow ?? 1)}–{Format.Ratio(v.EquivalenceHigh ?? v.RatioHigh ?? 1)}"))}).";
        if (cannot is not null) yield return cannot;
        if (unsettled.Count > 0)
            yield return $"At {Where(run, unsettled)} nothing is settled: {other}/{baseline} could lie anywhere in {Intervals(unsettled)}. {Settle(run, unsettled, rule)}";
        if (unjudged.Count > 0)
            yield return $"Not judged: {Unjudged(run, unjudged)}.";
        foreach (var sentence in Others(run, other, baseline).Concat(KindsOfWork(run, other, baseline)).Concat(SizeModelText.Sentences(run, other, baseline))) yield return sentence;
    }

    /// <summary>
    /// "by 1.25x, 99% interval 1.10x–1.42x, 6 launches": the leader's advantage as the verdict judged it, stated from the leader's side
    /// (above 1) whichever way the figure is better.
    /// </summary>
    private static string Led(CellVerdict v, string leader)
    {
        var (ratio, low, high) = JudgedTable.Advantage(v, leader);
        return $"by {Format.Ratio(ratio)}, {Format.Percent(v.Confidence)} interval {Format.Ratio(low)}–{Format.Ratio(high)}" +
               (v.Launches is int n ? $", {n.ToString(CultureInfo.InvariantCulture)} launches" : "");
    }

    /// <summary>
    /// Every other judged figure where a lead settled (the counts of work in the closed loop; the costs and the wait at a fixed rate), a
    /// sentence per figure, load and leader in the order the figures are judged: what a request takes and how long a caller waits, beside the speed.
    /// </summary>
    private static IEnumerable<string> Others(RunResult run, string other, string baseline)
    {
        var order = Metrics.Judged.Select(m => m.VerdictId).ToList();
        var settled = run.ClosedLoopOthers().Concat(run.AtFixedRate()).Where(v => v.Baseline == baseline && v.Other == other && v.Leader is not null && v.Ratio is not null
                                                                                && v.RatioLow is not null && v.RatioHigh is not null && v.Figure is not null);
        foreach (var group in settled.GroupBy(v => (v.Metric, FixedRate: v.Rate is not null, Leader: v.Leader!)).OrderBy(g => order.IndexOf(g.Key.Metric)).ThenBy(g => g.Key.FixedRate))
        {
            var leader = group.Key.Leader;
            var trailer = leader == other ? baseline : other;
            var cells = group.Select(v => $"{Where(run, new[] { v })} ({Counts(run, v, leader, trailer)}{Led(v, leader)})").ToList();
            yield return $"{(group.Key.FixedRate ? "Asked at the same fixed rate, " : "")}{leader} {group.First().Figure!.Judging!.Leads} {trailer} at {Join(cells)}." +
                         (group.First().Figure!.Pass == MetricPass.Simulated ? SimulatedRuntimes(run, leader, trailer) : "");
        }
    }

    /// <summary>
    /// " Each side as the simulator ran it: ..." where the two sides' runtimes ran with different settings under the simulator (Mono against
    /// .NET): a count is of the code its runtime made, so the answer names what each side was given; "" where both ran alike.
    /// </summary>
    private static string SimulatedRuntimes(RunResult run, string leader, string trailer) =>
        run.Spec.SimulatedRuntimes is { } runtimes && runtimes.TryGetValue(leader, out var a) && runtimes.TryGetValue(trailer, out var b) && a != b
            ? $" Each side as the simulator ran it: {leader} on {a}; {trailer} on {b}."
            : "";

    /// <summary>
    /// "33 against 41 a request, ": a count of work's own figures on each side's median window, leader first, so that the answer names the
    /// kind of work (system calls, instructions) and not a ratio alone; "" for a figure that is no count, or where a side's window lacks it.
    /// </summary>
    private static string Counts(RunResult run, CellVerdict v, string leader, string trailer)
    {
        if (v.Figure is not { Judging.WhereRead: true } figure) return "";
        double? Of(string target) => run.Cells.FirstOrDefault(c => c.Key == v.Key with { Target = target })?.Summary is { } median ? figure.Of(median) : null;
        return Of(leader) is double a && Of(trailer) is double b ? $"{figure.Show(a)} against {figure.Show(b)} a request, " : "";
    }

    /// <summary>Launches beyond which "more launches" is no advice: a cell that needs more sits too near a boundary of the rule.</summary>
    public const int MostLaunchesAdvised = 50;

    /// <summary>
    /// What would settle the unsettled cells: an interval narrows as the square root of the launches, so the launches that bring its half-width
    /// under the distance between the ratio and the nearest boundary (the minimum effect for a lead, the margin for sameness). A cell that would
    /// need more than <see cref="MostLaunchesAdvised"/> sits too near a boundary for launches alone.
    /// </summary>
    private static string Settle(RunResult run, IReadOnlyList<CellVerdict> unsettled, LeadRule rule)
    {
        var needed = new List<(CellVerdict Verdict, int Launches)>();
        var far = new List<CellVerdict>();
        foreach (var v in unsettled)
        {
            var launches = v.Launches ?? 0;
            if (launches < 2 || v.Ratio is not double ratio) { far.Add(v); continue; }
            var half = Math.Log(v.RatioHigh!.Value / v.RatioLow!.Value) / 2;
            var centre = Math.Abs(Math.Log(ratio));
            var room = Math.Max(centre - Math.Log(1 + rule.MinEffect), Math.Log(1 + rule.Equivalence) - centre);
            var n = room > 0 ? Math.Ceiling(launches * Math.Pow(half / room, 2)) : double.PositiveInfinity;
            if (n <= MostLaunchesAdvised) needed.Add((v, (int)n)); else far.Add(v);
        }
        var parts = new List<string>();
        if (needed.Count > 0)
        {
            var most = needed.Max(x => x.Launches);
            var fewest = needed.Min(x => x.Launches);
            var perLaunch = run.Spec.Sequential is { LaunchesRun: > 0 } s ? s.LoadSeconds / s.LaunchesRun : (double?)null;
            var how = perLaunch is double p ? $"about `--budget {Math.Ceiling(most * p / 60).ToString(CultureInfo.InvariantCulture)}m` at this run's pace" : $"`--launches {most}`";
            parts.Add($"At this run's spread, settling {(far.Count == 0 && needed.Count == unsettled.Count && unsettled.Count > 1 ? "them" : far.Count == 0 ? "it" : Where(run, needed.Select(x => x.Verdict)))} " +
                      $"would take about {(fewest == most ? $"{most}" : $"{fewest} to {most}")} launches ({how}).");
        }
        if (far.Count > 0)
            parts.Add($"{(needed.Count == 0 && unsettled.Count == 1 ? "Its ratio" : Capital(Where(run, far)))} {(far.Count == 1 ? "sits" : "sit")} too near the rule's boundaries for launches alone " +
                      $"(more than {MostLaunchesAdvised} would be needed).");
        parts.Add("A quieter machine, or cores for the servers apart from the load generator, narrows every interval.");
        return string.Join(" ", parts);
    }

    private static string Capital(string text) => text.Length == 0 ? text : char.ToUpperInvariant(text[0]) + text[1..];

    private static string Machine(RunResult run, IReadOnlyList<CellVerdict> verdicts)
    {
        var m = run.Spec.Machine;
        var launches = verdicts.Select(v => v.Launches).OfType<int>().DefaultIfEmpty(run.Spec.Launches ?? 1).Max();
        var cores = run.Spec.SeparateServerCores is int own ? $"the servers on {own} core(s) of their own" : $"{m.LogicalCores} logical cores shared by the servers and the load generator";
        var names = verdicts.SelectMany(v => new[] { v.Baseline, v.Other }).Distinct().ToList();
        var targets = run.Targets.Where(t => names.Contains(t.Name)).ToList();
        // A service given by URL runs as it was started, outside the comparator: its launches measure it again, they do not restart it.
        var external = targets.Where(t => t.External).Select(t => t.Name).ToList();
        var starts = external.Count == 0 ? $"each target started afresh {launches} time(s)"
            : external.Count == targets.Count ? $"each service measured in {launches} launches as it runs (started outside the comparator, not restarted)"
            : $"each target started afresh {launches} time(s), except {Join(external)}, started outside the comparator and measured as it runs";
        return $"Measured on {m.CpuModel}, {cores}, {m.OperatingSystem}; {starts}." + Tls(targets);
    }

    /// <summary>" minimal-tls and kestrel-tls were asked over HTTPS (TLS 1.3, …): their figures carry TLS's cost.": what the transport adds, when any side used TLS.</summary>
    private static string Tls(IReadOnlyList<TargetInfo> targets)
    {
        var secure = targets.Where(t => t.Tls is not null).ToList();
        if (secure.Count == 0) return "";
        var how = Join(secure.Select(t => t.Tls!.Split(", certificate")[0]).Distinct().ToList());
        return secure.Count == targets.Count
            ? $" {Join(secure.Select(t => t.Name).ToList())} were asked over HTTPS ({how}): the figures of each carry TLS's cost."
            : $" Only {Join(secure.Select(t => t.Name).ToList())} {(secure.Count == 1 ? "was" : "were")} asked over HTTPS ({how}): the comparison counts TLS's cost on that side alone.";
    }

    /// <summary>"at time and echo-post 64KB: one launch: ...": the cells without a verdict, by their reason.</summary>
    private static string Unjudged(RunResult run, IReadOnlyList<CellVerdict> verdicts) =>
        string.Join("; ", verdicts.GroupBy(v => v.Reason ?? "no verdict").Select(g => $"at {Where(run, g)}, {g.Key}"));

    private static string Short(string? reason) => reason is null ? "no reason recorded" : reason.Split(':')[0].Trim();

    private static string Intervals(IReadOnlyList<CellVerdict> verdicts)
    {
        var low = verdicts.Min(v => v.RatioLow!.Value);
        var high = verdicts.Max(v => v.RatioHigh!.Value);
        return $"{Format.Ratio(low)}–{Format.Ratio(high)} ({Format.Percent(verdicts[0].Confidence)} interval{(verdicts.Count > 1 ? "s" : "")})";
    }

    /// <summary>"time, echo-post 64KB and json": where the verdicts are, by endpoint and size (and concurrency or rate where the run had several).</summary>
    private static string Where(RunResult run, IEnumerable<CellVerdict> verdicts) => Join(verdicts.Select(v => CellNames.Of(run, v)).Distinct().ToList());

    private static string Join(IReadOnlyList<string> items) =>
        items.Count <= 1 ? string.Concat(items) : string.Join(", ", items.Take(items.Count - 1)) + " and " + items[^1];
}
