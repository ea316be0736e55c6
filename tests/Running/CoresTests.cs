using System;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Xunit;
using Comparator.Reports.Text;

namespace Comparator.Tests;

/// <summary>The servers' cores as an axis (--server-cores): parsing, the pinning as the targets see it, and context switches read from every thread.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class CoresTests : IDisposable
{
    private readonly DirectoryInfo _out = Directory.CreateTempSubdirectory("comparator-cores-");

    public void Dispose() => _out.Delete(recursive: true);

    [Fact]
    public void Counts_take_the_last_cpus_and_leave_the_rest_to_the_driver()
    {
        var allotments = CoreAllotment.Parse("1,shared", 2).Value;
        Assert.Equal(new[] { ("1", "1", "0"), ("shared", (string?)null, (string?)null) }.Select(a => (a.Item1, a.Item2, a.Item3)),
            allotments.Select(a => (a.Label, a.ServerCpus, a.DriverCpus)));
        Assert.Equal("on 1 core (CPU 1), the driver on CPU 0", allotments[0].Description);
        Assert.Equal("sharing 2 cores with the driver", allotments[1].Description);
        var eight = CoreAllotment.Parse("3", 8).Value.Single();
        Assert.Equal(("5-7", "0-4"), (eight.ServerCpus, eight.DriverCpus));
    }

    [Theory]
    [InlineData(2, "1,shared")]
    [InlineData(8, "1,2,4,shared")]
    [InlineData(1, "shared")]
    public void All_doubles_while_a_core_is_left_for_the_driver_then_shares(int cores, string expected) =>
        Assert.Equal(expected, string.Join(",", CoreAllotment.Parse("all", cores).Value.Select(a => a.Label)));

    [Theory]
    [InlineData("0", "--server-cores takes core counts from 1, shared or all, not '0'")]
    [InlineData("abc", "not 'abc'")]
    [InlineData("3", "--server-cores 3: this machine has 2 cores")]
    [InlineData("2,shared", "names the allotment 'shared' twice")]
    [InlineData("1,,2", "takes a list")]
    public void Bad_values_are_one_line(string raw, string expected)
    {
        var error = CoreAllotment.Parse(raw, 2).Error;
        Assert.Contains(expected, error);
        Assert.DoesNotContain('\n', error);
    }

    [Theory]
    [InlineData("--server-cores takes core counts from 1, shared or all, not '0'", "--server-cores", "0")]
    [InlineData("--server-cores takes core counts from 1, shared or all, not 'abc'", "--server-cores", "abc")]
    [InlineData("--server-cores 999: this machine has", "--server-cores", "999")]
    [InlineData("--server-cores and --pin both place the targets", "--server-cores", "1", "--pin", "0:1")]
    public async Task The_command_refuses_bad_values_with_one_line_and_exit_2(string expected, params string[] args)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(new[] { "run", "--out", _out.FullName }.Concat(args).ToArray());

        Assert.Equal(2, exit);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("run: " + expected, line);
        Assert.Empty(_out.GetDirectories());
    }

    [Fact]
    public void Context_switches_are_summed_over_every_thread()
    {
        // A thread of its own sleeps 200 times, each a voluntary switch of that thread and not of the main one; read while it lives.
        // Other threads of the test host come and go, so the sum is held to the two living threads' own counts, read just before it
        // (a living thread's count only grows), not to an earlier sum.
        using var slept = new ManualResetEventSlim();
        using var stop = new ManualResetEventSlim();
        var sleeperTid = 0;
        var sleeper = new Thread(() =>
        {
            sleeperTid = int.Parse(Path.GetFileName(new FileInfo("/proc/thread-self").LinkTarget!), System.Globalization.CultureInfo.InvariantCulture);
            for (var i = 0; i < 200; i++) Thread.Sleep(1);
            slept.Set();
            stop.Wait();
        });
        sleeper.Start();
        slept.Wait();
        var sleeperOnly = Switches($"/proc/{Environment.ProcessId}/task/{sleeperTid}/status");
        var mainThreadOnly = Switches($"/proc/{Environment.ProcessId}/status");
        var during = ProcessSampler.ThreadSwitches(Environment.ProcessId)!.Value;
        stop.Set();
        sleeper.Join();

        Assert.True(sleeperOnly >= 200, $"the sleeping thread made {sleeperOnly} voluntary switches");
        Assert.True(during.Voluntary >= mainThreadOnly + sleeperOnly, $"every thread {during.Voluntary}, the main thread {mainThreadOnly} and the sleeper {sleeperOnly}");
        Assert.True(during.Threads > 1);
        Assert.False(string.IsNullOrEmpty(during.CpusAllowed));
    }

    private static long Switches(string status) => File.ReadLines(status)
        .Where(l => l.StartsWith("voluntary_ctxt_switches:", StringComparison.Ordinal)).Select(l => long.Parse(l.Split(':')[1].Trim())).Single();

    [SkippableFact]
    public async Task A_run_under_two_allotments_pins_the_targets_and_keeps_the_cells_apart()
    {
        Skip.If(Environment.ProcessorCount < 2, "one core: nothing to pin apart");
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--targets", "kestrel,httplistener", "--endpoints", "time",
            "--server-cores", "1,shared", "--launches", "2", "--warmup", "0", "--first-warmup", "0", "--duration", "0.2s", "--rate", "none", "--steady-bound", "0", "--out", _out.FullName);
        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var directory = Assert.Single(_out.GetDirectories()).FullName;
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(directory, "results.json")), "results.json");

        var last = (Environment.ProcessorCount - 1).ToString();
        Assert.Equal(new[] { "1", "shared" }, run.Spec.Cores!.Select(c => c.Label));
        Assert.Equal(4, run.Cells.Count);
        // Every window read the server's allowed CPUs back from /proc: one core, then all of them.
        Assert.All(run.Cells.Where(c => c.Key.Cores == "1").SelectMany(c => c.Repeats), m => Assert.Equal(last, m.Threads!.CpusAllowed));
        Assert.All(run.Cells.Where(c => c.Key.Cores == "shared").SelectMany(c => c.Repeats), m => Assert.Equal($"0-{last}", m.Threads!.CpusAllowed));
        Assert.All(run.Cells.SelectMany(c => c.Repeats), m => Assert.True(m.Threads!.ThreadsAtEnd > 1 && m.SwitchesPerRequest > 0));
        Assert.Equal(new[] { "1", "shared" }, run.Verdicts!.Where(v => v.Metric == Metrics.RequestsPerSecond.VerdictId).Select(v => v.Cores).OrderBy(c => c));
        // Each allotment is started afresh in each launch.
        Assert.Equal(4, stderr.Split('\n').Count(l => l.Contains("kestrel: starting")));

        var verdict = File.ReadAllText(Path.Combine(directory, "summary.md"));
        Assert.Contains("httplistener against kestrel (baseline) across cores: on 1 core, sharing", verdict);
        var report = File.ReadAllText(Path.Combine(directory, "report.md"));
        Assert.Contains("- **time on 1 core**: ", report);
        Assert.Contains("## Verdict: httplistener against kestrel (baseline), on 1 core", report);
        Assert.Contains("## Side by side, sharing", report);
        Assert.True(File.Exists(Path.Combine(directory, "charts", "cores.png")));
        // The forest plot draws the judgments with an interval; two launches on a busy machine may give none (a cell wait-bound or
        // overloaded), so the chart is there exactly when the allotment had one.
        Assert.Equal(run.Verdicts!.Any(v => v.Cores == "1" && v.RatioLow is > 0 && v.RatioHigh is > 0 && v.Ratio is > 0),
            File.Exists(Path.Combine(directory, "charts", "judgments-1core.png")));
        var csv = File.ReadAllLines(Path.Combine(directory, "results.csv"));
        var header = csv[0].Split(',');
        Assert.Contains("switches_per_request", header);
        Assert.Equal(new[] { "1", "1", "shared", "shared" }, csv.Skip(1).Select(l => l.Split(',')[Array.IndexOf(header, "cores")]).OrderBy(c => c));
    }
}
