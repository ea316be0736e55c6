using System;
using System.Linq;
using Comparator.Comparing;
using Comparator.Reports;
using Comparator.Results;
using Xunit;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;
using Comparator.Reports.Text;

namespace Comparator.Tests;

/// <summary>
/// The answer's sentences read from injected verdicts, word for word on the figures: a settled lead either way, a cost, sameness within
/// the margin, nothing settled with the launches it would take, and a target that could not run. The numbers are the verdicts' own.
/// </summary>
public sealed class AnswerTests
{
    private const string Base = "webapi-selfhost";
    private const string Other = "wcf-classic";
    private static readonly CellKey Echo = new(Other, "echo-post", 500, 100, "httpclient");
    private static readonly CellKey Time = new(Other, "time", 0, 100, "httpclient");

    private static RunResult Run(params CellVerdict[] verdicts)
    {
        var sample = ResultsTests.Sample();
        var cell = sample.Cells[0];
        CellResult Cell(CellKey key, string target) => cell with { Key = key with { Target = target }, SizeLabel = key.SizeBytes > 0 ? "500B" : CellSizes.NoSize };
        return sample with
        {
            Spec = sample.Spec with { Targets = new[] { Base, Other }, BaselineTarget = Base },
            Targets = new[] { sample.Targets[0] with { Name = Base }, sample.Targets[0] with { Name = Other } },
            Cells = new[] { Cell(Echo, Base), Cell(Echo, Other), Cell(Time, Base), Cell(Time, Other) },
            Verdicts = verdicts,
        };
    }

    private static CellVerdict Rps(CellKey key, double ratio, double low, double high, string? leader, string outcome, double? eqLow = null, double? eqHigh = null) =>
        new(key, Base, Metrics.RequestsPerSecond.VerdictId!, ratio, low, high, 0.99, leader, leader is null ? outcome : null, outcome, eqLow, eqHigh, Launches: 6);

    private const string Machine = "Measured on cpu, 2 logical cores shared by the servers and the load generator, Linux; each target started afresh 6 time(s).";

    [Fact]
    public void A_settled_lead_either_way_is_stated_as_the_leaders_multiple_with_its_interval_and_the_cost_beside_it()
    {
        var run = Run(
            Rps(Echo, 1.25, 1.10, 1.42, Other, CellVerdict.Higher),
            Rps(Time, 0.80, 0.70, 0.90, Base, CellVerdict.Lower),
            new CellVerdict(Time, Base, Metrics.InstructionsPerRequest.VerdictId!, 1.30, 1.20, 1.40, 0.99, Base, null, CellVerdict.Higher, Launches: 6));

        Assert.Equal(new[]
        {
            "wcf-classic serves more requests a second than webapi-selfhost at echo-post 500B (by 1.25x, 99% interval 1.10x–1.42x, 6 launches).",
            "webapi-selfhost serves more requests a second than wcf-classic at time (by 1.25x, 99% interval 1.11x–1.43x, 6 launches).",
            "webapi-selfhost executes fewer instructions per request than wcf-classic at time (by 1.30x, 99% interval 1.20x–1.40x, 6 launches).",
            Machine,
        }, Answer.Sentences(run));
        // The terminal prints a line per paragraph: the pair's three sentences, then the machine.
        Assert.Equal(new[] { 3, 1 }, Answer.Paragraphs(run).Select(p => p.Count));
    }

    [Fact]
    public void A_settled_latency_at_a_fixed_rate_is_stated_beside_the_cost()
    {
        var atRate = Echo with { Rate = 1721 };
        var run = Run(Rps(Echo, 1.01, 0.90, 1.12, null, CellVerdict.Unsettled),
            new CellVerdict(atRate, Base, Metrics.LatencyP90Ms.VerdictId!, 2.10, 1.50, 2.90, 0.99, Base, null, CellVerdict.Higher, Launches: 6));
        run = run with { Cells = run.Cells.Concat(run.Cells.Where(c => c.Key.Endpoint == Echo.Endpoint).Select(c => c with { Key = c.Key with { Rate = 1721 } })).ToList() };

        Assert.Equal("Asked at the same fixed rate, webapi-selfhost answers with a shorter p90 latency than wcf-classic at echo-post 500B @1721/s " +
                        "(by 2.10x, 99% interval 1.50x–2.90x, 6 launches).", Answer.Sentences(run)[1]);
    }

