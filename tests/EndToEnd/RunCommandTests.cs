using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Targets;
using Xunit;
using Comparator.Reports.Exporters;
using Comparator.Reports.Text;

namespace Comparator.Tests;

/// <summary>`run` as a user runs it: a real comparator process against real targets.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
public sealed class RunCommandTests : IDisposable
{
    private readonly DirectoryInfo _out = Directory.CreateTempSubdirectory("comparator-results-");

    public void Dispose() => _out.Delete(recursive: true);

    [Fact]
    public async Task Run_quick_measures_every_cell_of_the_default_pair_and_writes_json_csv_markdown_html_and_charts()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--quick", "--verbose", "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var runDir = Assert.Single(_out.GetDirectories());
        Assert.Equal(new[] { "journal.jsonl", "report.html", "report.md", "results.csv", "results.json", "summary.md" }, runDir.GetFiles().Select(f => f.Name).OrderBy(n => n));
        // Six charts, SVG and PNG, and a seventh of system calls a request where this machine counts them.
        var systemCalls = Comparator.Measuring.SystemCallCounting.Resolve(asked: true).Event is not null;
        Assert.Equal(systemCalls ? 14 : 12, runDir.GetDirectories("charts").Single().GetFiles().Length);
        Assert.Equal(systemCalls, File.Exists(Path.Combine(runDir.FullName, "charts", "system_calls.png")));

        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(runDir.FullName, "results.json")), "results.json");
        var available = TargetCatalog.DefaultRunTargets.Select(t => t.Name).ToList();
        Assert.Equal(available, run.Cells.Select(c => c.Key.Target).Distinct());
        if (TargetCatalog.Pair is DefaultPair pair) Assert.Equal(pair.Baseline.Name, run.Spec.BaselineTarget);
        const int cellsPerTarget = 2 + 2 * 3; // time, json, and the two echoes at 500B, 4KB, 64KB
        Assert.Equal(available.Count * cellsPerTarget, run.Cells.Count);
        Assert.All(run.Cells, c => Assert.True(c.Summary is { Requests: > 0, ServerCpuSeconds: not null }, $"{c.Key}: no figures"));
        Assert.All(run.Cells, c => Assert.Single(c.Repeats));
        foreach (var twin in new[] { "wcf", "webapi" }.Select(n => TargetCatalog.Find(n)!).Where(t => !t.IsAvailable))
            Assert.Contains(run.Targets, t => t.Name == twin.Name && !t.Measured && t.NotMeasuredReason == twin.UnavailableReason);

        var csv = File.ReadAllLines(Path.Combine(runDir.FullName, "results.csv"));
        Assert.StartsWith("target,runtime,endpoint,size_bytes,concurrency,keep_alive,driver,cores,requests,failed,non_2xx,", csv[0]);
        foreach (var column in new[] { "rps", "rps_min", "rps_max", "time_per_request_ms", "latency_p50_ms", "latency_p90_ms", "latency_p99_ms", "latency_max_ms",
                     "bytes_received", "bytes_sent", "body_bytes_received", "transfer_kbps_received", "server_cpu_us_per_request", "server_peak_rss_mb", "client_cpu_seconds", "flags" })
            Assert.Contains(column, csv[0].Split(','));
        Assert.Equal(run.Cells.Count + 1, csv.Length);

        foreach (var target in available) Assert.Contains($" {target} ", stdout); // a row per cell and target
        Assert.Contains("where the difference comes from", stdout);
        var markdown = File.ReadAllText(Path.Combine(runDir.FullName, "report.md"));
        Assert.Contains("## Targets by runtime and server", markdown);
        Assert.Contains("## Where the difference comes from", markdown);
        Assert.Contains("results: " + runDir.FullName, stdout);
        Assert.StartsWith("## Verdict: ", markdown[markdown.IndexOf("\n## ", StringComparison.Ordinal)..].TrimStart('\n'));
        // With --verbose the verdict follows the results line, and the first screen (the headline, "answer: ") comes last; summary.md holds
        // the first screen and the verdict in at most 40 lines.
        var tail = stdout[stdout.LastIndexOf("results: ", StringComparison.Ordinal)..];
        Assert.InRange(tail.IndexOf("verdict: ", StringComparison.Ordinal), 0, tail.LastIndexOf("answer: ", StringComparison.Ordinal));
        var summary = File.ReadAllLines(Path.Combine(runDir.FullName, "summary.md"));
        Assert.True(summary.Length <= 40, $"summary.md has {summary.Length} lines");
        Assert.Contains(summary, l => l.StartsWith("## Verdict: "));
    }

    [Fact]
    public async Task Each_cell_measures_the_targets_in_turn_in_alternating_order_per_repeat()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--targets", "kestrel,httplistener", "--endpoints", "time,json",
            "--warmup", "0", "--launches", "1", "--duration", "0.3s", "--repeat", "3", "--rate", "none", "--steady-bound", "0", "--out", _out.FullName);
        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.json")), "results.json");

        Assert.Equal(RunSpec.Interleaved, run.Spec.Schedule);
        var windows = run.Cells
            .SelectMany(c => c.Repeats.Select((m, i) => (Label: $"{c.Key.Endpoint}:{c.Key.Target}#{i + 1}", Start: m.WindowStartedAt!.Value)))
            .OrderBy(w => w.Start).Select(w => w.Label).ToList();
        Assert.Equal(new[]
        {
            "time:kestrel#1", "time:httplistener#1", "time:httplistener#2", "time:kestrel#2", "time:kestrel#3", "time:httplistener#3",
            "json:kestrel#1", "json:httplistener#1", "json:httplistener#2", "json:kestrel#2", "json:kestrel#3", "json:httplistener#3",
        }, windows);
    }

    [Fact]
    public async Task Server_header_on_runs_every_kestrel_target_with_the_header_and_says_so_in_the_spec()
    {
        var kestrelHosted = TargetCatalog.Available.Where(t => t.Server == "Kestrel").Select(t => t.Name).ToList();
        async Task<RunResult> Run(string onOff, string outDir)
        {
            var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--targets", string.Join(',', kestrelHosted), "--endpoints", "time",
                "--warmup", "0", "--launches", "1", "--duration", "0.3s", "--repeat", "1", "--server-header", onOff, "--steady-bound", "0", "--out", outDir);
            Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
            var dir = Assert.Single(new DirectoryInfo(outDir).GetDirectories());
            return ResultStore.Deserialize(File.ReadAllText(Path.Combine(dir.FullName, "results.json")), "results.json");
        }

        var off = await Run("off", Path.Combine(_out.FullName, "off"));
        var on = await Run("on", Path.Combine(_out.FullName, "on"));

        Assert.False(off.Spec.ServerHeader);
        Assert.True(on.Spec.ServerHeader);
        Assert.True(on.Spec.TcpNoDelay); // the default
        Assert.All(on.Targets, t => Assert.StartsWith("on: Kestrel's SocketTransportOptions.NoDelay", t.TcpNoDelay));
        foreach (var target in kestrelHosted)
        {
            // The verification saw the same answer plus one header line: "Server: Kestrel\r\n".
            var bytesOff = off.Verification.Single(c => c.Target == target && c.Endpoint == "time").ResponseWireBytes;
            var bytesOn = on.Verification.Single(c => c.Target == target && c.Endpoint == "time").ResponseWireBytes;
            Assert.Equal(bytesOff + "Server: Kestrel\r\n".Length, bytesOn);
        }
    }

    [Fact]
    public async Task Run_with_every_driver_writes_one_row_per_cell_per_driver_with_flags_and_reasons()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--quick", "--verbose", "--driver", "all", "--targets", "kestrel",
            "--endpoints", "time,echo-put", "--sizes", "500", "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var csv = File.ReadAllLines(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.csv"));
        var header = csv[0].Split(',');
        var rows = csv.Skip(1).Select(l => l.Split(',')).ToList();
        string Col(string[] row, string name) => row[Array.IndexOf(header, name)];

        Assert.Equal(2 * 4, rows.Count);
        Assert.Equal(new[] { "ab", "httpclient", "socket", "wrk" }, rows.Select(r => Col(r, "driver")).Distinct().OrderBy(d => d));
        var abPut = rows.Single(r => Col(r, "driver") == "ab" && Col(r, "endpoint") == "echo-put");
        Assert.Equal("n/a", Col(abPut, "flags"));
        Assert.Contains("HTTP/1.0", Col(abPut, "not_measured_reason"));
        var wrkTime = rows.Single(r => Col(r, "driver") == "wrk" && Col(r, "endpoint") == "time");
        Assert.Equal("n/a", Col(wrkTime, "bytes_sent"));
        Assert.True(double.Parse(Col(wrkTime, "client_cpu_seconds"), System.Globalization.CultureInfo.InvariantCulture) > 0, "wrk's CPU was not measured");
        Assert.Contains("httpclient req/s", stdout); // the drivers view
    }

    [Fact]
    public async Task A_target_that_fails_verification_is_not_measured_and_the_exit_code_is_1()
    {
        using var bad = new FaultyServer(FaultyServer.Mode.Status500);
        var (exit, stdout, _) = await ComparatorProcess.RunAsync("run", "--quick", "--verbose", "--target", "bad=" + bad.BaseUrl, "--endpoints", "time", "--out", _out.FullName);

        Assert.Equal(1, exit);
        Assert.Contains("not measured: bad: verification failed: time: status 500", stdout);
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.json")), "results.json");
        Assert.All(run.Cells, c => Assert.Null(c.Summary));
    }

    [Fact]
    public async Task Failed_requests_under_load_are_counted_in_the_results_and_the_exit_code_is_1()
    {
        // Healthy for the four verification requests, then every echo is wrong.
        using var flaky = new FaultyServer(FaultyServer.Mode.WrongEcho, healthyRequests: 4);
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--quick", "--warmup", "0", "--target", "flaky=" + flaky.BaseUrl,
            "--endpoints", "echo-post", "--sizes", "500", "--concurrency", "4", "--out", _out.FullName);

        Assert.True(exit == 1, $"exit {exit}\n{stdout}\n{stderr}");
        var csv = File.ReadAllLines(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.csv"));
        var header = csv[0].Split(',');
        var row = csv[1].Split(',');
        Assert.True(long.Parse(row[Array.IndexOf(header, "failed")]) > 0);
        Assert.Equal(row[Array.IndexOf(header, "requests")], row[Array.IndexOf(header, "failed")]);
        Assert.Contains("failed", row[Array.IndexOf(header, "flags")]);
        // The faulty service listens in this test process: found by its loopback port, its CPU is read.
        Assert.DoesNotContain("no-server-cpu", row[Array.IndexOf(header, "flags")]);
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.json")), "results.json");
        Assert.Contains($"(process {Environment.ProcessId}: its CPU and memory are read)", Assert.Single(run.Targets).Stack);
    }

    [Fact]
    public async Task Sigterm_mid_run_stops_the_load_and_the_target_and_writes_partial_results()
    {
        using var watched = await ComparatorProcess.StartAndWaitForAsync("[1/1]", "run", "--targets", "kestrel", "--endpoints", "time",
            "--warmup", "0", "--launches", "1", "--duration", "60s", "--rate", "none", "--out", _out.FullName); // returns once the cell's load has started
        var comparator = watched.Process;

        ChildProcesses.Signal(comparator.Id, 15);
        await Task.WhenAny(comparator.WaitForExitAsync(), Task.Delay(TimeSpan.FromSeconds(30))); // far less than the 60 s cell
        Assert.True(comparator.HasExited, "still running 30 s after SIGTERM:\n" + watched.Stderr);
        comparator.WaitForExit(); // drains the output events

        Assert.True(comparator.ExitCode == 1 && watched.Stdout.Contains("(PARTIAL)"), $"exit {comparator.ExitCode}\n{watched.Stderr}{watched.Stdout}");
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.json")), "results.json");
        Assert.True(run.Partial);
        var kestrelUrl = new Uri(run.Targets.Single(t => t.Name == "kestrel").BaseUrl!);
        await Assert.ThrowsAnyAsync<System.Net.Sockets.SocketException>(async () =>
        {
            using var probe = new System.Net.Sockets.TcpClient();
            await probe.ConnectAsync(kestrelUrl.Host, kestrelUrl.Port); // the target was stopped
        });
    }

    [Fact]
    public async Task A_run_killed_with_sigkill_is_rebuilt_from_its_journal_by_report_with_every_window_measured_marked_partial()
    {
        using var watched = await ComparatorProcess.StartAndWaitForAsync("launch 3 of 5", "run", "--targets", "kestrel,httplistener", "--endpoints", "time",
            "--launches", "5", "--duration", "0.3s", "--warmup", "0", "--first-warmup", "0", "--rate", "none", "--out", _out.FullName);
        ChildProcesses.Signal(watched.Process.Id, 9); // no chance to write anything more
        await watched.Process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(30));

        var runDir = Assert.Single(_out.GetDirectories());
        Assert.False(File.Exists(Path.Combine(runDir.FullName, "results.json")));
        var journal = File.ReadAllLines(Path.Combine(runDir.FullName, "journal.jsonl"));
        var journaled = journal.Count(l => l.StartsWith("{\"event\":\"window\"", StringComparison.Ordinal));

        var (exit, _, stderr) = await ComparatorProcess.RunAsync("report", runDir.FullName, "--format", "md", "--out", Path.Combine(_out.FullName, "again.md"));

        Assert.True(exit == 0, stderr);
        Assert.Contains("rebuilt from journal.jsonl", stderr);
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(runDir.FullName, "results.json")), "results.json");
        Assert.True(run.Partial);
        Assert.StartsWith("# Comparator run (PARTIAL", File.ReadAllText(Path.Combine(runDir.FullName, "report.md")));
        Assert.Equal(journaled, run.Cells.Sum(c => c.Repeats.Count)); // every window the journal holds, none more
        foreach (var target in new[] { "kestrel", "httplistener" })
        {
            var cell = run.Cells.Single(c => c.Key.Target == target);
            Assert.Equal(new int?[] { 0, 1 }, cell.Repeats.Select(w => w.Launch).Where(l => l < 2).Distinct().OrderBy(l => l)); // the first two launches
            Assert.All(cell.Repeats, w => Assert.True(w.Requests > 0));
        }
        Assert.Equal(2, run.Targets.Count(t => t.Measured));
    }

    [Fact]
    public async Task A_target_killed_mid_cell_fails_that_cell_skips_the_rest_with_a_reason_and_results_are_written()
    {
        using var watched = await ComparatorProcess.StartAndWaitForAsync("[1/2]", "run", "--targets", "kestrel", "--endpoints", "time,json",
            "--warmup", "0", "--launches", "1", "--duration", "3s", "--repeat", "1", "--rate", "none", "--out", _out.FullName);
        var comparator = watched.Process;

        var target = ChildProcesses.Of(comparator.Id).Single(pid => File.ReadAllText($"/proc/{pid}/cmdline").Contains("KestrelService"));
        ChildProcesses.Signal(target, 9);
        await comparator.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(30));

        Assert.Equal(1, comparator.ExitCode);
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.json")), "results.json");
        var killedCell = run.Cells.Single(c => c.Key.Endpoint == "time");
        var nextCell = run.Cells.Single(c => c.Key.Endpoint == "json");
        Assert.True(killedCell.FailedTotal > 0 && killedCell.Flags.Contains("failed"), string.Join(' ', killedCell.Flags));
        Assert.Null(nextCell.Summary);
        // SIGKILL's exit, as .NET reports a process ended by a signal (128 + 9).
        Assert.Equal("the target process exited during the run (exited with code 137)", nextCell.NotMeasuredReason);
    }

    [Theory]
    [InlineData("run: 'abc' is neither a size", "--sizes", "abc")]
    [InlineData("run: --duration takes a positive duration", "--duration", "-1s")]
    [InlineData("run: --duration takes a positive duration", "--duration", "0")]
    [InlineData("run: unknown endpoint 'nope'", "--endpoints", "time,nope")]
    [InlineData("run: --concurrency takes a whole number", "--concurrency", "0")]
    [InlineData("run: --keep-alive takes true or false", "--keep-alive", "maybe")]
    [InlineData("run: unknown target 'nosuch'", "--targets", "nosuch")]
    [InlineData("run: --repeat takes a whole number", "--repeat", "-3")]
    [InlineData("run: --precision takes a percentage", "--precision", "0%")]
    [InlineData("run: --precision takes a percentage", "--precision", "abc")]
    [InlineData("run: --precision takes a percentage", "--precision", "150")]
    [InlineData("run: --max-repeat takes a whole number", "--max-repeat", "0")]
    [InlineData("run: --max-repeat takes a whole number", "--max-repeat", "many")]
    [InlineData("run: --first-warmup takes a non-negative duration", "--first-warmup", "-2s")]
    [InlineData("run: unknown option '--frobnicate'", "--frobnicate", "1")]
    [InlineData("run: --target needs NAME=http://HOST:PORT", "--target", "nourl")]
    [InlineData("run: --target-pid needs NAME=PID", "--target-pid", "orders")]
    [InlineData("run: --target-pid a=1: no --target is named 'a'", "--target-pid", "a=1")]
    [InlineData("run: 'missing-file.xml' is neither a size", "--sizes", "missing-file.xml")]
    public async Task Bad_arguments_exit_2_with_one_line_and_no_stack_trace(string expected, string option, string value)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", option, value, "--out", _out.FullName);

        Assert.Equal(2, exit);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(expected.Replace("run: --target needs", "--target needs"), line);
        Assert.DoesNotContain("   at ", stderr);
        Assert.Equal("", stdout);
        Assert.Empty(_out.GetDirectories());
    }

    [Fact]
    public async Task Repeat_and_max_repeat_together_are_refused_with_one_line()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--repeat", "3", "--max-repeat", "5", "--out", _out.FullName);

        Assert.Equal(2, exit);
        Assert.Contains("run: use --repeat N (a fixed count) or --max-repeat N", Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)));
        Assert.Empty(_out.GetDirectories());
    }

    [Fact]
    public async Task Options_without_a_command_run_end_with_the_answer_and_the_report_and_every_file_carries_the_cv_of_each_cell()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("--targets", "kestrel", "--endpoints", "time", "--quick", "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var runDir = Assert.Single(_out.GetDirectories());
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(runDir.FullName, "results.json")), "results.json");
        var cell = Assert.Single(run.Cells);
        Assert.Equal(0, cell.RpsCv); // one repeat: --quick is a smoke test, no precision rounds
        Assert.Equal(1, run.Spec.MaxRepeat);
        Assert.Equal(5, run.Spec.PrecisionPercent);
        Assert.Contains("\"rpsCv\"", File.ReadAllText(Path.Combine(runDir.FullName, "results.json")), StringComparison.OrdinalIgnoreCase);

        var csv = File.ReadAllLines(Path.Combine(runDir.FullName, "results.csv"));
        var cv = Array.IndexOf(csv[0].Split(','), "cv");
        Assert.True(cv >= 0, csv[0]);
        Assert.Equal("0", csv[1].Split(',')[cv]);
        Assert.Contains("kestrel cv", File.ReadAllText(Path.Combine(runDir.FullName, "report.md")));
        // Without --verbose the run ends with the first screen: the headline, the table of judged figures (none with one target) and the
        // report's path (every other table is in report.md; the path names the run's directory, so no results line).
        Assert.DoesNotContain("results: ", stdout);
        Assert.DoesNotContain("verdict: ", stdout);
        var end = stdout[stdout.IndexOf("answer: ", StringComparison.Ordinal)..].TrimEnd().Split('\n');
        Assert.True(end.Length <= 40, string.Join('\n', end));
        Assert.Contains("answer: No answer: kestrel is the only target measured in this run.", end);
        Assert.Equal($"report: {Path.Combine(runDir.FullName, "report.html")}", end[^1].TrimEnd('\r'));
        Assert.DoesNotContain("kestrel cv", stdout);
    }

    [Fact]
    public async Task With_max_repeat_a_launch_gets_at_least_three_rounds_and_at_most_the_cap()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--targets", "kestrel,httplistener", "--endpoints", "time",
            "--warmup", "0", "--launches", "1", "--duration", "0.2s", "--max-repeat", "4", "--precision", "50%", "--steady-bound", "0", "--out", _out.FullName);
        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.json")), "results.json");

        Assert.Equal(4, run.Spec.MaxRepeat);
        Assert.Equal(50, run.Spec.PrecisionPercent);
        Assert.All(run.Cells, c => Assert.InRange(c.Repeats.Count, 3, 4));
        Assert.Equal(run.Cells[0].Repeats.Count, run.Cells[1].Repeats.Count); // a round is one window per target
        Assert.All(run.Cells, c => Assert.NotNull(c.RpsCv));
        Assert.Contains("repeat 3: ", stderr);
    }
}
