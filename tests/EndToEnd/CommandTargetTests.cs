using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// Services started by command (`--target NAME=cmd:...`, `--targets-file`), as a user starts their own: the project's built
/// services started by their command lines, real processes on loopback. Each is started afresh every launch, counted and held
/// as a built target is, its output kept, and nothing of it left running, even when the comparator is killed.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
public sealed class CommandTargetTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("comparator-command-");

    public void Dispose() => _dir.Delete(recursive: true);

    private static readonly BuildLayout Layout = BuildLayout.Discover();

    private static string Built(string target) => Layout.AssemblyPath(TargetCatalog.Find(target)!);

    private static string MisbehavingDll => Layout.AssemblyPath("MisbehavingService", null, "MisbehavingService.dll");

    /// <summary>
    /// A short judged run: two launches, one endpoint, windows long enough to count. No hold for a .NET command's JIT
    /// (--steady-bound 0): these tests check how a command target is started, counted and stopped, not its figures, and the
    /// default hold of up to 20 s was most of each run.
    /// </summary>
    private string[] ShortRun(params string[] targets) => targets.Concat(new[]
    {
        "--launches", "2", "--repeat", "1", "--endpoints", "time", "--rate", "none", "--warmup", "0.2s", "--first-warmup", "0.5s",
        "--duration", "0.5s", "--steady-bound", "0", "--out", Path.Combine(_dir.FullName, "runs"),
    }).Prepend("run").ToArray();

    private RunResult Results() => ResultStore.Deserialize(File.ReadAllText(Directory.GetFiles(Path.Combine(_dir.FullName, "runs"), "results.json",
        SearchOption.AllDirectories).Single()), "results.json");

    [SkippableFact]
    public async Task Two_services_started_by_command_are_started_afresh_every_launch_counted_and_their_output_kept()
    {
        Skip.If(MonoRuntime.Path is null && !OperatingSystem.IsWindows(), "Mono is not installed: the Mono command target cannot run");
        // One on the command line (a .NET dll, ready at its root), one from a file (a Mono exe, ready on a line of its output).
        var file = Path.Combine(_dir.FullName, "targets.json");
        File.WriteAllText(file, $$"""
            { "targets": [ { "name": "new", "program": "mono", "arguments": ["{{Built("httplistener-mono")}}", "--port", "{port}"],
                             "ready": { "outputLine": "^COMPARATOR-READY " } } ] }
            """);
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(ShortRun("--target", $"old=cmd:dotnet {Built("kestrel")} --port {{port}}", "--targets-file", file));

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = Results();
        var old = run.Targets.Single(t => t.Name == "old");
        Assert.StartsWith("started by command: dotnet ", old.Stack);
        Assert.StartsWith(".NET", old.Runtime);
        // A .NET command is read through EventPipe, which is what holds its warm-up until its JIT is steady.
        Assert.Equal(TargetRuntimeCounters.RuntimeCountersOn, old.RuntimeCounters);
        Assert.StartsWith("Mono", run.Targets.Single(t => t.Name == "new").Runtime);
        foreach (var name in new[] { "old", "new" })
        {
            var windows = run.Cells.Where(c => c.Key.Target == name).SelectMany(c => c.Repeats).ToList();
            var perLaunch = windows.GroupBy(w => w.Launch).ToDictionary(g => g.Key!.Value, g => g.Select(w => w.ProcessId).Distinct().Single());
            Assert.Equal(2, perLaunch.Count);
            Assert.All(perLaunch.Values, pid => Assert.NotNull(pid));
            Assert.NotEqual(perLaunch[0], perLaunch[1]);
            for (var launch = 1; launch <= 2; launch++)
            {
                var kept = File.ReadAllText(Directory.GetFiles(Path.Combine(_dir.FullName, "runs"), $"{name}.launch-{launch}.txt", SearchOption.AllDirectories).Single());
                Assert.Contains("COMPARATOR-READY http://127.0.0.1:", kept);
                Assert.Contains($"process {perLaunch[launch - 1]}, exited with code", kept);
            }
        }
    }

    [SkippableFact]
    public async Task The_worked_example_targets_file_runs_in_a_tree_laid_out_as_its_doc_says()
    {
        Skip.If(MonoRuntime.Path is null, "Mono is not installed: the example's two services are Mono programs");
        // The tree of docs/migration.md: targets/migration.json beside out/old and out/new, as `dotnet build -o out/...` leaves them.
        var tree = Directory.CreateDirectory(Path.Combine(_dir.FullName, "tree")).FullName;
        Copy(Path.GetDirectoryName(Built("wcf-classic"))!, Path.Combine(tree, "out", "old"));
        Copy(Path.GetDirectoryName(Built("webapi-selfhost"))!, Path.Combine(tree, "out", "new"));
        Directory.CreateDirectory(Path.Combine(tree, "targets"));
        File.Copy(Path.Combine(Layout.RepositoryRoot, "targets", "migration.json"), Path.Combine(tree, "targets", "migration.json"));

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(ShortRun("--targets-file", Path.Combine(tree, "targets", "migration.json"), "--baseline-target", "old"));

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        Assert.Equal(new[] { "new", "old" }, Results().Targets.Where(t => t.Measured).Select(t => t.Name).Order());
        // Two commands on one runtime say nothing of their servers: the report must not call the gap the frameworks' alone.
        var report = File.ReadAllText(Directory.GetFiles(Path.Combine(_dir.FullName, "runs"), "report.md", SearchOption.AllDirectories).Single());
        Assert.DoesNotContain("the gap is between the frameworks", report);
    }

    private static void Copy(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (var file in Directory.GetFiles(from)) File.Copy(file, Path.Combine(to, Path.GetFileName(file)));
    }

    [SkippableFact]
    public async Task Killing_the_comparator_leaves_no_process_of_a_command_target()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "the process group and its watchdog are Linux's (setsid)");
        // The service and a child of its own (the sleep), both carrying a marker no other process has.
        var marker = (900_000 + Random.Shared.Next(90_000)).ToString();
        using var comparator = await ComparatorProcess.StartAndWaitForAsync("measuring", ShortRun("--target",
            $"svc=cmd:sh -c 'sleep {marker} & exec env COMPARATOR_TEST_MARKER={marker} dotnet \"$0\" --port \"$1\"' {Built("kestrel")} {{port}}"));
        var service = ChildProcesses.WithCommandLine(marker).Where(pid => pid != comparator.Process.Id).ToArray();
        Assert.True(service.Length == 2, $"expected the service and its sleep, found: {string.Join("; ", service.Select(ChildProcesses.CommandLine))}");

        ChildProcesses.Signal(comparator.Process.Id, 9); // SIGKILL: nothing of the comparator runs after it
        var deadline = DateTime.UtcNow + CommandSpec.DefaultStopGrace + TimeSpan.FromSeconds(10);
        while (ChildProcesses.WithCommandLine(marker).Length > 0 && DateTime.UtcNow < deadline) await Task.Delay(200);

        var left = ChildProcesses.WithCommandLine(marker);
        foreach (var pid in left) ChildProcesses.Signal(pid, 9);
        Assert.True(left.Length == 0, $"left running: {string.Join("; ", left.Select(ChildProcesses.CommandLine))}");
    }

    [Fact]
    public async Task A_service_that_dies_in_a_launch_fails_that_launch_with_its_exit_code_and_output_and_the_run_goes_on()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(ShortRun(
            "--target", $"ok=cmd:dotnet {Built("kestrel")} --port {{port}}",
            "--target", $"dying=cmd:dotnet {MisbehavingDll} exit-after 300 --port {{port}}"));

        Assert.True(exit == Comparator.Errors.ExitCodes.Failed, $"exit {exit}\n{stdout}\n{stderr}");
        var run = Results();
        var failures = run.Targets.Single(t => t.Name == "dying").LaunchFailures!;
        Assert.Equal(2, failures.Count);
        Assert.All(failures, f => Assert.Contains("exited with code 7; its last output: MisbehavingService: exiting after 300 requests, as asked", f));
        Assert.All(run.Cells.Where(c => c.Key.Target == "ok"), c => Assert.True(c.Summary!.RequestsPerSecond > 0));
    }

    public static IEnumerable<object[]> BadCommands()
    {
        yield return new object[] { "not-found", "program 'comparator-no-such-program' not found on PATH" };
        yield return new object[] { "not-executable", "is not executable" };
        yield return new object[] { "no-placeholder", "its command never says {port}" };
        yield return new object[] { "ready-timeout", "was not ready within 1 s (an HTTP answer at /health with status 200)" };
        yield return new object[] { "exits-before-ready", "exited with code 3 before it was ready; its last output: cannot open its database" };
        yield return new object[] { "port-in-use", "is in use (by process " };
        yield return new object[] { "unknown-field", "unknown field 'argumnts'" };
    }

    [Theory]
    [MemberData(nameof(BadCommands))]
    public async Task A_bad_command_is_refused_in_one_line_with_exit_2_and_nothing_left_running(string bad, string message)
    {
        var marker = (800_000 + Random.Shared.Next(90_000)).ToString();
        var file = Path.Combine(_dir.FullName, "targets.json");
        var noexec = Path.Combine(_dir.FullName, "service");
        File.WriteAllText(noexec, "#!/bin/sh\n");
        using var held = new TcpListener(IPAddress.Loopback, 0);
        held.Start();
        var heldPort = ((IPEndPoint)held.LocalEndpoint).Port;
        string Entry(string fields) => $$"""{ "targets": [ { "name": "svc", {{fields}} } ] }""";
        var target = bad switch
        {
            "not-found" => new[] { "--target", "svc=cmd:comparator-no-such-program --port {port}" },
            "not-executable" => new[] { "--target", $"svc=cmd:{noexec} --port {{port}}" },
            "no-placeholder" => new[] { "--target", $"svc=cmd:sleep {marker}" },
            "exits-before-ready" => new[] { "--target", "svc=cmd:sh -c 'echo cannot open its database >&2; exit 3' {port}" },
            _ => new[] { "--targets-file", file },
        };
        File.WriteAllText(file, bad switch
        {
            "ready-timeout" => Entry($$""" "program": "sleep", "arguments": ["{{marker}}"], "environment": { "PORT": "{port}" }, "readyTimeout": "1s", "ready": { "path": "/health", "status": 200 } """),
            "port-in-use" => Entry($$""" "program": "sleep", "arguments": ["{{marker}}"], "url": "http://127.0.0.1:{{heldPort}}/" """),
            _ => Entry($$""" "program": "sleep", "argumnts": ["{{marker}}"] """),
        });

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(ShortRun(target));

        Assert.True(exit == 2, $"exit {exit}\n{stdout}\n{stderr}");
        // Progress lines come first (the run had begun); the refusal is one line.
        var error = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries), l => l.StartsWith("error: "));
        Assert.Contains(message, error);
        Assert.Empty(ChildProcesses.WithCommandLine(marker));
    }
}
