using System;
using System.Collections.Generic;
using System.Linq;
using System.Text.RegularExpressions;
using Comparator.Comparing;
using Comparator.Reports;
using Comparator.Results;
using Xunit;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;
using Comparator.Reports.Text;

namespace Comparator.Tests;

/// <summary>The verdict on top of the reports, from constructed runs: every sentence carries the figures it rests on.</summary>
public sealed class VerdictTests
{
    internal static readonly TargetInfo WebApiSelfhost = new("webapi-selfhost", "Web API 2", "Mono 6.8", "Mono HttpListener", "http://127.0.0.1:1", false, true, null);
    internal static readonly TargetInfo Kestrel = new("kestrel", "bare request delegate", ".NET 10", "Kestrel", "http://127.0.0.1:3", false, true, null);
    internal static readonly TargetInfo AspNetCore = new("aspnetcore", "ASP.NET Core controllers", ".NET 10", "Kestrel", "http://127.0.0.1:4", false, true, null);
    internal static readonly TargetInfo WcfClassic = new("wcf-classic", "classic WCF", "Mono 6.8", "Mono HttpListener via the project's WCF transport", "http://127.0.0.1:2", false, true, null);
    private static readonly TargetInfo CoreWcf = new("wcf", "CoreWCF", ".NET 10", "Kestrel", "http://127.0.0.1:3", false, true, null);
    private static readonly TargetInfo WebApiKestrel = new("webapi-kestrel", "Web API 2 on Kestrel", ".NET 10", "Kestrel", "http://127.0.0.1:4", false, true, null);

    /// <summary>One repeat: requests/s over one second, with p99, wire bytes and server CPU per request.</summary>
    private static Measurement W(double rps, double p99 = 10, double bytes = 700, double cpuUs = 100) =>
        ResultsTests.Window(rps).With(Metrics.LatencyP99Ms, p99).With(Metrics.BytesReceived, (long)(bytes * (long)rps)).With(Metrics.ServerCpuSeconds, cpuUs * (long)rps / 1e6);

    private static CellResult Cell(string target, string endpoint, long size, params Measurement[] repeats)
    {
        var template = ResultsTests.Sample().Cells[0];
        var rates = repeats.Select(r => r.RequestsPerSecond).ToList();
        return template with
        {
            Key = template.Key with { Target = target, Endpoint = endpoint, SizeBytes = size },
            SizeLabel = Contracts.PayloadCatalogue.SizeLabel(size),
            Repeats = repeats,
            Summary = Running.CellMeasurer.MedianRepeat(repeats),
            RpsMin = rates.Min(),
            RpsMax = rates.Max(),
            Flags = new List<string>(),
        };
    }

    private static RunResult Run(IReadOnlyList<TargetInfo> targets, params CellResult[] cells)
    {
        var sample = ResultsTests.Sample();
        return sample with
        {
            Spec = sample.Spec with { BaselineTarget = "webapi-selfhost", Endpoints = cells.Select(c => c.Key.Endpoint).Distinct().ToList() },
            Targets = targets,
            Cells = cells,
        };
    }

    private static RunResult Pair(params (long Size, double[] Baseline, double[] Other)[] sizes) =>
        Run(new[] { WcfClassic, WebApiSelfhost }, sizes.SelectMany(s => new[]
        {
            Cell("wcf-classic", "echo-post", s.Size, s.Other.Select(r => W(r)).ToArray()),
            Cell("webapi-selfhost", "echo-post", s.Size, s.Baseline.Select(r => W(r)).ToArray()),
        }).ToArray());

    private static IReadOnlyList<string> Texts(RunResult run) => Verdict.Build(run).Select(l => l.Text).ToList();

