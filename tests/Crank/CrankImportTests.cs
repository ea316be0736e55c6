using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.Json;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Crank;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Xunit;
using Comparator.Statistics;
using Comparator.Reports.Exporters;

namespace Comparator.Tests;

/// <summary>
/// import-crank: what crank's agents sampled of the service processes, put into the comparator's
/// windows. The samples are built here the way the agent takes them (every second, the percent of
/// one core used since the sample before), so the arithmetic is checked against known CPU.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public class CrankImportTests
{
    private static readonly DateTimeOffset T0 = DateTimeOffset.Parse("2026-11-25T06:00:00Z");

    /// <summary>Samples of a process busy at <paramref name="cores"/> over [busyFrom, busyTo) and idle otherwise, one a second from T0.</summary>
    private static List<CrankSample> Samples(double cores, double busyFrom, double busyTo, int seconds = 30, double offset = 0.37) =>
        Samples(cores, new[] { (busyFrom, busyTo) }, seconds, offset);

    private static List<CrankSample> Samples(double cores, (double From, double To)[] busyPeriods, int seconds = 40, double offset = 0.37)
    {
        var list = new List<CrankSample>();
        for (var i = 0; i <= seconds; i++)
        {
            double a = offset + i - 1, b = offset + i;
            var busy = busyPeriods.Sum(p => Math.Max(0, Math.Min(b, p.To) - Math.Max(a, p.From)));
            list.Add(new CrankSample(CrankResultFile.CpuRaw, T0.AddSeconds(b), Math.Round(100 * cores * busy)));
            list.Add(new CrankSample(CrankResultFile.WorkingSet, T0.AddSeconds(b), busy > 0 ? 80 : 40));
        }
        return list;
    }

    private static CrankJob Job(string name, List<CrankSample> samples, int cores = 2) =>
        new(name, samples, cores, "Linux", "Unspecified", "0.2.0-alpha", new Dictionary<string, double>(), new Dictionary<string, string>());

    [Fact]
    public void A_windows_cpu_is_the_rate_of_the_samples_inside_it_not_diluted_by_the_idle_time_around_it()
    {
        // Busy at 0.8 cores from 3 s to 8 s, measured from 3.3 s for 4.4 s: the samples that straddle its
        // edges also hold idle time, and splitting them by time would read less than the process used.
        var cpu = AgentCpu.Of(Job("a", Samples(0.8, 3.0, 8.0)));
        var w = cpu.Window(T0.AddSeconds(3.3), 4.4)!;
        Assert.Equal(0.8 * 4.4, w.CpuSeconds, 6);
        Assert.Equal(4.0, w.CoveredSeconds, 6); // (3.37,4.37], (4.37,5.37], (5.37,6.37], (6.37,7.37]
        Assert.Equal(80, w.PeakWorkingSetMb);
    }

    [Fact]
    public void A_sample_the_agent_dropped_leaves_a_gap_and_does_not_stretch_the_next_one_over_it()
    {
        // Busy at 0.6 cores throughout; the agent dropped the sample at 5.37 s (it does when it reads more
        // than 100% of the machine). The next sample is still the rate of its own second: the window is read
        // from the three whole seconds it holds, at 0.6 cores, not refused for the gap.
        var samples = Samples(0.6, 0, 40).Where(s => s.Timestamp != T0.AddSeconds(5.37)).ToList();
        var w = AgentCpu.Of(Job("a", samples)).Window(T0.AddSeconds(3.3), 4.4)!;
        Assert.Equal(3.0, w.CoveredSeconds, 6); // (3.37,4.37], (5.37,6.37], (6.37,7.37]: (4.37,5.37] is the gap
        Assert.Equal(0.6 * 4.4, w.CpuSeconds, 6);
    }

    [Fact]
    public void A_window_shorter_than_the_agents_sampling_is_not_read_rather_than_read_wrong()
    {
        var cpu = AgentCpu.Of(Job("a", Samples(1.0, 3.0, 4.0)));
        Assert.Null(cpu.Window(T0.AddSeconds(3.0), 1.0));
        Assert.True(cpu.Overlaps(T0.AddSeconds(3.0), 1.0));
        Assert.False(cpu.Overlaps(T0.AddSeconds(100), 5));
    }

    [Fact]
    public void A_dotnet_jobs_runtime_counters_are_read_over_the_seconds_inside_each_window()
    {
        var samples = new List<CrankSample>();
        for (var i = 0; i <= 20; i++)
        {
            var at = T0.AddSeconds(i + 0.5);
            void Add(string name, double value) => samples.Add(new CrankSample(AgentRuntimeCounters.Prefix + name, at, value));
            Add("threadpool-thread-count", i < 10 ? 4 : 4 + (i - 9)); // the pool adds a thread a second from 10 s
            Add("threadpool-queue-length", i < 10 ? 0 : 6);
            Add("threadpool-completed-items-count", 20000);
            Add("gen-0-gc-count", i % 2);
            Add("gen-1-gc-count", 0);
            Add("gen-2-gc-count", i == 12 ? 1 : 0);
            Add("time-in-gc", 2);
            Add("alloc-rate", 50_000_000);
            Add("monitor-lock-contention-count", 3);
        }
        var counters = AgentRuntimeCounters.Of(Job("kestrel", samples))!;

        var calm = counters.Window(T0.AddSeconds(2), 5)!; // samples at 2.5 .. 6.5
        Assert.Equal(5, calm.Samples);
        Assert.Equal(0, calm.ThreadsInjected);
        Assert.Equal(0, calm.ThreadPoolQueueLengthMedian);
        Assert.Equal(20000, calm.ThreadPoolCompletedItemsPerSecond);
        Assert.Equal(2, calm.Gen0Collections); // 3.5 and 5.5
        Assert.Equal(50_000_000, calm.AllocatedBytesPerSecond);

        var starving = counters.Window(T0.AddSeconds(10), 5)!; // 10.5 .. 14.5
        Assert.Equal(6, starving.ThreadPoolQueueLengthMedian);
        Assert.Equal(4, starving.ThreadsInjected); // 5 at 10.5 to 9 at 14.5
        Assert.Equal(1, starving.Gen2Collections);
        Assert.True(CellFlags.IsStarved(ResultsTests.Window(2000, serverCpu: 1.0, elapsed: 5) with { RuntimeCounters = starving }, 100, 2));

        Assert.Null(AgentRuntimeCounters.Of(Job("mono", Samples(0.5, 0, 10)))); // the agent collected none: a Mono process
    }

    [Fact]
    public void The_controllers_file_is_read_for_each_jobs_samples_agent_and_text_measurements()
    {
        var json = """
        {"jobResults":{"jobs":{
          "wcf-classic":{"results":{"benchmarks/cpu":41.0},"measurements":[[
              {"timestamp":"2026-11-25T06:00:01.5Z","name":"benchmarks/cpu/raw","value":80.0},
              {"timestamp":"2026-11-25T06:00:02.5Z","name":"benchmarks/cpu/raw","value":82.0},
              {"timestamp":"2026-11-25T06:00:02.5Z","name":"benchmarks/working-set","value":78.0}]],
            "environment":{"hw":"Unspecified","env":"Unspecified","os":"Linux","arch":"X64","proc":2,"version":"0.2.0-alpha+e5f71f49"}},
          "load":{"measurements":[[{"timestamp":"2026-11-25T06:00:03Z","name":"comparator/results","value":"{}"}]]}}}}
        """;
        var file = CrankResultFile.Parse(json, "crank.json");
        var wcf = file.Job("WCF-CLASSIC")!;
        Assert.Equal(2, wcf.Series(CrankResultFile.CpuRaw).Count);
        Assert.Equal(T0.AddSeconds(2.5), wcf.Series(CrankResultFile.CpuRaw)[1].Timestamp);
        Assert.Equal(2, wcf.Cores);
        Assert.Equal("Linux", wcf.OperatingSystem);
        Assert.Equal(41.0, wcf.Results["benchmarks/cpu"]);
        Assert.Equal("{}", file.Job("load")!.Texts[CrankStatistics.ResultsMeasurement]);
        Assert.Throws<InvalidDataException>(() => CrankResultFile.Parse("{\"jobs\":{}}", "x.json"));
        Assert.Throws<InvalidDataException>(() => CrankResultFile.Parse("not json", "x.json"));
    }

    /// <summary>A run of two external targets (as the load job measures them): windows of 5 s, a at 0.9 cores' load from 2 s, b from 10 s.</summary>
    private static RunResult ExternalRun(double? machineBeyondDriver)
    {
        var sample = ResultsTests.Sample();
        Measurement W(double start) => ResultsTests.Window(2000, clientCpu: 0.5 * 5, serverCpu: null, elapsed: 5)
            .With(Metrics.MachineCpuSeconds, machineBeyondDriver is double m ? 0.5 * 5 + m : null) with
        {
            WindowStartedAt = T0.AddSeconds(start),
            Launch = 0,
            Round = 0,
        };
        CellResult Cell(string target, double start) => sample.Cells[0] with
        {
            Key = sample.Cells[0].Key with { Target = target, Driver = "socket" },
            Runtime = "external",
            Repeats = new[] { W(start), W(start + 16) },
            Summary = W(start),
            Flags = new[] { CellFlags.NoServerCpu },
            Bottleneck = new CellBottleneck(CellBottleneck.Unknown, null, null, 50, null),
        };
        return sample with
        {
            Spec = sample.Spec with { Targets = new[] { "wcf-classic", "webapi-selfhost" }, BaselineTarget = "webapi-selfhost", Drivers = new[] { new DriverInfo("socket", "test") } },
            Targets = new[] { "wcf-classic", "webapi-selfhost" }.Select(n => new TargetInfo(n, "external service at http://10.77.0.2:1", "unknown", "unknown", "http://10.77.0.2:1", true, true, null)).ToList(),
            Cells = new[] { Cell("wcf-classic", 2), Cell("webapi-selfhost", 10) },
        };
    }

    private static CrankResultFile Crank() => new("crank.json", new[]
    {
        Job("wcf-classic", Samples(0.9, new[] { (1.5, 7.5), (17.5, 23.5) })),
        Job("webapi-selfhost", Samples(0.6, new[] { (9.5, 15.5), (25.5, 31.5) })),
        Job("load", new List<CrankSample>()),
    });

    [Fact]
    public void Import_gives_every_window_its_servers_cpu_and_judges_the_cells_again_with_it()
    {
        var run = CrankImport.Apply(ExternalRun(machineBeyondDriver: 0.9 * 5), Crank(), new Dictionary<string, string>());

        var wcf = Assert.Single(run.Cells, c => c.Key.Target == "wcf-classic");
        Assert.Equal(0.9 * 5, wcf.Repeats[0].ServerCpuSeconds!.Value, 6);
        Assert.Equal(0.9 * 5 * 1e6 / 10000, wcf.Summary!.ServerCpuUsPerRequest!.Value, 3);
        Assert.Equal(80, wcf.Repeats[0].ServerPeakRssMb);
        Assert.DoesNotContain(CellFlags.NoServerCpu, wcf.Flags);
        Assert.NotEqual(CellBottleneck.Unknown, wcf.Bottleneck!.Kind);
        Assert.Equal(Targets.TargetCatalog.Find("wcf-classic")!.Runtime, wcf.Runtime); // the catalogue's runtime, not "external"
        Assert.Contains("crank job 'wcf-classic' on an agent with 2 logical cores", Assert.Single(run.Targets, t => t.Name == "wcf-classic").Stack);
        Assert.NotNull(run.Verdicts);
        Assert.Equal(new[] { "wcf-classic", "webapi-selfhost", "load" }, run.Spec.Crank!.Jobs.Select(j => j.Job));
        Assert.Null(run.Spec.Crank.Jobs.Single(j => j.Job == "load").Target);
    }

    [Fact]
    public void The_servers_cpu_showing_up_on_the_drivers_machine_means_they_shared_its_cores()
    {
        var shared = CrankImport.Apply(ExternalRun(machineBeyondDriver: 0.9 * 5), Crank(), new Dictionary<string, string>());
        Assert.True(shared.Spec.Crank!.SharedCores);
        Assert.Null(shared.Spec.SeparateServerCores);
        Assert.StartsWith("one machine's cores", shared.Spec.Crank.Placement);

        var apart = CrankImport.Apply(ExternalRun(machineBeyondDriver: 0.05 * 5), Crank(), new Dictionary<string, string>());
        Assert.False(apart.Spec.Crank!.SharedCores);
        Assert.Equal(2, apart.Spec.SeparateServerCores);
        Assert.StartsWith("separate machines", apart.Spec.Crank.Placement);
        // On its own machine the server's share is its own CPU on its own cores: 0.9 of min(100, 2) cores is 0.45.
        Assert.Equal(0.45, apart.Cells.Single(c => c.Key.Target == "wcf-classic").Bottleneck!.BusyShare!.Value, 3);
        Assert.Equal(0.9 + 0.5, shared.Cells.Single(c => c.Key.Target == "wcf-classic").Bottleneck!.CoresBusy!.Value, 3);
    }

    [Fact]
    public void A_crank_file_of_another_run_or_without_the_targets_jobs_is_refused_with_what_it_holds()
    {
        var missing = Assert.Throws<InvalidDataException>(() =>
            CrankImport.Apply(ExternalRun(0), new CrankResultFile("crank.json", new[] { Crank().Jobs[0], Crank().Jobs[2] }), new Dictionary<string, string>()));
        Assert.Contains("no job 'webapi-selfhost'", missing.Message);
        Assert.Contains("its jobs: wcf-classic, load", missing.Message);

        var mapped = CrankImport.Apply(ExternalRun(0), new CrankResultFile("crank.json", new[] { Crank().Jobs[0], Crank().Jobs[1] with { Name = "application" } }),
            new Dictionary<string, string> { ["webapi-selfhost"] = "application" });
        Assert.All(mapped.Cells.SelectMany(c => c.Repeats), r => Assert.NotNull(r.ServerCpuSeconds));

        var later = new CrankResultFile("crank.json", Crank().Jobs.Select(j => j with { Samples = j.Samples.Select(s => s with { Timestamp = s.Timestamp.AddHours(1) }).ToList() }).ToList());
        Assert.Contains("is it the same run?", Assert.Throws<InvalidDataException>(() => CrankImport.Apply(ExternalRun(0), later, new Dictionary<string, string>())).Message);
    }

    [Fact]
    public void What_run_crank_prints_is_what_crank_keeps_and_import_reads_back_whole()
    {
        var run = ExternalRun(0.2);
        run = run with { Verdicts = PairVerdicts.Build(run) };
        var output = new StringWriter();
        CrankStatistics.Write(run, output);
        var lines = output.ToString().Split('\n').Select(l => l.TrimEnd('\r')).ToList();
        Assert.Equal(CrankStatistics.Start, lines[0]);
        Assert.Equal(CrankStatistics.End, lines[2]);

        // The agent parses the block (crank's JobStatistics) and the controller writes its measurements under the job.
        using var block = JsonDocument.Parse(lines[1]);
        Assert.Contains(block.RootElement.GetProperty("Metadata").EnumerateArray(), m => m.GetProperty("Name").GetString() == "comparator/wcf-classic/rps");
        var crankJson = "{\"jobResults\":{\"jobs\":{\"load\":{\"measurements\":[" + block.RootElement.GetProperty("Measurements").GetRawText() + "]}}}}";
        var back = CrankStatistics.ReadRun(CrankResultFile.Parse(crankJson, "crank.json"), out var job);
        Assert.Equal("load", job);
        Assert.Equal(ResultStore.Serialize(run), ResultStore.Serialize(back!));
    }

    private static string Recorded => Path.Combine(AppContext.BaseDirectory, "Fixtures", "crank", "default-pair-two-namespaces.json");

    /// <summary>
    /// The file crank's controller wrote for crank/comparator.yml's default-pair scenario (--duration 5s,
    /// time and echo-post 500B, 2 launches), with the targets on one agent and the comparator on
    /// another, each agent in a network namespace of its own on one host.
    /// </summary>
    [Fact]
    public void A_recorded_crank_run_of_the_default_pair_on_two_agents_imports_whole()
    {
        var crank = CrankResultFile.Load(Recorded);
        var run = CrankStatistics.ReadRun(crank, out var job)!;
        Assert.Equal("load", job);
        var measured = run.Cells.Where(c => c.Repeats.Count > 0).ToList();
        Assert.NotEmpty(measured);
        Assert.All(measured.SelectMany(c => c.Repeats), r => Assert.Null(r.ServerCpuSeconds)); // not the load job's to read

        var imported = CrankImport.Apply(run, crank, new Dictionary<string, string>());
        Assert.All(imported.Cells.Where(c => c.Repeats.Count > 0).SelectMany(c => c.Repeats), r =>
        {
            Assert.True(r.ServerCpuSeconds > 0);
            Assert.True(r.ServerPeakRssMb > 0);
        });
        // Two namespaces of one host: the server's CPU shows up in the client's /proc/stat, so they shared its cores.
        Assert.True(imported.Spec.Crank!.SharedCores);
        Assert.Equal(new[] { "wcf-classic", "webapi-selfhost" }, imported.Spec.Crank.Jobs.Where(j => j.Target is not null).Select(j => j.Target).OrderBy(t => t));
        Assert.All(imported.Spec.Crank.Jobs, j => Assert.Equal(2, j.Cores));
        Assert.Equal(2, imported.Headline().Count); // time and echo-post 500B, decided again
        Assert.Contains("measured through crank", new MarkdownReport().Render(new RunReport(imported)));
    }

    [Fact]
    public async Task Import_writes_a_run_directory_that_report_and_diff_read_like_a_local_run()
    {
        var dir = Directory.CreateTempSubdirectory("comparator-crank-");
        try
        {
            var import = await ComparatorProcess.RunAsync("import-crank", Recorded, "--out", dir.FullName);
            Assert.True(import.ExitCode == 0, import.Stderr);
            Assert.Contains("one machine's cores", import.Stdout);
            var runDir = Assert.Single(dir.GetDirectories());
            foreach (var file in new[] { "results.json", "report.md", "report.html", "summary.md" })
                Assert.True(File.Exists(Path.Combine(runDir.FullName, file)), file);
            Assert.Contains("Measured through crank", File.ReadAllText(Path.Combine(runDir.FullName, "summary.md")));

            var diff = await ComparatorProcess.RunAsync("diff", runDir.FullName, "--from", "webapi-selfhost", "--to", "wcf-classic");
            // The recorded pair's two launches apart give req/s intervals far wider than ±5% (-88.7%..+775.8% on time):
            // no regression, nothing equivalent either, so the diff cannot gate and says so with exit 3.
            Assert.True(diff.ExitCode == 3, $"exit {diff.ExitCode}\n{diff.Stdout}\n{diff.Stderr}");
            Assert.Contains("**Not settled**: no regression found, but 2 of 2 cells are neither improved nor equivalent within ±5.0% in the figure that decides each", diff.Stdout);
            Assert.Contains("+1.7% (99% interval -88.7%..+775.8%)", diff.Stdout);
            Assert.Contains("server cpu µs/req", diff.Stdout);
        }
        finally { dir.Delete(recursive: true); }
    }

    [Fact]
    public async Task The_command_says_in_one_line_what_is_wrong_with_its_files_and_exits_2()
    {
        var none = await ComparatorProcess.RunAsync("import-crank");
        Assert.Equal(2, none.ExitCode);
        Assert.StartsWith("error: import-crank: needs crank's result file", none.Stderr);

        var absent = await ComparatorProcess.RunAsync("import-crank", "/nonexistent/crank.json");
        Assert.Equal(2, absent.ExitCode);
        Assert.Contains("no crank result file at /nonexistent/crank.json", absent.Stderr);

        var notCrank = Path.GetTempFileName();
        try
        {
            File.WriteAllText(notCrank, "{\"schemaVersion\":2}");
            var wrong = await ComparatorProcess.RunAsync("import-crank", notCrank);
            Assert.Equal(2, wrong.ExitCode);
            Assert.Contains("is not a crank result", wrong.Stderr);
            Assert.Single(wrong.Stderr.Trim().Split('\n'));
        }
        finally { File.Delete(notCrank); }
    }
}
