using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Comparator.Cli;
using Comparator.Drivers;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Statistics;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>The run's journal and the one mapping from options to spec, without starting anything.</summary>
public sealed class RunJournalTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("comparator-journal-");

    public void Dispose() => _dir.Delete(recursive: true);

    private static RunOptions Parse(params string[] args) => RunOptionsParser.Parse(args, BuildLayout.Discover());

    private static RunStart Start(RunOptions options)
    {
        var drivers = DriverCatalog.Create(options.Cells.Drivers, null);
        return RunSpecMapping.Start(options, new RunPlan(options.Cells, drivers), drivers, DateTimeOffset.UtcNow);
    }

    /// <summary>A run's changes as the orchestrator records them: targets, checks, windows, a capacity, a missed cell, launches, a look.</summary>
    private static void Measure(RunRecord record, int launches)
    {
        record.Target(new TargetInfo("kestrel", "bare", ".NET 10", "Kestrel", "http://127.0.0.1:1", false, true, null, RuntimeCounters: "on"));
        record.Target(new TargetInfo("httplistener", "bare", ".NET 10", "HttpListener", "http://127.0.0.1:2", false, true, null));
        record.AddChecks(new[] { new Check("kestrel", "time", true, 200, "content-length", 167, "ok") });
        foreach (var cell in record.Start.Cells.Where(c => c.Rate is null))
            record.Capacity(cell.Key, 1234.5);
        for (var launch = 0; launch < launches; launch++)
        {
            foreach (var cell in record.Start.Cells)
            {
                record.Window(record.Key("kestrel", cell), ResultsTests.Window(1000 + launch) with { Launch = launch, Round = 0 });
                if (cell.Key.Endpoint == "echo-post") record.Missed(record.Key("httplistener", cell), "the target process exited during the run", CellFlags.NotMeasured);
                else record.Window(record.Key("httplistener", cell), ResultsTests.Window(900.25 + launch) with { Launch = launch, Round = 0 });
            }
            if (launch == 1) record.LaunchFailure("httplistener", "launch 2: the process exited during the launch");
            record.LaunchEnded(launch + 1, 1.5 * (launch + 1));
        }
    }

    [Fact]
    public void A_journal_read_back_rebuilds_the_very_result_the_run_assembled()
    {
        var options = Parse("--targets", "kestrel,httplistener", "--endpoints", "time,echo-post", "--sizes", "500,4KB", "--rate", "50%,2000", "--launches", "3");
        RunResult live;
        using (var journal = RunJournal.Create(_dir.FullName))
        {
            var record = RunRecord.Begin(Start(options), journal);
            Measure(record, 3);
            record.End(partial: false, "a fixed 3 launch(es)");
            live = RunAssembly.Result(record, false, record.LastAt, Comparator.Comparing.PairVerdicts.Build);
        }
        var replayed = RunRecord.Replay(RunJournal.Read(Path.Combine(_dir.FullName, RunJournal.FileName)));
        var rebuilt = RunAssembly.Result(replayed, replayed.Partial!.Value, replayed.LastAt, Comparator.Comparing.PairVerdicts.Build);

        Assert.Equal(ResultStore.Serialize(live), ResultStore.Serialize(rebuilt));
        Assert.Contains(live.Cells, c => c.Key.Rate == 617 && c.Repeats.Count == 3); // half the capacity, from the journaled capacity
        Assert.Contains(live.Cells, c => c.Key.Target == "httplistener" && c.NotMeasuredReason == "the target process exited during the run");
    }

    [Fact]
    public void A_journal_cut_short_by_a_kill_is_read_to_its_last_whole_line_and_a_broken_one_before_is_an_error()
    {
        using (var journal = RunJournal.Create(_dir.FullName))
            Measure(RunRecord.Begin(Start(Parse("--targets", "kestrel,httplistener", "--endpoints", "time", "--rate", "none", "--launches", "2")), journal), 2);
        var path = Path.Combine(_dir.FullName, RunJournal.FileName);
        var whole = File.ReadAllLines(path);
        File.AppendAllText(path, "{\"event\":\"window\",\"at\":\"2026-"); // the line being written when the process died

        var record = RunRecord.Replay(RunJournal.Read(path));
        Assert.Null(record.Partial); // no end: the run died
        Assert.Equal(2, record.LaunchesRun);
        Assert.Equal(4, RunAssembly.Result(record, true, record.LastAt, Comparator.Comparing.PairVerdicts.Build).Cells.Sum(c => c.Repeats.Count));

        File.WriteAllLines(path, whole.Take(2).Append("not json").Concat(whole.Skip(2)));
        Assert.Contains("line 3 is not a journal entry", Assert.Throws<InvalidDataException>(() => RunJournal.Read(path)).Message);
        File.WriteAllLines(path, whole.Skip(1));
        Assert.Contains("does not begin with the run's start", Assert.Throws<InvalidDataException>(() => RunJournal.Read(path)).Message);
    }

    /// <summary>
    /// Every setting of RunOptions's groups, and where results.json records it (or why not). A setting added to a group
    /// fails here until it is recorded in RunSpecMapping or said to be not recorded: the mapping is the one place.
    /// </summary>
    private static readonly Dictionary<string, string> Recorded = new()
    {
        ["Plans"] = "targets", ["Unavailable"] = "not recorded in the spec: the result's targets say why each was not measured",
        ["Endpoints"] = "endpoints", ["Sizes"] = "sizes", ["Concurrency"] = "concurrency", ["KeepAlive"] = "keepAlive",
        ["Warmup"] = "warmupSeconds", ["Duration"] = "durationSeconds", ["Rounds"] = "repeat, maxRepeat, precisionPercent",
        ["JsonItems"] = "jsonItems", ["BaselineTarget"] = "baselineTarget", ["OutDirectory"] = "not recorded: where the run directory is",
        ["RequestTimeout"] = "not recorded", ["Drivers"] = "drivers", ["Pin"] = "pin", ["CompareTo"] = "not recorded: diff.md says", ["Threshold"] = "not recorded: diff.md says",
        ["ServerHeader"] = "serverHeader", ["ColdWarmup"] = "firstWarmupSeconds", ["Launches"] = "launches",
        ["Rule"] = "confidence, minEffectPercent, equivalencePercent, sequential", ["TcpNoDelay"] = "tcpNoDelay", ["Scenario"] = "scenario",
        ["Rates"] = "rates", ["Budget"] = "sequential.budgetSeconds", ["ServerCores"] = "cores", ["Allotments"] = "cores",
        ["Insecure"] = "not recorded in the spec: each https target's tls says whether its certificate validated",
        ["Ports"] = "not recorded in the spec: each target's base URL shows the port it got",
        ["CpuCounting"] = "cpuCounters (what was counted, or the line saying why not)", ["SteadyBound"] = "steadyBoundSeconds", ["Duet"] = "schedule",
        ["Profile"] = "profileSeconds (the profile pass's result is the run's profile, journaled after its end)",
        ["Simulation"] = "simulatedCounters (the simulated pass's line: what it counted and with what, written when its windows join their cells after the run)",
        ["Label"] = "label", ["Revisions"] = "revision (the run's), and each target's on its TargetInfo",
        ["Crank"] = "not recorded: it only adds crank's results lines on the terminal (a crank run's spec records its agents through import-crank)",
    };

    /// <summary>A group's settings: its positional parameters, then the init properties it adds.</summary>
    private static IEnumerable<string> SettingsOf(Type group)
    {
        var positional = group.GetConstructors().Single(c => c.GetParameters().Length > 1).GetParameters().Select(p => p.Name!).ToList();
        return positional.Concat(group.GetProperties().Where(p => p.SetMethod is { IsPublic: true } && !positional.Contains(p.Name)).Select(p => p.Name));
    }

    [Fact]
    public void Every_setting_of_the_options_is_recorded_in_the_spec_through_the_one_mapping()
    {
        var settings = typeof(RunOptions).GetConstructors().Single(c => c.GetParameters().Length > 1).GetParameters().SelectMany(g => SettingsOf(g.ParameterType)).ToList();
        Assert.Equal(Recorded.Keys.OrderBy(k => k), settings.OrderBy(k => k));

        var options = Parse("--targets", "kestrel,httplistener", "--endpoints", "time,echo-put", "--sizes", "4KB", "--concurrency", "7,9", "--keep-alive", "false",
            "--warmup", "0.25s", "--first-warmup", "1.5s", "--duration", "0.5s", "--max-repeat", "4", "--precision", "7%", "--json-items", "3",
            "--baseline-target", "httplistener", "--confidence", "95", "--min-effect", "4%", "--equivalence", "6%", "--server-header", "on", "--tcp-nodelay", "off",
            "--rate", "1000", "--budget", "2m", "--max-launches", "9", "--steady-bound", "7s", "--duet", "--counters", "off",
            "--profile", "--profile-duration", "3s", "--label", "nightly", "--revision", "abc123", "--revision", "kestrel=def456");
        var spec = Start(options).Spec;
        Assert.Equal(new[] { "kestrel", "httplistener" }, spec.Targets);
        Assert.Equal(new[] { "time", "echo-put" }, spec.Endpoints);
        Assert.Equal("4KB", Assert.Single(spec.Sizes).Label);
        Assert.Equal(new[] { 7, 9 }, spec.Concurrency);
        Assert.False(spec.KeepAlive);
        Assert.Equal((0.25, 1.5, 0.5), (spec.WarmupSeconds, spec.FirstWarmupSeconds!.Value, spec.DurationSeconds));
        Assert.Equal((3, 4), (spec.Repeat, spec.MaxRepeat!.Value));
        Assert.Equal(7, spec.PrecisionPercent!.Value, 9);
        Assert.Equal((3, "httplistener", true, false), (spec.JsonItems, spec.BaselineTarget, spec.ServerHeader, spec.TcpNoDelay!.Value));
        Assert.Equal(0.95, spec.Confidence!.Value, 9);
        Assert.Equal((4.0, 6.0), (Math.Round(spec.MinEffectPercent!.Value, 9), Math.Round(spec.EquivalencePercent!.Value, 9)));
        Assert.Equal(new[] { "1000 req/s" }, spec.Rates);
        Assert.Equal((120.0, options.Judging.Launches), (spec.Sequential!.BudgetSeconds, spec.Sequential.MaxLaunches));
        Assert.Equal(CoresSpec.SharedLabel, Assert.Single(spec.Cores!).Label);
        Assert.Equal("socket", Assert.Single(spec.Drivers).Name);
        Assert.Equal(7.0, spec.SteadyBoundSeconds);
        Assert.Equal(3.0, spec.ProfileSeconds);
        Assert.Equal(("nightly", "abc123"), (spec.Label, spec.Revision));
        Assert.Equal(("def456", "abc123"), (options.Targets.RevisionOf("kestrel"), options.Targets.RevisionOf("httplistener")));
        Assert.Equal(spec.Machine.FingerprintOfFacts(), spec.Machine.Fingerprint);
        Assert.Equal(RunSpec.Duet, spec.Schedule);
        Assert.Equal(Comparator.Measuring.CpuCounterAvailability.Off.Line, spec.CpuCounters);
    }
}