    [Fact]
    public void A_clear_lead_names_the_leader_with_its_ratio_its_interval_and_the_costs()
    {
        var run = Run(new[] { WcfClassic, WebApiSelfhost },
            Cell("wcf-classic", "echo-post", 500, W(1200, 12, 700, 150), W(1210, 12, 700, 150), W(1220, 12, 700, 150)),
            Cell("webapi-selfhost", "echo-post", 500, W(1000, 16, 680, 200), W(1010, 16, 680, 200), W(1020, 16, 680, 200)));

        var lines = Verdict.Build(run);

        Assert.Equal("wcf-classic against webapi-selfhost (baseline), sharing 2 cores", lines[0].Text);
        Assert.Equal("echo-post 500B: wcf-classic is 1.20x faster (99% interval 1.19x–1.21x, 3 launches; 1210 vs 1010 req/s); " +
                     "server cpu µs/req 150.0 vs 200.0 (0.75x); p99 ms 12.0 vs 16.0 (0.75x); 700 B vs 680 B per response",
            lines.Single(l => l.Kind == VerdictLineKind.Endpoint).Text);
        // The compact table comes before the sentences: endpoint × size, ratio, interval, verdict.
        var table = lines.Single(l => l.Kind == VerdictLineKind.Table).Table!;
        Assert.True(lines.ToList().FindIndex(l => l.Kind == VerdictLineKind.Table) < lines.ToList().FindIndex(l => l.Kind == VerdictLineKind.Endpoint));
        Assert.Equal(new[] { "endpoint", "size", "ratio", "99% interval", "verdict" }, table.Header);
        Assert.Equal(new[] { "echo-post", "500B", "1.20x", "1.19x–1.21x", "wcf-classic leads" }, table.Rows.Single());
    }

    [Fact]
    public void An_interval_that_reaches_past_the_minimum_effect_is_not_settled_and_nobody_leads()
    {
        var line = Assert.Single(Texts(Pair((500, new[] { 1000.0, 1100, 1050 }, new[] { 1080.0, 1150, 1020 }))), t => t.StartsWith("echo-post"));

        Assert.StartsWith("echo-post 500B: not settled: between 0.76x and 1.41x req/s cannot be ruled out (1.03x, 99% interval, 3 launches; 1080 vs 1050 req/s)", line);
        Assert.DoesNotContain("leads", line);
    }

    [Fact]
    public void The_lead_changing_hands_as_the_payload_grows_is_the_crossover_sentence_with_the_ratios()
    {
        var texts = Texts(Pair(
            (64, new[] { 200.0, 210, 205 }, new[] { 150.0, 160, 155 }),
            (1024, new[] { 100.0, 120, 110 }, new[] { 105.0, 115, 112 }),
            (16384, new[] { 50.0, 52, 51 }, new[] { 60.0, 62, 61 })));

        Assert.Contains("echo-post: webapi-selfhost leads at 64B, not settled at 1KB, wcf-classic leads at 16KB; " +
                        "wcf-classic/webapi-selfhost req/s 0.76x at 64B to 1.20x at 16KB", texts);
        // A lead is said from the leader's side: the baseline leading at 64B is 1.32x faster, not "0.76x".
        Assert.Contains(texts, t => t.StartsWith("64B: webapi-selfhost is 1.32x faster (99% interval 1.26x–1.38x, 3 launches; 155 vs 205 req/s)"));
        Assert.Contains(texts, t => t.StartsWith("1KB: not settled: between "));
        Assert.Contains(texts, t => t.StartsWith("16KB: wcf-classic is 1.20x faster (99% interval 1.17x–1.22x, 3 launches; 61 vs 51 req/s)"));
    }

