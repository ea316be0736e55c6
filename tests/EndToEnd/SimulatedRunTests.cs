using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Results;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// `--counters simulated` where it cannot count (no valgrind): one line says so, and the run completes with every other figure. That a .NET
/// service given by command is counted like a built one is SimulatedKnownGapTests' .NET case, which gives its twin that way.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
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
}