    [Fact]
    public void Sameness_within_the_margin_is_stated_with_its_90_percent_interval()
    {
        var run = Run(Rps(Echo, 1.01, 0.95, 1.07, null, CellVerdict.Equivalent, 0.98, 1.04), Rps(Time, 1.25, 1.10, 1.42, Other, CellVerdict.Higher));

        Assert.Equal("At echo-post 500B, wcf-classic and webapi-selfhost are the same in requests a second within ±5% (1.01x, 90% interval 0.98x–1.04x).",
            Answer.Sentences(run)[1]);
    }

    [Fact]
    public void Where_nothing_is_settled_the_first_sentence_says_so_and_what_would_settle_it()
    {
        var run = Run(Rps(Echo, 1.10, 0.90, 1.34, null, CellVerdict.Unsettled) with { Launches = 3 });

        // Half-width ln(1.34/0.90)/2 = 0.199; the ratio is ln(1.10) - ln(1.03) = 0.066 from a lead: 3 × (0.199/0.066)² = 28 launches.
        Assert.Equal(new[]
        {
            "Nothing is settled between wcf-classic and webapi-selfhost: at echo-post 500B the ratio of requests a second wcf-classic/webapi-selfhost could lie anywhere in " +
            "0.90x–1.34x (99% interval), so neither leads by more than 3% and neither is shown the same within 5%. At this run's spread, settling it would take about 28 launches " +
            "(`--launches 28`). A quieter machine, or cores for the servers apart from the load generator, narrows every interval.",
            Machine.Replace("6 time(s)", "3 time(s)"),
        }, Answer.Sentences(run));
    }

    [Fact]
    public void A_cell_too_near_a_boundary_is_not_promised_to_settle_with_launches()
    {
        var run = Run(Rps(Echo, 1.05, 0.83, 1.32, null, CellVerdict.Unsettled), Rps(Time, 0.87, 0.71, 1.06, null, CellVerdict.Unsettled));

        Assert.EndsWith("At this run's spread, settling time would take about 21 launches (`--launches 21`). Echo-post 500B sits too near the rule's boundaries for launches alone " +
                        "(more than 50 would be needed). A quieter machine, or cores for the servers apart from the load generator, narrows every interval.", Answer.Sentences(run)[0]);
    }

    [Fact]
    public void A_target_that_could_not_run_is_named_with_the_first_words_of_its_reason()
    {
        var run = Run() with { Cells = Run().Cells.Where(c => c.Key.Target == Base).ToArray() };
        run = run with { Targets = new[] { run.Targets[0], run.Targets[1] with { Measured = false, NotMeasuredReason = "failed verification: /api/json answered 500" } } };

        Assert.Equal(new[]
        {
            "No answer: webapi-selfhost is the only target measured in this run.",
            "wcf-classic was not measured (failed verification); the report says why.",
        }, Answer.Sentences(run));
    }