    [Fact]
    public void Flagged_cells_are_named_next_to_their_figures_and_in_what_the_numbers_cannot_say()
    {
        var run = Pair((64, new[] { 200.0, 210 }, new[] { 150.0, 160 }), (1024, new[] { 100.0, 120 }, new[] { 105.0, 115 }));
        run = run with
        {
            Cells = run.Cells.Select(c => (c.Key.Target, c.Key.SizeBytes) switch
            {
                ("wcf-classic", 1024) => c with { Flags = new[] { "noisy" } },
                ("webapi-selfhost", 64) => c with { Flags = new[] { "machine-bound", "client-bound" } },
                _ => c,
            }).ToList(),
        };
        var lines = Verdict.Build(run);

        Assert.EndsWith("[client-bound: webapi-selfhost; machine-bound: webapi-selfhost]", lines.Single(l => l.Text.StartsWith("64B:")).Text);
        Assert.EndsWith("[noisy: wcf-classic]", lines.Single(l => l.Text.StartsWith("1KB:")).Text);
        var cautions = lines.Where(l => l.Kind == VerdictLineKind.Caution).Select(l => l.Text).ToList();
        Assert.Contains(cautions, c => c.StartsWith("noisy (") && c.EndsWith("): wcf-classic: echo-post 1KB"));
        Assert.Contains(cautions, c => c.StartsWith("machine-bound (") && c.EndsWith("): webapi-selfhost: echo-post 64B"));
        Assert.Contains(cautions, c => c.StartsWith("client-bound (") && c.EndsWith("): webapi-selfhost: echo-post 64B"));
    }

    [Fact]
    public void Failed_and_not_measured_cells_get_no_verdict_and_not_measured_targets_their_reason()
    {
        var run = Run(new[] { WcfClassic, WebApiSelfhost, CoreWcf with { Measured = false, NotMeasuredReason = "not built: CoreWCF not restorable" } },
            Cell("wcf-classic", "echo-post", 500, W(1200), W(1210)) with { FailedTotal = 3 },
            Cell("webapi-selfhost", "echo-post", 500, W(1000), W(1010)),
            Cell("wcf-classic", "echo-put", 500, W(1200), W(1210)),
            Cell("webapi-selfhost", "echo-put", 500, W(1000), W(1010)) with { Summary = null, NotMeasuredReason = "target stopped" });

        var texts = Texts(run);

        Assert.Contains("echo-post 500B: failed requests on wcf-classic (3): no verdict", texts);
        Assert.Contains("echo-put 500B: not measured on webapi-selfhost (target stopped): no verdict", texts);
        Assert.Contains("not measured: wcf (.NET 10, Kestrel): not built: CoreWCF not restorable", texts);
        Assert.DoesNotContain(texts, t => t.Contains("leads"));
    }

    [Fact]
    public void Different_runtimes_are_said_and_split_off_only_when_the_run_has_the_targets_for_it()
    {
        CellResult[] Cells(params (string Target, double CpuUs)[] targets) =>
            targets.Select(t => Cell(t.Target, "echo-post", 500, W(1000, cpuUs: t.CpuUs), W(1010, cpuUs: t.CpuUs))).ToArray();

        var pair = Texts(Run(new[] { CoreWcf, WebApiSelfhost }, Cells(("wcf", 100), ("webapi-selfhost", 200))));
        Assert.Contains("wcf runs on .NET 10 / Kestrel, webapi-selfhost on Mono 6.8 / Mono HttpListener: the gap mixes the framework with the runtime and server. " +
                        "This run cannot split them: it needs the same code on both runtimes, such as `--targets webapi-selfhost,wcf,webapi-kestrel` " +
                        "(Attribution's step webapi-selfhost − webapi-kestrel).", pair);

        var split = Texts(Run(new[] { CoreWcf, WebApiSelfhost, WebApiKestrel }, Cells(("wcf", 100), ("webapi-selfhost", 200), ("webapi-kestrel", 120))));
        Assert.Contains("wcf runs on .NET 10 / Kestrel, webapi-selfhost on Mono 6.8 / Mono HttpListener: the gap mixes the framework with the runtime and server. " +
                        "Attribution's runtime+server step webapi-selfhost − webapi-kestrel is +80.0 µs/req of server CPU against a gap webapi-selfhost − wcf of +100.0 µs/req " +
                        "(medians over 1 cells): about 80% of the gap is runtime and host rather than framework.", split);

        var same = Texts(Pair((500, new[] { 1000.0 }, new[] { 1100.0 })));
        Assert.Contains("wcf-classic and webapi-selfhost both run on Mono 6.8 over Mono HttpListener: the gap is between the frameworks, not the runtime or host.", same);
    }

