using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Results;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// Bytes allocated per request on real processes: a twin of kestrel that allocates 16 KiB of its own a request (MisbehavingService
/// allocate 16384, one array, header included) is found to allocate that much more than kestrel, launch by launch, from the
/// runtime's own AllocationTicks cut at each window's edges. A count, not a time: the machine's load does not move it.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
public sealed class AllocationTests : IDisposable
{
    private const int Extra = 16384;
    private readonly DirectoryInfo _out = Directory.CreateTempSubdirectory("comparator-alloc-");

    public void Dispose() => _out.Delete(recursive: true);

    [Fact]
    public async Task A_twin_allocating_16_KiB_more_a_request_is_counted_16_KiB_more_in_every_launch()
    {
        var layout = BuildLayout.Discover();
        var twin = layout.AssemblyPath("MisbehavingService", null, "MisbehavingService.dll");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--targets", "kestrel", "--target", $"twin=cmd:dotnet {twin} allocate {Extra} --port {{port}}",
            "--endpoints", "time", "--launches", "2", "--repeat", "1", "--rate", "2000", "--warmup", "0.3s", "--first-warmup", "1s",
            "--duration", "2s", "--steady-bound", "0", "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = ResultStore.Deserialize(File.ReadAllText(Directory.GetFiles(_out.FullName, "results.json", SearchOption.AllDirectories).Single()), "results.json");
        // At the same asked rate, as SystemCallTests reads its counts: flat out, the two sides' windows would hold different loads.
        double PerRequest(string target, int launch) =>
            Metrics.AllocatedBytesPerRequest.Of(run.Cells.Single(c => c.Key.Target == target && c.Key.Rate is not null).Repeats.Single(w => w.Launch == launch))
            ?? throw new Xunit.Sdk.XunitException($"{target}, launch {launch + 1}: no bytes allocated read (the runtime's GC events gave none)\n{stderr}");
        for (var launch = 0; launch < 2; launch++)
        {
            var (kestrel, extra) = (PerRequest("kestrel", launch), PerRequest("twin", launch) - PerRequest("kestrel", launch));
            Assert.True(kestrel > 0, $"kestrel allocated {kestrel:0} bytes a request");
            Assert.True(extra is >= Extra * 0.97 and <= Extra * 1.05, $"launch {launch + 1}: the twin allocated {extra:0} more bytes a request, not about {Extra}");
        }
        Assert.Contains(run.Verdicts, v => v.Metric == Metrics.AllocatedBytesPerRequest.VerdictId);
    }
}
