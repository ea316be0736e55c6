using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Measuring;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The counted start on real processes: the shell that waits before a target's first instruction runs the target once its
/// counters are open, counting it from there; and where its comparator dies first (its stdin closes unwritten), the shell exits
/// and nothing of the target ever runs. A stopped shell in the same place stayed stopped for good.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class CountedStartTests
{
    private static (ProcessStartInfo Info, string Marker) Sleeper()
    {
        var marker = (700_000 + Random.Shared.Next(90_000)).ToString(System.Globalization.CultureInfo.InvariantCulture);
        var info = new ProcessStartInfo("sleep") { RedirectStandardInput = true, UseShellExecute = false };
        info.ArgumentList.Add(marker);
        return (info, marker);
    }

    [SkippableFact]
    public async Task A_start_whose_comparator_dies_before_releasing_it_ends_without_running_the_target()
    {
        var (info, marker) = Sleeper();
        Skip.IfNot(CountedStart.Wrap(info), "counted starts are Linux's");
        using var shell = Process.Start(info)!;
        shell.StandardInput.Close(); // what the comparator's death does to the pipe

        var exited = shell.WaitForExitAsync();
        var ended = await Task.WhenAny(exited, Task.Delay(TimeSpan.FromSeconds(10))) == exited;
        if (!ended) shell.Kill(entireProcessTree: true);
        Assert.True(ended, "the waiting shell did not end when its stdin closed");
        Assert.Equal(1, shell.ExitCode);
        Assert.Empty(ChildProcesses.WithCommandLine(marker));
    }

    [SkippableFact]
    public async Task A_released_start_runs_the_target_in_the_same_process_counted()
    {
        var calls = SystemCallCounting.Resolve(asked: true);
        Skip.If(calls.Event is null, calls.Line);
        var (info, marker) = Sleeper();
        Skip.IfNot(CountedStart.Wrap(info), "counted starts are Linux's");
        using var shell = Process.Start(info)!;
        try
        {
            var (counters, note) = await CountedStart.OpenAndContinueAsync(shell, CpuCounterSet.Of(null, calls.Event)!, default);
            using (counters)
            {
                Assert.Equal(CountedStart.CountedNote, note);
                var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
                string Name() => File.Exists($"/proc/{shell.Id}/comm") ? File.ReadAllText($"/proc/{shell.Id}/comm").Trim() : "";
                while (Name() != "sleep" && DateTime.UtcNow < deadline) await Task.Delay(50);
                Assert.Equal("sleep", Name()); // the shell became the target: same pid
                Assert.Contains(shell.Id, ChildProcesses.WithCommandLine(marker));
                Assert.False(shell.HasExited);
            }
        }
        finally
        {
            shell.Kill(entireProcessTree: true);
        }
    }
}
