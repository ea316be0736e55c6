using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Targets;
using Xunit;
using Comparator.Reports.Exporters;
using Comparator.Reports.Text;

namespace Comparator.Tests;

/// <summary>`run --scenario` as a user runs it: the file's operations are the cells, and every answer under load is checked by its rule.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class ScenarioRunTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("scenario-run-");

    public void Dispose() => _dir.Delete(recursive: true);

    /// <summary>Short windows: these tests check behaviour, not figures.</summary>
    private static readonly string[] Short = { "--quick", "--warmup", "0.2s", "--first-warmup", "0.2s", "--duration", "0.5s" };

    private Results.RunResult Saved(string outDir) =>
        ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(new DirectoryInfo(outDir).GetDirectories()).FullName, "results.json")), "results.json");

    [Fact]
    public async Task A_doctored_answer_that_passes_verification_is_counted_as_failures_under_load_with_samples()
    {
        // Its first /api/json answer is right (verification passes), every later one has an item renamed.
        var doctored = new TargetDefinition("doctored", "test double", ".NET 10", "Kestrel", "MisbehavingService", "MisbehavingService.dll",
            HostRuntime.DotNet, null) { VariantArguments = new[] { "doctor", "1" } };
        await using var running = await new TargetLauncher(BuildLayout.Discover()).StartAsync(doctored, ServiceSwitches.Default);
        var file = Path.Combine(_dir.FullName, "json.json");
        File.WriteAllText(file, """{ "operations": [ { "name": "list-items", "request": { "path": "/api/json?items=3" }, "expect": { "status": 200, "body": { "same-as": "kestrel" } } } ] }""");
        var outDir = Path.Combine(_dir.FullName, "out");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(new[] { "run", "--scenario", file, "--targets", "kestrel", "--target", $"doctored={running.BaseUrl}", "--out", outDir }.Concat(Short).ToArray());

        Assert.True(exit == 1, $"exit {exit}\n{stdout}\n{stderr}");
        var run = Saved(outDir);
        Assert.Equal(new[] { "list-items" }, run.Spec.Endpoints);
        Assert.All(run.Verification, c => Assert.True(c.Passed, c.Detail));
        var bad = run.Cells.Single(c => c.Key.Target == "doctored");
        var good = run.Cells.Single(c => c.Key.Target == "kestrel");
        Assert.True(bad.FailedTotal > 0 && bad.FailedTotal == bad.Repeats.Sum(r => r.Requests) - bad.Repeats.Sum(r => r.Succeeded));
        Assert.Contains(bad.Repeats.SelectMany(r => r.FailureSamples), s => s.StartsWith("body differs from kestrel's: at byte", StringComparison.Ordinal) && s.Contains("(doctored)"));
        Assert.Equal(0, good.FailedTotal);
        Assert.True(good.Summary!.Requests > 0);
    }

    [Fact]
    public async Task The_migration_example_measures_served_targets_by_operation_with_the_cpu_of_their_processes()
    {
        // Two services already running (as `serve` leaves them), measured from outside: the pids come from their ports.
        using var serve = await ComparatorProcess.StartAndWaitForAsync("ready", "serve", "--targets", "wcf-classic,webapi-selfhost");
        var urls = serve.Stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(l => l.Split(' ')).Where(f => f.Length == 2 && f[1].StartsWith("http://", StringComparison.Ordinal)).ToDictionary(f => f[0], f => f[1]);
        var file = Path.Combine(BuildLayout.Discover().RepositoryRoot, "scenarios", "migration.json");
        var outDir = Path.Combine(_dir.FullName, "out");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(new[] { "run", "--scenario", file,
            "--target", $"wcf-classic={urls["wcf-classic"]}", "--target", $"webapi-selfhost={urls["webapi-selfhost"]}", "--out", outDir }.Concat(Short).ToArray());

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = Saved(outDir);
        var operations = run.Spec.Scenario!.Operations.Select(o => o.Name).ToList();
        Assert.Contains("get-items", operations);
        Assert.Contains("echo-order", operations);
        Assert.Equal(operations, run.Cells.Select(c => c.Key.Endpoint).Distinct());
        // Different paths per target: the request each one was asked is kept with the results.
        var echo = run.Spec.Scenario.Operations.Single(o => o.Name == "echo-order");
        Assert.NotEqual(echo.Requests.Single(r => r.Target == "wcf-classic").PathAndQuery, echo.Requests.Single(r => r.Target == "webapi-selfhost").PathAndQuery);
        Assert.All(run.Cells, c => Assert.True(c.Summary is { Requests: > 0, Failed: 0, ServerCpuSeconds: > 0, ServerPeakRssMb: > 0 }, $"{c.Key}: no CPU figures"));
        var dir = Assert.Single(new DirectoryInfo(outDir).GetDirectories()).FullName;
        foreach (var report in new[] { "report.md", "report.html" })
        {
            var text = File.ReadAllText(Path.Combine(dir, report));
            Assert.Contains("Operations", text);
            Assert.All(operations, o => Assert.Contains(o, text));
        }
        Assert.Contains("echo-order", stdout); // the side-by-side table names the operations
        Assert.Contains("echo-order, time: asked differently of each target", File.ReadAllText(Path.Combine(dir, "report.md"))); // SOAP beside REST: no framework-only claim
        // Services given by URL were placed by whoever started them: the verdict does not claim they shared the driver's cores.
        var summary = File.ReadAllText(Path.Combine(dir, "summary.md"));
        Assert.Contains("on the cores they were started with", summary);
        Assert.DoesNotContain("cores with the driver", summary);
    }

    [Fact]
    public async Task The_contract_scenario_on_the_default_pair_measures_the_same_cells_as_a_plain_run()
    {
        var file = Path.Combine(BuildLayout.Discover().RepositoryRoot, "scenarios", "contract.json");
        var outDir = Path.Combine(_dir.FullName, "out");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(new[] { "run", "--scenario", file, "--targets", "wcf-classic,webapi-selfhost", "--out", outDir }.Concat(Short).ToArray());

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = Saved(outDir);
        Assert.Equal(2 * (2 + 2 * 3), run.Cells.Count); // time, json, and the two echoes at 500B, 4KB, 64KB
        Assert.Equal(new[] { "500B", "4KB", "64KB" }, run.Cells.Where(c => c.Key.Endpoint == "echo-put").Select(c => c.SizeLabel).Distinct());
        Assert.All(run.Cells, c => Assert.True(c.Summary is { Requests: > 0, Failed: 0 }, c.Key.ToString()));
        Assert.Contains(Crossovers.Find(run), c => c.Endpoint == "echo-post"); // sizes make a curve, as in a plain run
    }

    [Theory]
    [InlineData("--endpoints", "time", "run: --endpoints is for the contract's endpoints; with --scenario the file's operations (and their sizes) are the cells")]
    [InlineData("--sizes", "4KB", "run: --sizes is for the contract's endpoints")]
    public async Task Contract_options_beside_a_scenario_exit_2_with_one_line(string option, string value, string expected)
    {
        var file = Path.Combine(BuildLayout.Discover().RepositoryRoot, "scenarios", "contract.json");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--scenario", file, option, value, "--out", _dir.FullName);

        Assert.Equal(2, exit);
        Assert.StartsWith("error: " + expected, stderr.Trim());
        Assert.Single(stderr.Trim().Split('\n'));
        Assert.Empty(_dir.GetDirectories());
    }

    [Fact]
    public async Task A_scenario_without_a_request_for_a_run_target_exits_2_before_any_load()
    {
        var file = Path.Combine(_dir.FullName, "one.json");
        File.WriteAllText(file, """{ "operations": [ { "name": "a", "targets": { "kestrel": { "path": "/api/time" } } } ] }""");

        var (exit, _, stderr) = await ComparatorProcess.RunAsync("run", "--scenario", file, "--targets", "kestrel,minimal", "--out", _dir.FullName);

        Assert.Equal(2, exit);
        Assert.Equal($"error: scenario {file}: operation 'a' has no request for target 'minimal': add \"request\" (for every target) or an entry under \"targets\"", stderr.Trim());
        Assert.Empty(_dir.GetDirectories());
    }
}