    [Fact]
    public void The_curve_across_sizes_reads_the_ratio_the_table_judged_not_the_medians()
    {
        var run = Pair((64, new[] { 200.0 }, new[] { 100.0 }), (1024, new[] { 100.0 }, new[] { 300.0 }));
        // Stored verdicts whose ratios differ from the medians' (the geometric mean over launches often does): the line follows the table.
        run = run with { Verdicts = run.AllJudged().Select(v => v with { Ratio = v.SizeBytes == 64 ? 0.61 : 2.47 }).ToList() };

        Assert.Contains("echo-post: not settled at every size (64B to 1KB); wcf-classic/webapi-selfhost req/s 0.61x at 64B to 2.47x at 1KB", Texts(run));
    }

    [Fact]
    public void One_launch_claims_no_lead_however_far_apart()
    {
        var texts = Texts(Pair((64, new[] { 200.0 }, new[] { 100.0 }), (1024, new[] { 100.0 }, new[] { 300.0 })));

        Assert.Contains("echo-post: not settled at every size (64B to 1KB); wcf-classic/webapi-selfhost req/s 0.50x at 64B to 3.00x at 1KB", texts);
        Assert.Contains(texts, t => t.StartsWith($"64B: {Statistics.LeadRule.OneUnit}: 0.50x req/s (100 vs 200 req/s); server cpu µs/req"));
        Assert.Contains(texts, t => t.StartsWith("one launch only in 4 cell(s)"));
        Assert.DoesNotContain(texts, t => t.Contains("leads") || t.Contains("faster"));
    }

    [Fact]
    public void Of_services_given_by_url_nothing_is_said_about_runtime_or_host()
    {
        TargetInfo External(string name, string url) => new(name, $"external service at {url}", "unknown", "unknown", url, true, true, null);
        var run = Run(new[] { External("webapi-selfhost", "http://127.0.0.1:5001"), External("wcf-classic", "http://127.0.0.1:5002") },
            Cell("wcf-classic", "echo-post", 500, W(1000), W(1010)),
            Cell("webapi-selfhost", "echo-post", 500, W(1000), W(1010)));

        var texts = Texts(run);

        Assert.DoesNotContain(texts, t => t.Contains("unknown") || t.Contains("runtime") || t.Contains("between the frameworks"));
        Assert.Contains(texts, t => t.StartsWith("wcf-classic is a service given by URL: every launch measured the same process"));
    }

    [Fact]
    public void Every_sentence_that_claims_a_lead_carries_its_ratio()
    {
        var runs = new[]
        {
            Pair((64, new[] { 200.0, 210, 205 }, new[] { 150.0, 160, 155 }), (1024, new[] { 100.0, 120, 110 }, new[] { 105.0, 115, 112 }),
                (16384, new[] { 50.0, 52, 51 }, new[] { 60.0, 62, 61 }), (65536, new[] { 10.0, 11 }, new[] { 20.0, 21 })),
            Pair((500, new[] { 1000.0, 1010 }, new[] { 1003.0, 1020 })),
            Pair((500, new[] { 1000.0, 1001 }, new[] { 1002.0, 1003 })),
        };
        var leads = runs.SelectMany(Texts).Where(t => t.Contains(" faster")).ToList();

        Assert.NotEmpty(leads);
        Assert.All(leads, t => Assert.Matches(@"is \d\.\d{2,3}x faster( \(|, by less than the equivalence margin \()99% interval \d\.\d{2,3}x–\d\.\d{2,3}x", t));
        // A difference of 0.2% is below the minimum effect: never a lead, and shown to three decimals, not as 1.00x.
        Assert.Contains(runs.SelectMany(Texts), t => t.StartsWith("echo-post 500B: equivalent, 1.002x req/s"));
    }

