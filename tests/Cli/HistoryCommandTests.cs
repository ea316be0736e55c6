using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using System.Xml.Linq;
using Comparator.Comparing;
using Comparator.Results;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// `comparator history` as a user runs it, on run directories written as `run` writes results.json (figures injected): the gate's exit
/// codes, the files it writes, a baseline mark, and bad input (no runs, a truncated run, several machines) as one line and exit 2.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class HistoryCommandTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("comparator-history-");

    public void Dispose() => _dir.Delete(recursive: true);

    private string Results => Path.Combine(_dir.FullName, "results");

    private void Write(System.Collections.Generic.IEnumerable<HistoryInput> runs)
    {
        foreach (var (input, n) in runs.Select((r, i) => (r, i + 1)))
        {
            var directory = Directory.CreateDirectory(Path.Combine(Results, $"run-{n:00}")).FullName;
            File.WriteAllText(Path.Combine(directory, "results.json"), ResultStore.Serialize(input.Run));
        }
    }

    private static void OneLine(string stderr, string expected)
    {
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("error: history: ", line);
        Assert.Contains(expected, line);
    }

    [Fact]
    public async Task A_step_fails_the_gate_with_its_junit_case_and_a_baseline_mark_at_it_passes_it()
    {
        Write(HistoryTests.Twelve(after: 140));
        var junit = Path.Combine(_dir.FullName, "history.xml");
        var out1 = Path.Combine(_dir.FullName, "out");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("history", Results, "--out", out1, "--junit", junit, "--summary", Path.Combine(_dir.FullName, "summary.md"));

        Assert.True(exit == 1, $"exit {exit}\n{stdout}\n{stderr}");
        Assert.StartsWith("# Comparator history: REGRESSION", stdout);
        Assert.All(new[] { "history.html", "history.md", "history.json" }, f => Assert.True(File.Exists(Path.Combine(out1, f)), f));
        Assert.Contains("between runs 6 and 7", XDocument.Load(junit).Descendants("failure").Single().Attribute("message")!.Value);
        Assert.Contains("Exit 1", File.ReadAllText(Path.Combine(_dir.FullName, "summary.md")));

        var (marked, markedOut, markedErr) = await ComparatorProcess.RunAsync("history", Results, "--out", out1, "--mark-baseline", Path.Combine(Results, "run-07"), "--reason", "spin raised on purpose");

        Assert.True(marked == 0, $"exit {marked}\n{markedOut}\n{markedErr}");
        Assert.True(File.Exists(Path.Combine(Results, "run-07", BaselineMark.FileName)));
        Assert.Contains("baseline: spin raised on purpose", markedOut);
    }

    [Fact]
    public async Task A_folder_without_runs_is_one_line_and_exit_2()
    {
        Directory.CreateDirectory(Results);

        var (exit, _, stderr) = await ComparatorProcess.RunAsync("history", Results);

        Assert.Equal(2, exit);
        OneLine(stderr, "no runs under");
    }

    [Fact]
    public async Task A_truncated_or_foreign_run_is_skipped_and_named_and_the_rest_is_read()
    {
        Write(HistoryTests.Twelve(after: 90).Take(8));
        var truncated = Path.Combine(Results, "run-04", "results.json");
        File.WriteAllText(truncated, File.ReadAllText(truncated)[..500]);
        var foreign = Directory.CreateDirectory(Path.Combine(Results, "other")).FullName;
        File.WriteAllText(Path.Combine(foreign, "results.json"), "{\"tool\": \"something else\"}");

        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("history", Results, "--out", Path.Combine(_dir.FullName, "out"));

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        Assert.Contains($"history: skipped {truncated}: ", stderr);
        Assert.Contains("history: skipped " + Path.Combine(foreign, "results.json") + ": ", stderr);
        Assert.DoesNotContain("   at ", stderr);
        Assert.Contains(": 7 runs,", stdout);
    }

    [Fact]
    public async Task Runs_of_two_machines_are_refused_with_the_choices_and_kept_apart_when_asked()
    {
        Write(HistoryTests.Twelve(after: 90).Select((r, i) => i % 2 == 0 ? r : r with { Run = r.Run with { Spec = r.Run.Spec with { Machine = r.Run.Spec.Machine with { Fingerprint = "beef00000000" } } } }));

        var (exit, _, stderr) = await ComparatorProcess.RunAsync("history", Results);
        var (each, eachOut, eachErr) = await ComparatorProcess.RunAsync("history", Results, "--machine", "each", "--out", Path.Combine(_dir.FullName, "out"));

        Assert.Equal(2, exit);
        OneLine(stderr, "runs of 2 machines");
        Assert.Contains("--machine each", stderr);
        Assert.True(each == 0, $"exit {each}\n{eachOut}\n{eachErr}");
        Assert.Equal(2, eachOut.Split('\n').Count(l => l.StartsWith("## kestrel vs spinning: 6 runs")));
    }

    [Theory]
    [InlineData("is not a run directory", "--mark-baseline", "NOWHERE")]
    [InlineData("--since needs a UTC date", "--since", "yesterday")]
    [InlineData("does not exist", "NOWHERE")]
    public async Task Bad_options_are_one_line_and_exit_2(string expected, params string[] args)
    {
        var (exit, _, stderr) = await ComparatorProcess.RunAsync(new[] { "history" }.Concat(args.Select(a => a == "NOWHERE" ? Path.Combine(_dir.FullName, "nowhere") : a)).ToArray());

        Assert.Equal(2, exit);
        OneLine(stderr, expected);
    }
}
