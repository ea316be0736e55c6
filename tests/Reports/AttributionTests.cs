using System.Linq;
using Comparator.Reports;
using Comparator.Results;
using Xunit;
using Comparator.Reports.Text;

namespace Comparator.Tests;

/// <summary>"Where the difference comes from" and the grouping by runtime and server, from a result fixture.</summary>
public sealed class AttributionTests
{
    /// <summary>One echo-post cell per target; each served 1,000 requests, with the given server CPU seconds.</summary>
    private static RunResult Run(params (string Target, double CpuSeconds)[] targets)
    {
        var sample = ResultsTests.Sample();
        var cell = sample.Cells[0];
        var cells = targets.Select(t => cell with
        {
            Key = cell.Key with { Target = t.Target },
            Summary = cell.Summary!.With(Metrics.Requests, 1000).With(Metrics.Failed, 0).With(Metrics.ServerCpuSeconds, t.CpuSeconds),
            Flags = System.Array.Empty<string>(), // a steady cell; the noisy case sets its own flags
        }).ToArray();
        return sample with { Cells = cells };
    }

    [Fact]
    public void Each_step_is_the_cpu_difference_of_targets_one_layer_apart_and_each_target_a_ratio_of_kestrel()
    {
        var table = Attribution.Build(Run(("webapi-kestrel", 0.100), ("aspnetcore", 0.080), ("kestrel", 0.050)))!;

        Assert.Equal(new[]
        {
            "endpoint", "size", "conc", "driver",
            "webapi-kestrel µs/req (x kestrel)", "aspnetcore µs/req (x kestrel)", "kestrel µs/req",
            "framework: webapi-kestrel − aspnetcore µs", "MVC over the bare platform: aspnetcore − kestrel µs", "caution",
        }, table.Header);
        Assert.Equal(new[] { "echo-post", "500B", "100", "httpclient", "100.0 (2.00x)", "80.0 (1.60x)", "50.0", "+20.0", "+30.0", "" }, Assert.Single(table.Rows));
    }

    [Fact]
    public void A_step_next_to_a_noisy_cell_says_so()
    {
        var run = Run(("aspnetcore", 0.080), ("kestrel", 0.050));
        run = run with { Cells = new[] { run.Cells[0] with { Flags = new[] { "client-bound", "noisy" } }, run.Cells[1] } };

        Assert.Equal("noisy: aspnetcore", Attribution.Build(run)!.Rows[0][^1]);
    }

    [Fact]
    public void A_step_whose_targets_did_not_both_run_is_left_out_and_one_target_alone_gives_no_table()
    {
        var table = Attribution.Build(Run(("webapi", 0.300), ("aspnetcore", 0.080)))!;
        Assert.DoesNotContain(table.Header, h => h.Contains("runtime+server") || h.Contains("framework:"));
        Assert.Equal(new[] { "300.0", "80.0", "" }, table.Rows[0].Skip(4));

        Assert.Null(Attribution.Build(Run(("kestrel", 0.050), ("wcf-classic-stock", 0.060))));
    }

    [Fact]
    public void The_framework_lane_compares_wcf_and_web_api_on_one_listener_and_splits_off_runtime_and_server()
    {
        var table = Attribution.Build(Run(("wcf-classic", 0.200), ("webapi-selfhost", 0.150), ("httplistener-mono", 0.100),
            ("webapi-kestrel", 0.040), ("httplistener", 0.060)))!;

        Assert.Equal(new[]
        {
            "endpoint", "size", "conc", "driver",
            "wcf-classic µs/req (x httplistener-mono)", "webapi-selfhost µs/req (x httplistener-mono)", "httplistener-mono µs/req",
            "webapi-kestrel µs/req", "httplistener µs/req",
            "WCF vs Web API 2 on one runtime and listener: wcf-classic − webapi-selfhost µs",
            "Web API 2 over the bare listener: webapi-selfhost − httplistener-mono µs",
            "runtime+server: webapi-selfhost − webapi-kestrel µs",
            "runtime, same listener code: httplistener-mono − httplistener µs",
            "caution",
        }, table.Header);
        Assert.Equal(new[] { "200.0 (2.00x)", "150.0 (1.50x)", "100.0", "40.0", "60.0", "+50.0", "+50.0", "+110.0", "+40.0", "" }, table.Rows[0].Skip(4));
    }

    [Fact]
    public void Targets_are_grouped_by_runtime_then_server()
    {
        var run = ResultsTests.Sample() with
        {
            Targets = new[]
            {
                new TargetInfo("kestrel", "bare", ".NET 10", "Kestrel", null, false, true, null),
                new TargetInfo("webapi", "Web API 2", "Mono (net472)", "Katana HttpListener", null, false, false, "missing packages"),
                new TargetInfo("httplistener", "bare", ".NET 10", "managed HttpListener", null, false, true, null),
                new TargetInfo("aspnetcore", "MVC", ".NET 10", "Kestrel", null, false, true, null),
            },
        };

        var rows = Attribution.Groups(run).Rows.Select(r => string.Join('|', r)).ToList();

        Assert.Equal(new[]
        {
            ".NET 10|Kestrel|kestrel|bare|-|yes",
            "||aspnetcore|MVC|-|yes",
            ".NET 10|managed HttpListener|httplistener|bare|-|yes",
            "Mono (net472)|Katana HttpListener|webapi|Web API 2|-|no: missing packages",
        }, rows);
    }
}
