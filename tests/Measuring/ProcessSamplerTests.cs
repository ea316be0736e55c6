using System;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Measuring;
using Comparator.Targets;
using Xunit;
using Xunit.Abstractions;

namespace Comparator.Tests;

/// <summary>
/// The figures every OS takes through System.Diagnostics.Process (CPU, peak and current RSS) agree
/// with /proc's over a real run, so Linux and Windows give the same figures by the same path; and
/// an exited load tool's CPU is counted.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class ProcessSamplerTests
{
    private readonly ITestOutputHelper _output;

    public ProcessSamplerTests(ITestOutputHelper output) => _output = output;

    [SkippableFact]
    public async Task Process_figures_agree_with_proc_over_a_loaded_target()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "/proc is the reference, and only Linux has it");
        await using var running = await new TargetLauncher(BuildLayout.Discover()).StartAsync(TargetCatalog.Find("kestrel")!, ServiceSwitches.Default);
        var ab = ToolProcess.Locate("ab", "apache2-utils");
        var url = new Uri(running.BaseUrl, Routes.Time).ToString();

        var tool = await ToolProcess.RunAsync(ab, new[] { "-k", "-q", "-c", "4", "-t", "3", url }, null, TimeSpan.FromSeconds(30), CancellationToken.None);

        Assert.Equal(0, tool.ExitCode);
        Assert.True(tool.CpuSeconds > 0, $"ab's CPU after it exited: {tool.CpuSeconds} s");
        var pid = running.ProcessId;
        // Read each pair back to back: the target is idle now, so neither moves between the two reads.
        var (cpu, procCpu) = (ProcessSampler.CpuSeconds(pid), ProcFs.CpuSeconds(pid));
        var (peak, procPeak) = (ProcessSampler.PeakRssMb(pid), ProcFs.PeakRssMb(pid));
        var (rss, procRss) = (ProcessSampler.RssMb(pid), ProcFs.RssMb(pid));

        _output.WriteLine($"ab {tool.CpuSeconds:0.000} s; target CPU {cpu:0.000} s (/proc {procCpu:0.000}), peak RSS {peak:0.00} MiB (/proc {procPeak:0.00}), RSS {rss:0.00} MiB (/proc {procRss:0.00})");
        Assert.True(procCpu > 0.1, $"the target's CPU under load, per /proc: {procCpu} s");
        // /proc counts CPU in 10 ms ticks (USER_HZ 100): within 1%, or one tick where 1% is less than that.
        Assert.InRange(cpu!.Value, procCpu!.Value - Math.Max(0.01 * procCpu.Value, 1 / ProcFs.TicksPerSecond), procCpu.Value + Math.Max(0.01 * procCpu.Value, 1 / ProcFs.TicksPerSecond));
        Assert.InRange(peak!.Value, procPeak!.Value * 0.99, procPeak.Value * 1.01);
        Assert.InRange(rss!.Value, procRss!.Value * 0.99, procRss.Value * 1.01);
    }

    [Fact]
    public void A_process_that_is_gone_has_no_figures()
    {
        using var probe = System.Diagnostics.Process.Start(new System.Diagnostics.ProcessStartInfo("true") { UseShellExecute = false })!;
        probe.WaitForExit();
        var pid = probe.Id;
        probe.Dispose(); // reaped: the id names no process now (unless reused, which a fresh id is not this soon)

        Assert.Null(ProcessSampler.CpuSeconds(pid));
        Assert.Null(ProcessSampler.PeakRssMb(pid));
        Assert.False(ProcessSampler.Exists(pid));
    }

    [Fact]
    public void The_machine_busy_time_grows()
    {
        var before = ProcessSampler.MachineBusySeconds();
        var end = DateTime.UtcNow.AddMilliseconds(100);
        while (DateTime.UtcNow < end) { } // keep one core busy for a moment
        Assert.True(ProcessSampler.MachineBusySeconds() > before);
    }
}