    [Fact]
    public void The_answer_comes_first_in_summary_md_report_md_and_report_html()
    {
        var run = Run(Rps(Echo, 1.25, 1.10, 1.42, Other, CellVerdict.Higher));
        var first = Answer.Sentences(run)[0];
        var report = new RunReport(run, Array.Empty<Chart>());

        var summary = new SummaryReport().Render(report);
        // The first screen (the headline, then the table of every judged figure) opens it; the answer in full follows the table.
        var lines = summary.Split('\n').ToList();
        Assert.Equal($"**{Headline.Of(run)[0]}**", lines[2]);
        var answer = lines.FindIndex(l => l.StartsWith(first, StringComparison.Ordinal));
        Assert.InRange(answer, lines.FindLastIndex(l => l.StartsWith("| ", StringComparison.Ordinal) && lines.IndexOf(l) < answer) + 1, lines.FindIndex(l => l.StartsWith("## Verdict", StringComparison.Ordinal)));
        // The method is not in summary.md, only pointed to: the table follows the verdict's heading.
        Assert.DoesNotContain("Ratios are", summary);
        Assert.Contains("How this was judged (the rule, the cores, the noise floor, the family of judgments) and the full figures: report.md", summary);
        var md = new MarkdownReport().Render(report);
        Assert.Contains("Ratios are", md);
        Assert.True(md.IndexOf(first, StringComparison.Ordinal) < md.IndexOf("## Verdict", StringComparison.Ordinal));
        var html = new HtmlReport().Render(report);
        Assert.True(html.IndexOf("<p class=\"headline\">", StringComparison.Ordinal) < html.IndexOf("<p class=\"answer\">", StringComparison.Ordinal));
        Assert.True(html.IndexOf("<p class=\"answer\">", StringComparison.Ordinal) < html.IndexOf("<section id=\"verdict\">", StringComparison.Ordinal));
    }

    [Fact]
    public void The_method_is_folded_a_click_away_and_a_cells_flags_link_to_what_they_mean()
    {
        var html = VerdictRenderer.ToHtml(new[]
        {
            new VerdictLine(VerdictLineKind.Pair, "wcf-classic against webapi-selfhost (baseline), sharing 2 cores"),
            new VerdictLine(VerdictLineKind.Note, "Ratios are wcf-classic/webapi-selfhost in req/s over 3 launch(es)."),
            new VerdictLine(VerdictLineKind.Endpoint, "time: not settled (0.87x) [noisy: both]"),
            new VerdictLine(VerdictLineKind.CautionHeading, "What these numbers cannot say"),
            new VerdictLine(VerdictLineKind.Caution, "noisy (the CV of req/s over its launches was above 5%): wcf-classic: time"),
        });

        Assert.Contains("<details class=\"how\"><summary>How this was judged</summary><p class=\"note\">Ratios are", html);
        Assert.Contains("<li><b>time</b>: not settled (0.87x) (<a class=\"flags\" href=\"#cautions\" title=\"what these flags mean\">moved from launch to launch: both</a>)</li>", html);
        Assert.Contains("<details class=\"how\" id=\"cautions\"><summary>What these numbers cannot say</summary><ul><li>noisy (", html);
        Assert.EndsWith("</li></ul></details></section>", html);
    }

    private static RunResult Saved(string name) =>
        Comparing.SavedRun.Read(System.IO.File.ReadAllText(System.IO.Path.Combine(AppContext.BaseDirectory, "Fixtures", "runs", name + ".json")), name);

    /// <summary>Saved runs of this machine (tests/Fixtures/runs): each answer against the figures of the verdicts stored in its file.</summary>
    [Fact]
    public void A_saved_run_with_a_settled_lead_states_the_leaders_multiple_from_its_stored_verdict()
    {
        var run = Saved("settled");
        var v = run.Headline().Single(); // spinning/kestrel, kestrel leading

        Assert.Equal("kestrel", v.Leader);
        Assert.Equal($"kestrel serves more requests a second than spinning at time (by {Statistics.Format.Ratio(1 / v.Ratio!.Value)}, 99% interval " +
                     $"{Statistics.Format.Ratio(1 / v.RatioHigh!.Value)}–{Statistics.Format.Ratio(1 / v.RatioLow!.Value)}, {v.Launches} launches).", Answer.Sentences(run)[0]);
        Assert.Equal("3.38x", Statistics.Format.Ratio(1 / v.Ratio.Value));
    }

