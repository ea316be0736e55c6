using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Net.Http;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>The comparator's serve command as a user runs it: a real process, its stdout, a signal.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class ServeCommandTests
{
    [Fact]
    public async Task Serve_prints_a_url_per_target_then_ready_and_stops_every_target_on_sigterm()
    {
        using var watched = new ComparatorProcess.Watched(ComparatorProcess.Start("serve")); // killed with its targets if an assert fails
        var comparator = watched.Process;
        var lines = new List<string>();
        string? line;
        while ((line = await comparator.StandardOutput.ReadLineAsync().WaitAsync(ComparatorProcess.Patience)) != "ready")
        {
            Assert.NotNull(line); // the process ended before "ready"
            lines.Add(line!);
        }

        var expected = TargetCatalog.Available.Select(t => t.Name).ToList();
        Assert.Equal(expected, lines.Select(l => l.Split(' ')[0]));
        var pids = new List<int>();
        using (var http = new HttpClient())
        {
            foreach (var l in lines)
            {
                Assert.Matches(new Regex(@"^[a-z-]+ http://127\.0\.0\.1:\d+$"), l);
                var url = new Uri(l.Split(' ')[1]);
                Assert.StartsWith(TimeText.Prefix, await http.GetStringAsync(new Uri(url, Routes.Time)));
                pids.Add(ListeningPid(url.Port));
            }
        }

        ChildProcesses.Signal(comparator.Id, 15);
        await comparator.WaitForExitAsync().WaitAsync(ComparatorProcess.Patience);

        Assert.Equal(0, comparator.ExitCode);
        Assert.All(pids, pid => Assert.False(Directory.Exists($"/proc/{pid}"), $"target process {pid} outlived serve"));
    }

    [Fact]
    public async Task Targets_stop_themselves_when_the_comparator_is_killed_with_sigkill()
    {
        using var watched = await ComparatorProcess.StartAndWaitForAsync("ready", "serve");
        var targets = ChildProcesses.Of(watched.Process.Id);
        Assert.Equal(TargetCatalog.Available.Count(), targets.Length);

        ChildProcesses.Signal(watched.Process.Id, 9); // no chance to stop anything itself
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (targets.Any(ChildProcesses.IsAlive) && DateTime.UtcNow < deadline) await Task.Delay(100);

        Assert.All(targets, pid => Assert.False(ChildProcesses.IsAlive(pid), $"orphan left running: {pid} {ChildProcesses.CommandLine(pid)}"));
    }

    [Fact]
    public async Task Targets_start_without_the_comparators_own_socket_setting()
    {
        using var watched = await ComparatorProcess.StartAndWaitForAsync("ready", "serve", "--targets", "kestrel");
        var target = Assert.Single(ChildProcesses.Of(watched.Process.Id));

        var environment = File.ReadAllText($"/proc/{target}/environ").Split('\0');

        Assert.DoesNotContain(environment, v => v.StartsWith(Comparator.Drivers.InlineSocketCompletions.Variable + "=", StringComparison.Ordinal));
        Assert.Contains(environment, v => v.StartsWith("COMPARATOR_PARENT_PID=", StringComparison.Ordinal) || v.Contains("PARENT", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Serve_with_an_unknown_target_exits_2_with_one_line()
    {
        using var comparator = ComparatorProcess.Start("serve", "--targets", "kestrel,nosuch");
        var stderr = await comparator.StandardError.ReadToEndAsync().WaitAsync(ComparatorProcess.Patience);
        await comparator.WaitForExitAsync().WaitAsync(ComparatorProcess.Patience);

        Assert.Equal(2, comparator.ExitCode);
        Assert.Equal("error: serve: unknown target 'nosuch'; known: " + string.Join(", ", TargetCatalog.All.Select(t => t.Name)), stderr.Trim());
    }

    /// <summary>The pid of the process that owns the listening socket on a port, read from /proc.</summary>
    private static int ListeningPid(int port)
    {
        var hexPort = ":" + port.ToString("X4");
        var inode = File.ReadLines("/proc/net/tcp").Skip(1)
            .Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .First(f => f[1].EndsWith(hexPort, StringComparison.Ordinal) && f[3] == "0A")[9];
        foreach (var proc in Directory.GetDirectories("/proc").Where(d => int.TryParse(Path.GetFileName(d), out _)))
        {
            try
            {
                if (Directory.GetFiles(Path.Combine(proc, "fd")).Any(fd => new FileInfo(fd).LinkTarget == $"socket:[{inode}]"))
                    return int.Parse(Path.GetFileName(proc));
            }
            catch (Exception e) when (e is UnauthorizedAccessException or IOException) { }
        }
        throw new InvalidOperationException("no process listens on port " + port);
    }
}
