using System;
using System.Linq;
using Comparator.Reports;
using Comparator.Results;
using Xunit;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;

namespace Comparator.Tests;

/// <summary>
/// The profile's tables and sentences on injected profiles: each layer's share scaled into the target's cost of a request, the
/// difference from the baseline layer by layer, the largest difference named in words, and the one line where nothing was sampled.
/// </summary>
public sealed class ProfileReportTests
{
    private static readonly LayerRule[] Rules =
    {
        new("service", new[] { "Comparator.Contracts" }, Array.Empty<string>()),
        new("framework pipeline", new[] { "System.ServiceModel" }, Array.Empty<string>()),
        new("kernel", Array.Empty<string>(), new[] { "[kernel.kallsyms]" }),
    };

    private static readonly CellKey Time = new("", "time", 0, 100, "socket", null, "shared");

    private static ProfiledCell Cell(string target, double cpuUs, double service, double pipeline, double kernel) =>
        new(Time with { Target = target }, null)
        {
            Samples = 5000, Seconds = 5, Requests = 100_000, CpuUsPerRequest = cpuUs, NamedShare = 0.99,
            Layers = new[] { new LayerShare("service", service), new LayerShare("framework pipeline", pipeline), new LayerShare("kernel", kernel) },
            Frames = new[] { new FrameShare("Comparator.Contracts.TimeText:Now ()", "service", service) },
            Folded = $"profiles/{target}.time-c100.folded", FlameGraph = $"profiles/{target}.time-c100.svg",
        };

    private static ProfileResult Profile(params ProfiledCell[] cells) =>
        new("perf record -e cpu-clock -F 499 -g", null, "profile-layers.json", Rules, cells) { Baseline = "webapi-selfhost" };

    [Fact]
    public void Each_layer_is_its_share_of_the_cost_of_a_request_and_the_difference_is_the_other_minus_the_baseline()
    {
        // wcf-classic 40 µs: pipeline 50% = 20 µs; webapi-selfhost 20 µs: pipeline 25% = 5 µs; difference +15 µs.
        var profile = Profile(Cell("webapi-selfhost", 20, 0.25, 0.25, 0.5), Cell("wcf-classic", 40, 0.25, 0.5, 0.25));

        var table = ProfileReport.Sections(profile)[1].Table!;

        Assert.Equal(new[] { "layer", "webapi-selfhost µs CPU/req (share)", "wcf-classic µs CPU/req (share)", "wcf-classic - webapi-selfhost" }, table.Header);
        var pipeline = table.Rows.Single(r => r[0] == "framework pipeline");
        Assert.Equal(new[] { "framework pipeline", "5.0 (25.0%)", "20.0 (50.0%)", "+15.0" }, pipeline);
        Assert.Equal(new[] { "total", "20.0 (100.0%)", "40.0 (100.0%)", "+20.0" }, table.Rows[^1]);
    }

    [Fact]
    public void The_largest_difference_is_named_in_words_whichever_side_spends_more()
    {
        var cheap = Cell("webapi-selfhost", 20, 0.25, 0.25, 0.5);
        var costly = Cell("wcf-classic", 40, 0.25, 0.5, 0.25);
        var layers = Rules.Select(r => r.Layer).ToList();

        Assert.Equal("wcf-classic spends 20.0 µs CPU more a request than webapi-selfhost in this profile's windows (under sampling), the most of it spent in framework pipeline (+15.0 µs CPU)",
            ProfileReport.ExtraWork(costly, cheap, layers, "µs CPU", (c, l) => c.ShareOf(l), "spent in"));
        Assert.Equal("wcf-classic spends 20.0 µs CPU more a request than webapi-selfhost in this profile's windows (under sampling), the most of it spent in framework pipeline (+15.0 µs CPU)",
            ProfileReport.ExtraWork(cheap, costly, layers, "µs CPU", (c, l) => c.ShareOf(l), "spent in"));
    }

    [Fact]
    public void A_profiled_run_scales_the_shares_by_its_measured_figures_and_says_so()
    {
        var profile = Profile(Cell("webapi-selfhost", 20, 0.5, 0.5, 0) with { MeasuredCpuUsPerRequest = 10, MeasuredWindows = 6 },
            Cell("wcf-classic", 40, 0.5, 0.5, 0) with { MeasuredCpuUsPerRequest = 30, MeasuredWindows = 6 });

        var section = ProfileReport.Sections(profile)[1];

        Assert.Equal(new[] { "service", "5.0 (50.0%)", "15.0 (50.0%)", "+10.0" }, section.Table!.Rows[0]);
        Assert.Contains(section.Lines, l => l.StartsWith("each target's µs CPU a request as the run measured it", System.StringComparison.Ordinal));
        Assert.Contains(section.Lines, l => l.StartsWith("wcf-classic spends 20.0 µs CPU more a request than webapi-selfhost as measured (median window)", System.StringComparison.Ordinal));
        Assert.Contains(section.Lines, l => l.Contains("40.0 µs CPU a request under sampling (30.0 measured: the median of 6 windows)", System.StringComparison.Ordinal));
    }

    [Fact]
    public void Instructions_scale_the_shares_where_they_were_counted()
    {
        var profile = Profile(Cell("webapi-selfhost", 20, 0.5, 0.5, 0) with { InstructionsPerRequest = 200_000 },
            Cell("wcf-classic", 40, 0.5, 0.5, 0) with { InstructionsPerRequest = 300_000 });

        var table = ProfileReport.Sections(profile)[1].Table!;

        Assert.Equal("webapi-selfhost instructions/req (share)", table.Header[1]);
        Assert.Equal(new[] { "service", "100.0k (50.0%)", "150.0k (50.0%)", "+50.0k" }, table.Rows[0]);
    }

    [Fact]
    public void A_target_without_a_profile_says_why_and_the_other_is_shown_in_shares_alone()
    {
        var profile = Profile(Cell("webapi-selfhost", 20, 0.25, 0.25, 0.5), new ProfiledCell(Time with { Target = "wcf-classic" }, "not profiled: perf record failed"));

        var section = ProfileReport.Sections(profile)[1];

        Assert.Contains("wcf-classic: not profiled: perf record failed", section.Lines);
        Assert.Equal(2, section.Table!.Header.Count);
    }

    [Fact]
    public void Where_nothing_was_sampled_the_profile_is_the_one_line_that_says_why()
    {
        var profile = new ProfileResult("", "sampling profiles: not available: perf is not on PATH", "profile-layers.json", Rules, Array.Empty<ProfiledCell>());

        var section = Assert.Single(ProfileReport.Sections(profile));

        Assert.Equal(new[] { "sampling profiles: not available: perf is not on PATH" }, section.Lines);
        Assert.Contains("sampling profiles: not available: perf is not on PATH", ProfileReport.Markdown(profile));
    }

    [Fact]
    public void The_page_links_each_flame_graph_and_holds_no_script_and_no_address_outside_the_run_directory()
    {
        var html = ProfileReport.Html(Profile(Cell("webapi-selfhost", 20, 0.25, 0.25, 0.5), Cell("wcf-classic", 40, 0.25, 0.5, 0.25)));

        Assert.Contains("<img src=\"profiles/wcf-classic.time-c100.svg\"", html);
        Assert.Contains("<img src=\"profiles/webapi-selfhost.time-c100.svg\"", html);
        Assert.DoesNotContain("<script", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("http://", html);
        Assert.DoesNotContain("https://", html);
    }
}