    [Fact]
    public void A_saved_run_with_nothing_settled_says_so_first_with_the_range_of_its_intervals()
    {
        var run = Saved("not-settled");
        var verdicts = run.Headline();

        var first = Answer.Sentences(run)[0];
        Assert.StartsWith("Nothing is settled between wcf-classic and webapi-selfhost: at time and echo-post 4KB the ratio of requests a second wcf-classic/webapi-selfhost " +
                          $"could lie anywhere in {Statistics.Format.Ratio(verdicts.Min(v => v.RatioLow!.Value))}–{Statistics.Format.Ratio(verdicts.Max(v => v.RatioHigh!.Value))} (99% intervals)", first);
        Assert.Contains("settling time would take about 11 launches (`--launches 11`). Echo-post 4KB sits too near the rule's boundaries", first);
    }

    [Fact]
    public void A_saved_AA_calibration_states_sameness_within_its_margin_from_the_stored_90_percent_interval()
    {
        // calibrate --targets kestrel --endpoints time,echo-post --sizes 4KB --concurrency 16 --launches 6 --equivalence 15: the two
        // instances of one build are the same within ±15% at echo-post 4KB; time stays open.
        var run = Saved("equivalent");
        var same = run.Headline().Single(v => v.Outcome == CellVerdict.Equivalent);
        var open = run.Headline().Single(v => v.Outcome == CellVerdict.Unsettled);
        var R = Statistics.Format.Ratio;

        var answer = Answer.Sentences(run);
        Assert.Equal($"At echo-post 4KB, kestrel.B and kestrel.A are the same in requests a second within ±15% " +
                     $"({R(same.Ratio!.Value)}, 90% interval {R(same.EquivalenceLow!.Value)}–{R(same.EquivalenceHigh!.Value)}).", answer[0]);
        Assert.StartsWith($"At time nothing is settled: kestrel.B/kestrel.A could lie anywhere in {R(open.RatioLow!.Value)}–{R(open.RatioHigh!.Value)} (99% interval).", answer[1]);
        Assert.Equal("1.04x, 90% interval 0.96x–1.12x", $"{R(same.Ratio.Value)}, 90% interval {R(same.EquivalenceLow.Value)}–{R(same.EquivalenceHigh.Value)}");
        Assert.EndsWith("each target started afresh 6 time(s).", answer[^1]);
    }

    [Fact]
    public void A_saved_https_scenario_run_of_two_services_given_by_url_says_they_were_not_restarted_and_paid_for_TLS()
    {
        // run --scenario scenarios/varying.json --target kestrel-tls=https://127.0.0.1:5443 --target minimal-tls=https://127.0.0.1:5444 --insecure --launches 4
        var run = Saved("https-scenario");
        var v = run.Headline().Single();
        var R = Statistics.Format.Ratio;

        var answer = Answer.Paragraphs(run);
        Assert.StartsWith("Nothing is settled between minimal-tls and kestrel-tls: at create-order the ratio of requests a second minimal-tls/kestrel-tls " +
                          $"could lie anywhere in {R(v.RatioLow!.Value)}–{R(v.RatioHigh!.Value)} (99% interval)", answer[0][0]);
        Assert.Equal(4, v.Launches);
        Assert.EndsWith("each service measured in 4 launches as it runs (started outside the comparator, not restarted). kestrel-tls and minimal-tls " +
                        "were asked over HTTPS (TLS 1.3, TLS_AES_256_GCM_SHA384): the figures of each carry TLS's cost.", Assert.Single(answer[1]));
        Assert.All(run.Targets, t => Assert.StartsWith("TLS 1.3, TLS_AES_256_GCM_SHA384, certificate not validated", t.Tls));
    }

    [Fact]
    public void A_saved_run_whose_other_target_failed_verification_names_it_once()
    {
        Assert.Equal(new[]
        {
            "No answer: kestrel is the only target measured in this run.",
            "bad was not measured (verification failed); the report says why.",
        }, Answer.Sentences(Saved("target-failed")));
    }
}
