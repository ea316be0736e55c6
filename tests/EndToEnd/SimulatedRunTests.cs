using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Results;
using Xunit;

namespace Comparator.Tests;

/// <summary>`--counters simulated` where it cannot count (no valgrind; a .NET target): one line says so, and the run completes with every other figure.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
public sealed class SimulatedRunTests : IDisposable
{
    private readonly DirectoryInfo _out = Directory.CreateTempSubdirectory("comparator-simulated-");

    public void Dispose() => _out.Delete(recursive: true);

    [Fact]
    public async Task Without_valgrind_one_line_says_so_and_the_run_completes()
    {
        // A PATH with no valgrind on it (the kestrel target runs under the comparator's own dotnet host, found without PATH).
        var empty = Directory.CreateDirectory(Path.Combine(_out.FullName, "empty-path")).FullName;
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(new Dictionary<string, string> { ["PATH"] = empty },
            "run", "--counters", "simulated", "--targets", "kestrel", "--endpoints", "time", "--launches", "1", "--rate", "none",
            "--warmup", "0", "--first-warmup", "0", "--duration", "0.3s", "--repeat", "1", "--steady-bound", "0", "--out", Path.Combine(_out.FullName, "runs"));

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        const string line = "simulated instructions: not counted: valgrind is not installed (Debian package valgrind: apt-get install valgrind)";
        Assert.Single((stdout + stderr).Split('\n'), l => l.Contains(line));
        var run = ResultStore.Deserialize(File.ReadAllText(Directory.GetFiles(Path.Combine(_out.FullName, "runs"), "results.json", SearchOption.AllDirectories).Single()), "results.json");
        Assert.Equal(line, run.Spec.SimulatedCounters);
        Assert.All(run.Cells, c => Assert.Null(c.Simulated));
        Assert.All(run.Cells, c => Assert.True(c.Summary!.RequestsPerSecond > 0));
    }

    /// <summary>
    /// kestrel as the catalogue builds it beside the same program given as `cmd:dotnet X.dll`: both are started under the simulator with the
    /// .NET settings the spec line names, and both counted. The same program serving the same requests: their counts a request lie within
    /// half and twice each other (a .NET launch moves by 2-10%, a JIT burst in a window more), so only a command whose runtime went
    /// uncounted (a wrapper's few thousand instructions, or none) fails it, not the machine's luck.
    /// </summary>
    [SkippableFact]
    public async Task A_dotnet_target_built_or_given_by_command_is_counted_under_the_simulator_with_its_settings_named()
    {
        var (simulator, why) = await Comparator.Simulating.CallgrindSimulator.FindAsync();
        Skip.If(simulator is null, why);
        var built = Comparator.Targets.BuildLayout.Discover().AssemblyPath(Comparator.Targets.TargetCatalog.Find("kestrel")!);

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--counters", "simulated", "--targets", "kestrel",
            "--target", $"mine=cmd:dotnet {built} --port {{port}}", "--endpoints", "time", "--launches", "1", "--rate", "none", "--warmup", "0",
            "--first-warmup", "0", "--duration", "0.3s", "--repeat", "1", "--steady-bound", "0", "--simulated-launches", "2",
            "--out", Path.Combine(_out.FullName, "runs"));

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = ResultStore.Deserialize(File.ReadAllText(Directory.GetFiles(Path.Combine(_out.FullName, "runs"), "results.json", SearchOption.AllDirectories).Single()), "results.json");
        Assert.Contains(".NET: DOTNET_EnableWriteXorExecute=0 DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=0 DOTNET_PROCESSOR_COUNT=1 DOTNET_ThreadPool_ForceMinWorkerThreads=1 DOTNET_ThreadPool_ForceMaxWorkerThreads=1 DOTNET_TieredCompilation=0 DOTNET_ReadyToRun=0 (one-compile", run.Spec.SimulatedCounters);
        Assert.DoesNotContain("not simulated", run.Spec.SimulatedCounters);
        Assert.Contains("each request sent 2 ms after the answer before it", run.Spec.SimulatedCounters);
        Assert.Matches(@"; \d+ window\(s\) set aside in which the JIT compiled more than 1% of the count, each counted again", run.Spec.SimulatedCounters);
        double Count(string target) => Metrics.SimulatedInstructionsPerRequest.Of(run.Cells.Single(c => c.Key.Target == target).Summary!)!.Value;
        Assert.Equal(2, run.Cells.Single(c => c.Key.Target == "mine").WindowsOf(Metrics.SimulatedInstructionsPerRequest).Count);
        Assert.InRange(Count("mine") / Count("kestrel"), 0.5, 2.0);
        Assert.All(new[] { "kestrel", "mine" }, t => Assert.Contains("one-compile", run.Spec.SimulatedRuntimes![t]));
    }
}
