using System;
using System.Globalization;
using System.Linq;
using System.Text;
using Comparator.Results;
using Comparator.Statistics;

namespace Comparator.Reports;

/// <summary>report.md: the run spec, the targets, the side-by-side table, every cell, the flags explained.</summary>
public static class MarkdownReport
{
    public static string Render(RunResult run)
    {
        var s = run.Spec;
        var md = new StringBuilder();
        md.AppendLine("# Comparator run" + (run.Partial ? " (PARTIAL: stopped before the end)" : ""));
        md.AppendLine();
        md.Append(VerdictRenderer.ToMarkdown(Verdict.Build(run)));
        md.AppendLine();
        md.AppendLine("## Run");
        md.AppendLine();
        md.AppendLine(Invariant($"- started {run.StartedAt:u}, finished {run.FinishedAt:u}"));
        md.AppendLine($"- machine: {s.Machine.CpuModel}, {s.Machine.LogicalCores} logical cores, {s.Machine.OperatingSystem}; comparator on {s.Machine.DotNetRuntime}");
        if (SpecText.Crank(s) is string crank) md.AppendLine("- " + crank);
        foreach (var d in s.Drivers) md.AppendLine($"- driver {d.Name}: {d.Description}");
        md.AppendLine($"- cores: the servers {CoreParts.Phrase(s)}");
        md.AppendLine($"- Server header: {(s.ServerHeader ? "on (--server-header on)" : "off")}");
        md.AppendLine($"- TCP_NODELAY: {SpecText.TcpNoDelay(s)}");
        md.AppendLine($"- schedule: {s.Schedule ?? "one target after another"}");
        md.AppendLine(s.Scenario is null
            ? Invariant($"- endpoints {string.Join(", ", s.Endpoints)}; sizes {string.Join(", ", s.Sizes.Select(p => $"{p.Label} ({p.Source})"))}; json items {s.JsonItems}")
            : "- " + ScenarioOperations.CellsText(s));
        md.AppendLine(Invariant($"- concurrency {string.Join(", ", s.Concurrency)}; keep-alive {(s.KeepAlive ? "on" : "off")}; {SpecText.Timing(s)}; median repeat shown"));
        md.AppendLine($"- baseline for ratios: {s.BaselineTarget}; packages: {string.Join(", ", s.Machine.Packages.Select(p => p.Key + " " + p.Value))}");
        md.AppendLine();
        if (ScenarioOperations.Build(run) is TextTable operations)
        {
            md.AppendLine("## Operations").AppendLine().AppendLine(ScenarioOperations.Explanation(s.Scenario!)).AppendLine();
            md.Append(operations.ToMarkdown()).AppendLine();
        }
        md.AppendLine("## Targets by runtime and server");
        md.AppendLine();
        md.Append(Attribution.Groups(run).ToMarkdown());
        md.AppendLine();
        void Section(string title, string explanation, TextTable? table)
        {
            if (table is null) return;
            md.AppendLine("## " + title).AppendLine().AppendLine(explanation).AppendLine();
            md.Append(table.ToMarkdown()).AppendLine();
        }
        Section("Crossovers across cores: who leads as the servers' cores change", CoreCrossovers.Explanation, CoreCrossovers.Table(run));
        // Each allotment of cores is its own comparison: its tables carry its cores in their titles.
        foreach (var part in run.ByCores())
        {
            md.AppendLine("## " + CoreParts.Titled("Side by side", part));
            md.AppendLine();
            md.Append(SideBySide.Build(part).ToMarkdown());
            md.AppendLine();
            Section(CoreParts.Titled("Where the difference comes from", part), Attribution.Explanation, Attribution.Build(part));
            Section(CoreParts.Titled("Crossovers: who leads as the payload grows", part), Crossovers.Explanation, Crossovers.Table(part));
            Section(CoreParts.Titled("Payload throughput and wire overhead per size", part), PayloadThroughput.Explanation, PayloadThroughput.Build(part));
            Section(CoreParts.Titled("What bounded each cell", part), CellBounds.Explanation, CellBounds.Build(part));
            if (CellBounds.Build(part) is not null)
                foreach (var line in CellBounds.CounterSources(part).Select(l => "runtime counters of " + l).Concat(CellBounds.ThreadSources(part))) md.AppendLine("- " + line);
            md.AppendLine();
        }
        if (s.Drivers.Count > 1)
        {
            md.AppendLine("## Drivers side by side");
            md.AppendLine();
            md.Append(DriversView.Build(run).ToMarkdown());
            md.AppendLine();
        }
        md.AppendLine("## Every cell (median repeat)");
        md.AppendLine();
        var columns = CellColumns.All.Where(c => c.Name is not ("runtime" or "keep_alive" or "transfer_kbps_sent" or "not_measured_reason") && !CellBounds.Shows(c.Name)).ToList();
        md.Append(new TextTable(columns.Select(c => c.Name).ToList(),
            run.Cells.Select(cell => (System.Collections.Generic.IReadOnlyList<string>)columns.Select(c => CellColumns.FormatFor(cell, c)).ToList()).ToList()).ToMarkdown());
        md.AppendLine();
        md.AppendLine("## How to read the flags");
        md.AppendLine();
        foreach (var hint in run.Cells.SelectMany(c => c.Flags).Distinct().Select(CellFlags.Hint).OfType<string>())
            md.AppendLine("**In this run:** " + hint + ".");
        md.AppendLine();
        md.AppendLine("- failed: some requests failed (non-2xx, error, timeout or a wrong body); they are out of req/s and latency, and counted in `failed`.");
        md.AppendLine("- client-bound: the driver used 90% or more of one core: the figure may measure the driver, not the server.");
        md.AppendLine("- machine-bound: driver and server together used 90% or more of all cores: both compete for CPU.");
        md.AppendLine("- noisy: the coefficient of variation of requests/s over the cell's launches and rounds was above --precision (see the cv column): the interval of its ratio is wide.");
        md.AppendLine("- wait-bound: the cores the cell could use were less than half busy while each request stayed in flight far longer than its CPU cost: a wait set the pace, and the verdict claims no lead there.");
        md.AppendLine("- starved: a .NET target's thread pool had work queued while it added threads (runtime counters): blocked threads set the pace, and the verdict claims no lead there.");
        md.AppendLine("- contended: other processes on the machine used a quarter core or more (a tenth of the cores on larger machines) during a window: the stacks shared the cores with them.");
        md.AppendLine("- drivers-disagree: two drivers on the same cell differ by more than 15% in requests/s, or by more than 64 bytes a response (more than headers explain).");
        md.AppendLine("- n/a: the driver cannot measure this endpoint faithfully; the reason is in not_measured_reason.");
        md.AppendLine("- no-server-cpu: the server is not a process of this run (external target), so CPU figures are absent.");
        md.AppendLine("- not-measured: see not_measured_reason in results.csv.");
        return md.ToString();
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
