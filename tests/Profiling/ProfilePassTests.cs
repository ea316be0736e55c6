using System;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Cli;
using Comparator.Drivers;
using Comparator.Profiling;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;
using Xunit;
using Xunit.Abstractions;

namespace Comparator.Tests;

/// <summary>
/// The profile pass on real processes: kestrel against a twin that spins 200 µs a request in a method of a known name
/// (MisbehavingService's CostlyWork.SpinFor), measured with --profile. Asserted is what the spin makes certain
/// whatever the machine's noise: the spin is several times kestrel's whole request, so the twin's samples are mostly in
/// that method, in the service's own layer; and the journal holds the measured windows and no other, the profile journaled
/// after the run's end. Where this machine cannot sample, the run says so in one line.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class ProfilePassTests
{
    private const string SpinMicroseconds = "200";
    private static readonly SemaphoreSlim Once = new(1, 1);
    private static (string WithProfile, RunResult Measured)? _runs;
    private readonly ITestOutputHelper _output;

    public ProfilePassTests(ITestOutputHelper output) => _output = output;

    private static RunOptions Options(bool profile)
    {
        var args = new[]
        {
            "--targets", "kestrel", "--endpoints", "time", "--warmup", "0.5s", "--first-warmup", "1s", "--duration", "0.5s", "--launches", "1", "--repeat", "1",
            "--steady-bound", "2s", "--rate", "none", "--profile-duration", "1s", "--out", Path.Combine(Path.GetTempPath(), "comparator-profile-tests"),
        };
        var options = RunOptionsParser.Parse(profile ? args.Append("--profile").ToArray() : args, BuildLayout.Discover());
        var spinning = new TargetDefinition("spinning", "test double", ".NET 10", "Kestrel", "MisbehavingService", "MisbehavingService.dll", HostRuntime.DotNet, null)
        {
            VariantArguments = new[] { "spin", SpinMicroseconds },
        };
        return options with
        {
            Targets = options.Targets.Only(new[] { new TargetPlan("kestrel", TargetCatalog.Find("kestrel")!, null), new TargetPlan("spinning", spinning, null) }, "kestrel"),
        };
    }

    /// <summary>One run with the profile pass into its run directory (as `run` measures it), and the result its measured windows made.</summary>
    private static async Task<(string WithProfile, RunResult Measured)> RunsAsync()
    {
        await Once.WaitAsync();
        try
        {
            if (_runs is { } done) return done;
            var options = Options(profile: true);
            var layout = BuildLayout.Discover();
            var drivers = DriverCatalog.Create(options.Cells.Drivers, null);
            var progress = new LineProgress();
            RunResult? measured = null;
            var (_, directory) = await JournaledRun.MeasureAsync(options.Output.OutDirectory, async (journal, dir) =>
            {
                measured = await new RunOrchestrator(options, drivers, new TargetLauncher(layout), progress, Comparator.Comparing.PairVerdicts.Build)
                    .RunAsync(CancellationToken.None, journal);
                return await RunPasses.ProfiledAsync(measured, options, drivers, layout, journal, dir, progress, CancellationToken.None);
            });
            _runs = (directory, measured!);
            return _runs.Value;
        }
        finally
        {
            Once.Release();
        }
    }

    private static ProfileResult ProfileOf(string directory) =>
        RunJournal.Read(Path.Combine(directory, RunJournal.FileName)).Single(e => e.Event == JournalEntry.IsProfile).Profile!;

    [SkippableFact]
    public async Task The_spinning_twins_extra_work_is_in_its_spin_method_and_in_the_services_own_layer()
    {
        var (withProfile, _) = await RunsAsync();
        var profile = ProfileOf(withProfile);
        var profiler = SamplingProfiler.Find(null).Profiler;
        if (profiler is null)
            Assert.StartsWith("sampling profiles: not available: ", profile.Unavailable);
        Skip.If(profiler is null, $"no sampling profiler here: {profile.Unavailable}");
        Assert.Null(profile.Unavailable);
        var cell = Assert.Single(profile.CellKeys);
        var kestrel = profile.Of(cell, "kestrel")!;
        var spinning = profile.Of(cell, "spinning")!;
        foreach (var c in new[] { kestrel, spinning })
        {
            _output.WriteLine($"{c.Key.Target}: {c.Samples} samples, {c.CpuUsPerRequest:0.0} µs/request, named {c.NamedShare:P1}; " +
                              string.Join(", ", c.Layers.Select(l => $"{l.Layer} {l.Share:P1}")) + "; top " + string.Join(" | ", c.Frames.Take(3).Select(f => $"{f.Frame} {f.Share:P1}")));
            Assert.Null(c.NotProfiled);
            Assert.True(File.Exists(Path.Combine(withProfile, c.FlameGraph!)), c.FlameGraph);
            Assert.True(File.Exists(Path.Combine(withProfile, c.Folded!)), c.Folded);
        }

        Assert.Equal("service", spinning.Layers[0].Layer);
        Assert.Contains("Comparator.MisbehavingService.CostlyWork::SpinFor", spinning.Frames[0].Frame);
        Assert.Equal("service", spinning.Frames[0].Layer);
        Assert.True(spinning.ShareOf("service") > kestrel.ShareOf("service"));
        Assert.Contains("profiles/spinning.time-c100.svg", File.ReadAllText(Path.Combine(withProfile, "profile.html")));
    }

    [SkippableFact]
    public async Task Managed_frames_of_a_dotnet_target_are_named_from_its_jit_map_and_no_recording_is_left_behind()
    {
        var (withProfile, _) = await RunsAsync();
        var profile = ProfileOf(withProfile);
        Skip.If(profile.Unavailable is not null, $"no sampling profiler here: {profile.Unavailable}"); // the test above asserts the line
        var kestrel = profile.Of(Assert.Single(profile.CellKeys), "kestrel")!;
        var stacks = File.ReadAllLines(Path.Combine(withProfile, kestrel.Folded!))
            .Select(l => (Frames: l[..l.LastIndexOf(' ')].Split(';'), Count: long.Parse(l[(l.LastIndexOf(' ') + 1)..], System.Globalization.CultureInfo.InvariantCulture))).ToList();
        var frames = stacks.SelectMany(s => s.Frames).Distinct().ToList();

        // A frame perf could not name inside the JIT's map, or in code it could not place at all, is shown by its file. A stub the
        // runtime wrote before its map was open can take a stray sample (one CI run had one such frame); a map that was not read
        // would leave most managed samples so, so the bound is on their share.
        static bool Unnamed(string f) => f.StartsWith("[perf-", StringComparison.Ordinal) || f.StartsWith("[memfd:", StringComparison.Ordinal);
        var unnamed = stacks.Where(s => s.Frames.Any(Unnamed)).Sum(s => s.Count);
        var total = stacks.Sum(s => s.Count);
        Assert.True(unnamed <= 0.02 * total, $"{unnamed} of {total} samples have a frame the JIT's map did not name");
        Assert.Contains(frames, f => f.Contains("[Microsoft.AspNetCore.Server.Kestrel.Core] ", StringComparison.Ordinal));
        Assert.Empty(Directory.GetFiles(Path.Combine(withProfile, "profiles"), "*.perf.data"));
    }

    /// <summary>
    /// The profile pass adds no window and moves none: the journal holds the windows the measured run made, one per target, cell, launch and
    /// round as asked (two targets, one cell, one launch, one round), and the profile's entry comes last, after the run's end. (A second run
    /// without the pass, once compared here, showed the same and cost a third of the test's time.)
    /// </summary>
    [Fact]
    public async Task A_run_with_the_profile_pass_journals_only_the_windows_it_measured_and_the_profile_after_its_end()
    {
        var (withProfile, measured) = await RunsAsync();
        var profiled = RunJournal.Read(Path.Combine(withProfile, RunJournal.FileName));
        var journaled = profiled.Where(e => e.Event == JournalEntry.IsWindow)
            .Select(e => $"{e.Key} launch {e.Window!.Launch} round {e.Window.Round}").OrderBy(w => w, StringComparer.Ordinal).ToArray();
        var made = measured.Cells.SelectMany(c => c.Repeats.Select(w => $"{c.Key} launch {w.Launch} round {w.Round}")).OrderBy(w => w, StringComparer.Ordinal).ToArray();

        Assert.Equal(made, journaled);
        Assert.Equal(2, journaled.Length);
        var end = profiled.ToList().FindIndex(e => e.Event == JournalEntry.IsEnd);
        var profile = profiled.ToList().FindIndex(e => e.Event == JournalEntry.IsProfile);
        Assert.True(end >= 0 && profile == profiled.Count - 1 && profile > end, $"the profile's entry ({profile}) comes last, after the run's end ({end})");
    }
}