    [Fact]
    public void The_verdict_opens_both_reports_and_summary_md_stays_within_40_lines()
    {
        var sizes = new long[] { 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576 };
        var cells = new List<CellResult>();
        foreach (var endpoint in new[] { "echo-post", "echo-put" })
        foreach (var size in sizes)
        foreach (var (target, rps) in new[] { ("webapi-selfhost", 1000.0), ("wcf-classic", 1200.0), ("wcf", 1500.0) })
            cells.Add(Cell(target, endpoint, size, W(rps), W(rps + 10)) with { Flags = size == 64 ? new[] { "noisy" } : new string[0] });
        var run = Run(new[] { WcfClassic, WebApiSelfhost, CoreWcf }, cells.ToArray());

        var summary = SummaryReport.Render(run, Verdict.Build(run), "charts/throughput.png");
        var lines = summary.TrimEnd('\n').Split('\n');
        // The first screen is whole (two pairs of sixteen cells: longer than 40 lines by itself); the rest is cut to a pointer.
        var firstScreen = FirstScreen.ToMarkdown(Headline.Of(run), JudgedTable.Of(run)).TrimEnd('\n').Split('\n');
        Assert.Equal(firstScreen, lines.Skip(2).Take(firstScreen.Length));
        Assert.Contains(lines, l => l.StartsWith("| echo-post 64B | **wcf-classic 1.20x** |", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("| echo-put 1MB | **wcf 1.50x** |", StringComparison.Ordinal));
        Assert.True(lines.Length <= Math.Max(SummaryReport.MaxLines, firstScreen.Length + 10), $"{lines.Length} lines"); // title, answer, chart, pointer, tail
        Assert.Contains(lines, l => l.EndsWith("more lines in report.md)", StringComparison.Ordinal));

        var small = Run(new[] { WcfClassic, WebApiSelfhost }, cells.Where(c => c.Key.Target != "wcf" && c.Key.Endpoint == "echo-post" && c.Key.SizeBytes <= 1024).ToArray());
        var shortSummary = SummaryReport.Render(small, Verdict.Build(small), "charts/throughput.png").TrimEnd('\n').Split('\n');
        Assert.True(shortSummary.Length <= SummaryReport.MaxLines, $"{shortSummary.Length} lines");
        Assert.Contains("![throughput](charts/throughput.png)", shortSummary);
        Assert.Contains(shortSummary, l => l.StartsWith("| echo-post | 64B | 1.20x |", StringComparison.Ordinal));

        var md = new MarkdownReport().Render(new RunReport(run));
        Assert.True(md.IndexOf("## Verdict: wcf-classic against webapi-selfhost", System.StringComparison.Ordinal) < md.IndexOf("- started", System.StringComparison.Ordinal));
        var html = new HtmlReport().Render(new RunReport(run, new List<Chart>()));
        Assert.True(html.IndexOf("<section id=\"verdict\">", System.StringComparison.Ordinal) < html.IndexOf("<h2>Run</h2>", System.StringComparison.Ordinal));
    }

    [Fact]
    public void The_diff_summary_names_what_moved_beyond_noise_with_both_figures()
    {
        var before = Pair((500, new[] { 1000.0, 1010 }, new[] { 1200.0, 1210 }));
        var after = Pair((500, new[] { 800.0, 810 }, new[] { 1200.0, 1230 }));

        var diff = RunDiff.BetweenRuns(before, after, 0.05, "base", "new");
        var summary = DiffReport.Summary(diff);

        Assert.Contains(summary, l => l.StartsWith("- worse: webapi-selfhost echo-post 500B c=100 httpclient: req/s 1000 → 800 (-20.0%; (99% interval -"));
        Assert.True(summary.Count + 2 <= 40);
        Assert.StartsWith("**1 regression(s)**", DiffReport.Render(diff));
    }
}
