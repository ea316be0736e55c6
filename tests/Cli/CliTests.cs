using System.Collections.Generic;
using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Results;
using Comparator.Cli;
using Comparator.Running;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>The command line itself: help, options that accumulate, duplicates and typos, the default command.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class CliTests : IDisposable
{
    private readonly DirectoryInfo _out = Directory.CreateTempSubdirectory("comparator-cli-");

    public void Dispose() => _out.Delete(recursive: true);

    [Theory]
    [InlineData("run --help", "--targets", "--target", "--endpoints", "--sizes", "--concurrency", "--quick", "--compare-to")]
    [InlineData("diff -h", "--threshold", "--from", "--to", "--out")]
    [InlineData("soak -?", "--duration", "--concurrency", "--sizes")]
    [InlineData("--help", "run", "serve", "verify", "soak", "bench-driver", "diff", "report", "targets", "payloads")]
    [InlineData("-h", "run", "diff")]
    [InlineData("help verify", "--targets", "--target")]
    public async Task Help_exits_0_and_names_the_options(string args, params string[] expected)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(args.Split(' '));

        Assert.True(exit == 0, $"exit {exit}\n{stderr}");
        Assert.Equal("", stderr);
        foreach (var name in expected) Assert.Contains(name, stdout);
    }

    [Fact]
    public void Options_that_name_several_things_accumulate_over_repetitions_and_commas()
    {
        var layout = BuildLayout.Discover();
        var options = RunOptionsParser.Parse(new[]
        {
            "--targets", "kestrel", "--target", "old=http://127.0.0.1:9/", "--target", "new=http://127.0.0.1:10/,other=http://127.0.0.1:11/",
            "--endpoints", "time", "--endpoints", "json,echo-post", "--sizes", "500", "--sizes", "4KB,64KB", "--concurrency", "1", "--concurrency", "2,3",
        }, layout);

        Assert.Equal(new[] { "kestrel", "old", "new", "other" }, options.Targets.Plans.Select(t => t.Name));
        Assert.Equal(new[] { false, true, true, true }, options.Targets.Plans.Select(t => t.IsExternal));
        Assert.Equal(new[] { "time", "json", "echo-post" }, options.Cells.Endpoints.Select(e => e.Name));
        Assert.Equal(new long[] { 500, 4096, 65536 }, options.Cells.Sizes.Select(s => s.Spec.Bytes));
        Assert.Equal(new[] { 1, 2, 3 }, options.Cells.Concurrency);
    }

    [Theory]
    [InlineData(null, true, null)]
    [InlineData("auto", true, null)]
    [InlineData("on", true, null)]
    [InlineData("hardware", true, false)]
    [InlineData("simulated", false, true)]
    [InlineData("both", true, true)]
    [InlineData("off", false, false)]
    public void Counters_choose_the_hardwares_count_the_simulated_pass_both_or_neither(string? counters, bool hardware, bool? simulated)
    {
        var args = new List<string> { "--targets", "kestrel" };
        if (counters is not null) args.AddRange(new[] { "--counters", counters });

        var options = RunOptionsParser.Parse(args.ToArray(), BuildLayout.Discover());

        // Asked of the hardware: counted where the machine can, or the one line why not; never asked: the "off" line.
        Assert.Equal(hardware, options.Window.CpuCounting.Line != Comparator.Measuring.CpuCounterAvailability.Off.Line);
        // auto: the simulated pass exactly where the CPU does not count.
        Assert.Equal(simulated ?? !options.Window.CpuCounting.Available, options.Output.Simulation is not null);
    }

    [Theory]
    [InlineData("--quick")]
    [InlineData("--launches", "1")]
    public void Auto_adds_no_simulated_pass_to_a_run_that_claims_nothing(params string[] extra)
    {
        var options = RunOptionsParser.Parse(new[] { "--targets", "kestrel" }.Concat(extra).ToArray(), BuildLayout.Discover());

        Assert.Null(options.Output.Simulation);
    }

    [Fact]
    public void Simulated_launches_set_the_passs_launch_count()
    {
        var options = RunOptionsParser.Parse(new[] { "--targets", "kestrel", "--counters", "simulated", "--simulated-launches", "6" }, BuildLayout.Discover());

        Assert.Equal(6, options.Output.Simulation!.Launches);
        Assert.Equal(SimulationSettings.Default with { Launches = 6, Sequential = false }, options.Output.Simulation);
    }

    [Theory]
    [InlineData("1", "simulated", "one launch gives no spread to judge")]
    [InlineData("21", "simulated", "takes a whole number from 1 to 20")]
    [InlineData("six", "simulated", "takes a whole number from 1 to 20")]
    [InlineData("6", "hardware", "this run has no simulated pass")]
    [InlineData("6", "off", "this run has no simulated pass")]
    public void Simulated_launches_out_of_range_or_without_the_pass_are_refused(string launches, string counters, string said)
    {
        var refused = Assert.Throws<UsageException>(() => RunOptionsParser.Parse(
            new[] { "--targets", "kestrel", "--counters", counters, "--simulated-launches", launches }, BuildLayout.Discover()));

        Assert.Contains("--simulated-launches", refused.Message);
        Assert.Contains(said, refused.Message);
    }

    [Fact]
    public void Simulated_budget_sets_the_passs_budget_and_is_refused_beside_a_fixed_count()
    {
        var options = RunOptionsParser.Parse(new[] { "--targets", "kestrel", "--counters", "simulated", "--simulated-budget", "90s" }, BuildLayout.Discover());
        Assert.Equal(SimulationSettings.Default with { Budget = TimeSpan.FromSeconds(90) }, options.Output.Simulation);
        Assert.True(options.Output.Simulation!.Sequential);

        var both = Assert.Throws<UsageException>(() => RunOptionsParser.Parse(
            new[] { "--targets", "kestrel", "--counters", "simulated", "--simulated-budget", "90s", "--simulated-launches", "4" }, BuildLayout.Discover()));
        Assert.Contains("use one or the other", both.Message);
        var without = Assert.Throws<UsageException>(() => RunOptionsParser.Parse(
            new[] { "--targets", "kestrel", "--counters", "off", "--simulated-budget", "90s" }, BuildLayout.Discover()));
        Assert.Contains("--simulated-budget shapes the simulated pass, and this run has no simulated pass", without.Message);
    }

    [Fact]
    public void Simulated_dotnet_and_warmup_shape_the_pass_and_are_refused_where_they_mean_nothing()
    {
        var options = RunOptionsParser.Parse(new[] { "--targets", "kestrel", "--counters", "simulated", "--simulated-dotnet", "tiered", "--simulated-warmup", "3s" },
            BuildLayout.Discover());
        Assert.Equal(SimulationSettings.Default with { DotNet = DotNetUnderSimulation.Tiered, Warmup = TimeSpan.FromSeconds(3), FirstWarmup = TimeSpan.FromSeconds(4.5) },
            options.Output.Simulation);
        Assert.Equal(DotNetUnderSimulation.OneCompile, RunOptionsParser.Parse(new[] { "--targets", "kestrel", "--counters", "simulated" }, BuildLayout.Discover())
            .Output.Simulation!.DotNet);

        var unknown = Assert.Throws<UsageException>(() => RunOptionsParser.Parse(
            new[] { "--targets", "kestrel", "--counters", "simulated", "--simulated-dotnet", "fast" }, BuildLayout.Discover()));
        Assert.Contains("--simulated-dotnet takes one-compile, no-tiering, tiered, tiered-no-pgo, not 'fast'", unknown.Message);
        var without = Assert.Throws<UsageException>(() => RunOptionsParser.Parse(
            new[] { "--targets", "kestrel", "--counters", "off", "--simulated-dotnet", "tiered" }, BuildLayout.Discover()));
        Assert.Contains("--simulated-dotnet shapes the simulated pass, and this run has no simulated pass", without.Message);
    }

    [Fact]
    public void Under_the_simulator_each_runtime_gets_its_own_settings_and_a_dotnet_one_the_chosen_compilers()
    {
        Assert.Equal(new Dictionary<string, string> { ["MONO_DEBUG"] = "explicit-null-checks" },
            DotNetUnderSimulation.OneCompile.EnvironmentFor(HostRuntime.NetFramework));
        Assert.Equal(new Dictionary<string, string> { ["DOTNET_EnableWriteXorExecute"] = "0", ["DOTNET_ThreadPool_UnfairSemaphoreSpinLimit"] = "0", ["DOTNET_PROCESSOR_COUNT"] = "1", ["DOTNET_ThreadPool_ForceMinWorkerThreads"] = "1", ["DOTNET_ThreadPool_ForceMaxWorkerThreads"] = "1", ["DOTNET_TieredCompilation"] = "0", ["DOTNET_ReadyToRun"] = "0" },
            DotNetUnderSimulation.OneCompile.EnvironmentFor(HostRuntime.DotNet));
        Assert.Equal(new Dictionary<string, string> { ["DOTNET_EnableWriteXorExecute"] = "0", ["DOTNET_ThreadPool_UnfairSemaphoreSpinLimit"] = "0", ["DOTNET_PROCESSOR_COUNT"] = "1", ["DOTNET_ThreadPool_ForceMinWorkerThreads"] = "1", ["DOTNET_ThreadPool_ForceMaxWorkerThreads"] = "1" }, DotNetUnderSimulation.Tiered.EnvironmentFor(HostRuntime.DotNet));
        Assert.Equal(new Dictionary<string, string> { ["DOTNET_EnableWriteXorExecute"] = "0", ["DOTNET_ThreadPool_UnfairSemaphoreSpinLimit"] = "0", ["DOTNET_PROCESSOR_COUNT"] = "1", ["DOTNET_ThreadPool_ForceMinWorkerThreads"] = "1", ["DOTNET_ThreadPool_ForceMaxWorkerThreads"] = "1", ["DOTNET_TieredPGO"] = "0" },
            DotNetUnderSimulation.Find("TIERED-NO-PGO")!.EnvironmentFor(HostRuntime.DotNet));
    }

    [Fact]
    public void A_target_that_one_pool_worker_would_deadlock_runs_with_its_own_count_and_only_it()
    {
        var wcf = Comparator.Targets.TargetCatalog.Find("wcf")!;
        Assert.Equal(2, wcf.SimulatedWorkers);
        Assert.Null(Comparator.Targets.TargetCatalog.Find("kestrel")!.SimulatedWorkers);

        var own = DotNetUnderSimulation.OneCompile.EnvironmentFor(HostRuntime.DotNet, wcf.SimulatedWorkers);
        Assert.Equal("2", own["DOTNET_ThreadPool_ForceMinWorkerThreads"]);
        Assert.Equal("2", own["DOTNET_ThreadPool_ForceMaxWorkerThreads"]);
        Assert.Equal("0", own["DOTNET_TieredCompilation"]);
        // Mono has no such pool: its variables are its own whatever the count.
        Assert.Equal(new Dictionary<string, string> { ["MONO_DEBUG"] = "explicit-null-checks" },
            DotNetUnderSimulation.OneCompile.EnvironmentFor(HostRuntime.NetFramework, 2));
    }

    [Fact]
    public async Task Repeated_endpoints_and_sizes_are_all_measured()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--targets", "kestrel", "--endpoints", "time", "--endpoints", "echo-post",
            "--sizes", "500", "--sizes", "4KB,64KB", "--warmup", "0", "--first-warmup", "0", "--duration", "0.2s", "--repeat", "1", "--launches", "1", "--rate", "none", "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = Results();
        Assert.Equal(new[] { "echo-post", "time" }, run.Cells.Select(c => c.Key.Endpoint).Distinct().OrderBy(e => e));
        Assert.Equal(new long[] { 500, 4096, 65536 }, run.Cells.Where(c => c.Key.Endpoint == "echo-post").Select(c => c.Key.SizeBytes).OrderBy(b => b));
        Assert.All(run.Cells, c => Assert.True(c.Summary is { Requests: > 0 }, $"{c.Key}: not measured"));
    }

    [Fact]
    public async Task Repeated_external_targets_are_measured_next_to_a_built_one_and_named_with_their_url()
    {
        var launcher = new TargetLauncher(BuildLayout.Discover());
        await using var a = await launcher.StartAsync(TargetCatalog.Find("kestrel")!, ServiceSwitches.Default);
        await using var b = await launcher.StartAsync(TargetCatalog.Find("httplistener")!, ServiceSwitches.Default);
        var urlA = a.BaseUrl.ToString().TrimEnd('/');
        var urlB = b.BaseUrl.ToString().TrimEnd('/');

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--verbose", "--targets", "kestrel", "--target", "ext-a=" + urlA, "--target", "ext-b=" + urlB,
            "--endpoints", "time", "--warmup", "0", "--first-warmup", "0", "--duration", "0.2s", "--repeat", "1", "--launches", "1", "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = Results();
        Assert.Equal(new[] { "ext-a", "ext-b", "kestrel" }, run.Cells.Select(c => c.Key.Target).Distinct().OrderBy(t => t));
        Assert.All(run.Cells, c => Assert.True(c.Summary is { Requests: > 0 }, $"{c.Key}: not measured"));
        Assert.Equal(urlA, run.Targets.Single(t => t.Name == "ext-a") is { External: true } ta ? ta.BaseUrl : null);
        Assert.Equal(urlB, run.Targets.Single(t => t.Name == "ext-b") is { External: true } tb ? tb.BaseUrl : null);
        Assert.False(run.Targets.Single(t => t.Name == "kestrel").External);
        Assert.Contains($"external target ext-a: {urlA}", stdout);
        var markdown = File.ReadAllText(Path.Combine(_out.GetDirectories().Single().FullName, "report.md"));
        Assert.Contains($"external service at {urlA}", markdown); // the report names each external target with its URL
        Assert.Contains($"external service at {urlB}", markdown);
    }

    [Theory]
    [InlineData("run: --duration given twice ('1s', '2s')", "run", "--out", "OUT", "--duration", "1s", "--duration", "2s")]
    [InlineData("run: --warmup given twice", "--out", "OUT", "--warmup", "0", "--warmup", "1s")]
    [InlineData("run: --quick given twice", "run", "--out", "OUT", "--quick", "--quick")]
    [InlineData("soak: --concurrency given twice", "soak", "--out", "OUT", "--concurrency", "8", "--concurrency", "16")]
    [InlineData("diff: --threshold given twice", "diff", "a.json", "b.json", "--threshold", "5%", "--threshold", "10%")]
    [InlineData("diff: --threshold 0.05 is ambiguous (a fraction or a percentage?): write 5% or 0.05%", "diff", "a.json", "b.json", "--threshold", "0.05")]
    [InlineData("run: unknown option '--endpoint'; did you mean '--endpoints'?", "run", "--out", "OUT", "--endpoint", "time")]
    [InlineData("run: unknown option '--endpoint'; did you mean '--endpoints'?", "--out", "OUT", "--endpoint", "time")]
    [InlineData("verify: unknown option '--targt'; did you mean '--target'?", "verify", "--targt", "a=http://127.0.0.1:9")]
    [InlineData("run: --out needs a value", "run", "--out", "--quick", "--repeat", "1")]
    [InlineData("run: unexpected argument '4KB'", "run", "--out", "OUT", "--sizes", "500", "4KB")]
    [InlineData("unknown command 'rnu'; did you mean 'run'?", "rnu")]
    [InlineData("run: --tcp-nodelay takes on or off, not 'yes'", "run", "--out", "OUT", "--tcp-nodelay", "yes")]
    [InlineData("run: --counters takes hardware, simulated, both, off or auto, not 'yes'", "run", "--out", "OUT", "--counters", "yes")]
    [InlineData("soak: --tcp-nodelay takes on or off, not '1'", "soak", "--out", "OUT", "--tcp-nodelay", "1")]
    [InlineData("run: --ports takes a range of ports from 1 to 65535 such as 8100-8199, not '8199-8100'", "run", "--out", "OUT", "--ports", "8199-8100")]
    [InlineData("serve: --ports takes a range of ports from 1 to 65535 such as 8100-8199, not '8100-70000'", "serve", "--ports", "8100-70000")]
    public async Task Mistakes_exit_2_with_one_line(string expected, params string[] args)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(args.Select(a => a == "OUT" ? _out.FullName : a).ToArray());

        Assert.Equal(2, exit);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("error: ", line);
        Assert.Contains(expected, line);
        Assert.Equal("", stdout);
        Assert.Empty(_out.GetDirectories());
    }

    [Fact]
    public async Task Quick_with_no_command_runs()
    {
        // One endpoint: that options alone mean `run` of the default pair is shown by any cell (RunCommandTests measures every one).
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("--quick", "--endpoints", "time", "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = Results();
        Assert.Equal(TargetCatalog.DefaultRunTargets.Select(t => t.Name), run.Cells.Select(c => c.Key.Target).Distinct());
        Assert.All(run.Cells, c => Assert.Single(c.Repeats));
    }

    private RunResult Results() =>
        ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.json")), "results.json");
}
