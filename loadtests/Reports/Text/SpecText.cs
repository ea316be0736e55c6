using Comparator.Results;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Text;

/// <summary>Sentences about a run's settings that more than one renderer prints.</summary>
public static class SpecText
{
    /// <summary>The run's settings, one line each: when, on what machine, the drivers, cores, sockets, schedule, cells, timing, baseline.</summary>
    public static IReadOnlyList<string> Facts(RunResult run)
    {
        var s = run.Spec;
        var facts = new List<string>
        {
            Invariant($"started {run.StartedAt:u}, finished {run.FinishedAt:u}"),
            $"machine: {s.Machine.CpuModel}, {s.Machine.LogicalCores} logical cores" + (s.Machine.MemoryGiB is double gib ? Invariant($", {gib:0.#} GiB") : "") +
            $", {s.Machine.OperatingSystem}" + (s.Machine.Kernel is string k ? $" (kernel {k})" : "") + $"; comparator on {s.Machine.DotNetRuntime}" +
            (s.Machine.Mono is string mono ? $"; Mono {mono}" : "") + (s.Machine.Fingerprint is string f ? $"; machine fingerprint {f}" : ""),
        };
        if (s.Label is not null || s.Revision is not null || run.Targets.Any(t => t.Revision is not null && t.Revision != s.Revision))
            facts.Add(string.Join("; ", new[]
            {
                s.Label is string label ? $"label: {label}" : null,
                s.Revision is string revision ? $"revision: {revision}" : null,
            }.Concat(run.Targets.Where(t => t.Revision is not null && t.Revision != s.Revision).Select(t => $"{t.Name} at revision {t.Revision}")).OfType<string>()));
        if (Crank(s) is string crank) facts.Add(crank);
        facts.AddRange(s.Drivers.Select(d => $"driver {d.Name}: {d.Description}"));
        facts.Add($"cores: the servers {CoreParts.Phrase(s)}");
        facts.Add($"Server header: {(s.ServerHeader ? "on (--server-header on)" : "off")}");
        facts.Add($"TCP_NODELAY: {TcpNoDelay(s)}");
        facts.AddRange(run.Targets.Where(t => t.Tls is not null).Select(t => $"TLS: {t.Name} over https: {t.Tls}"));
        facts.Add($"schedule: {s.Schedule ?? "one target after another"}");
        facts.Add(ScenarioOperations.CellsText(s));
        if (ScenarioOperations.VaryingText(s) is string varying) facts.Add(varying);
        facts.Add(Invariant($"concurrency {string.Join(", ", s.Concurrency)}; keep-alive {(s.KeepAlive ? "on" : "off")}; {Timing(s)}; median repeat shown"));
        facts.Add($"baseline for ratios: {s.BaselineTarget}; packages: {string.Join(", ", s.Machine.Packages.Select(p => p.Key + " " + p.Value))}");
        return facts;
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    /// <summary>
    /// "first-cell warm-up 5 s, then 1 s per cell (discarded); 3 to 4 repeats of 2 s until the CV of
    /// requests/s is at most 5%". Runs saved before the precision loop had a fixed repeat count.
    /// </summary>
    public static string Timing(RunSpec s)
    {
        var warmup = s.FirstWarmupSeconds is double first && first != s.WarmupSeconds
            ? string.Create(CultureInfo.InvariantCulture, $"warm-up {first:0.###} s before the first cell, {s.WarmupSeconds:0.###} s before each later one (discarded)")
            : string.Create(CultureInfo.InvariantCulture, $"warm-up {s.WarmupSeconds:0.###} s per cell (discarded)");
        var repeats = s.PrecisionPercent is double precision && s.MaxRepeat is int max && max > s.Repeat
            ? string.Create(CultureInfo.InvariantCulture, $"{s.Repeat} to {max} repeats of {s.DurationSeconds:0.###} s, until the CV of every target's requests/s is at most {precision:0.#}%")
            : string.Create(CultureInfo.InvariantCulture, $"{s.Repeat} round(s) of {s.DurationSeconds:0.###} s");
        var launches = s.Launches is int l
            ? string.Create(CultureInfo.InvariantCulture, $"{l} launch(es), each a fresh start of every target measuring every cell, ")
            : "";
        return warmup + "; " + launches + repeats + (s.Launches is null ? "" : " per launch");
    }

    /// <summary>
    /// Where a crank run's parts ran: each job's agent, and whether the server shared the driver's
    /// cores, with the figures that told; null for a local run.
    /// </summary>
    public static string? Crank(RunSpec s) => s.Crank is not CrankSpec c ? null
        : "measured through crank (the comparator as the load job; server CPU and working set from the agents' samples of each target's process, " +
          "a rate over the samples wholly inside each window): " + string.Join("; ", c.Jobs.Select(j =>
              $"job {j.Job}" + (j.Target is string t && t != j.Job ? $" (target {t})" : "") +
              (j.Cores is int n ? $" on {n} logical cores" : "") + (j.OperatingSystem is string os ? $", {os}" : "") +
              (j.Hardware is string hw && hw.Length > 0 && hw != "Unknown" ? $", hardware {hw}" : "") +
              (j.AgentVersion is string v ? $", agent {v.Split('+')[0]}" : ""))) +
          ". Placement: " + c.Placement + $". Controller result: {System.IO.Path.GetFileName(c.ResultFile)}";

    /// <summary>What --tcp-nodelay asked; each target's answer is in the targets table.</summary>
    public static string TcpNoDelay(RunSpec s) => s.TcpNoDelay switch
    {
        true => "on (--tcp-nodelay on): every target sends its answers without Nagle's delay",
        false => "off (--tcp-nodelay off): every host's stock socket setting",
        null => "not recorded (a run saved before --tcp-nodelay)",
    };
}
