using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The quick tier runs what starts no process (<see cref="TestTiers"/>): a test class whose file starts one (the comparator, a service, a
/// fixture of services, a launch) carries the processes trait, so that `scripts/test.sh --quick` leaves it to the full suite.
/// </summary>
public sealed class TierTests
{
    /// <summary>What starting a process looks like in a test's source: the helpers, the fixtures, the launchers, a process of its own.</summary>
    internal static readonly Regex StartsProcesses =
        new(@"ComparatorProcess|IClassFixture|ICollectionFixture|\[Collection\(|Process\.Start|ProcessStartInfo|StartAsync\(|LaunchAsync|RunAsync\(|" +
            @"new TargetLauncher\(|SimulatedStudy|HistoryStudy|CallgrindSimulator|SamplingProfiler|MonoHeapshots");

    private static readonly Regex TestClass = new(@"(?m)^[ \t]*((?:\[[^\]\n]*\][ \t]*\n[ \t]*)*)(?:public |internal )(?:sealed |abstract |static )?(?:partial )?class (\w+)");

    /// <summary>The test sources (not the helpers, doubles and studies; Architecture: the rules' own sources hold these patterns as text).</summary>
    private static IEnumerable<(string File, string Text)> TestSources()
    {
        var root = Path.Combine(BuildLayout.Discover().RepositoryRoot, "tests");
        var helpers = new[] { "Support", "Architecture", "KnownGapBench", "MisbehavingService", "FixedWorkService", "SilentService" };
        return Directory.EnumerateFiles(root, "*.cs", SearchOption.AllDirectories)
            .Where(f => !helpers.Contains(Path.GetRelativePath(root, f).Split(Path.DirectorySeparatorChar)[0]))
            .Select(f => (Path.GetRelativePath(root, f), File.ReadAllText(f)));
    }

    [Fact]
    public void Every_test_class_that_starts_a_process_carries_the_processes_trait()
    {
        var missing = TestSources()
            .Where(f => StartsProcesses.IsMatch(f.Text) && Regex.IsMatch(f.Text, @"\[(Skippable)?(Fact|Theory)"))
            .SelectMany(f => Outermost(TestClass.Matches(f.Text)).Where(m => !m.Groups[1].Value.Contains("TestTiers.Processes")).Select(m => $"{f.File}: {m.Groups[2].Value}"))
            .ToList();
        Assert.True(missing.Count == 0, "test classes that start processes without [Trait(TestTiers.Trait, TestTiers.Processes)]:\n" + string.Join("\n", missing));
    }

    /// <summary>
    /// A class that starts processes runs alone (its collection is <see cref="TestTiers.Alone"/> or the running services' one, both run after
    /// the parallel phase) unless it is one of <see cref="TestTiers.Alongside"/>, whose assertions another test's load cannot move.
    /// </summary>
    [Fact]
    public void Every_class_that_starts_a_process_runs_alone_or_is_named_as_safe_beside_others()
    {
        var loose = TestSources()
            .SelectMany(f => Outermost(TestClass.Matches(f.Text))
                .Where(m => m.Groups[1].Value.Contains("TestTiers.Processes") && !m.Groups[1].Value.Contains("[Collection(") &&
                            !TestTiers.Alongside.Contains(m.Groups[2].Value))
                .Select(m => $"{f.File}: {m.Groups[2].Value}"))
            .ToList();
        Assert.True(loose.Count == 0, "classes that start processes, in no collection that runs alone and not named in TestTiers.Alongside:\n" + string.Join("\n", loose));
        Assert.All(TestTiers.Alongside, name => Assert.NotNull(typeof(TierTests).Assembly.GetType("Comparator.Tests." + name)));
    }

    /// <summary>The classes at a file's least indentation: a class nested in a test class (its shared fixture) is covered by the outer one's trait.</summary>
    private static IEnumerable<Match> Outermost(MatchCollection classes)
    {
        // The declaration's own line is the match's last (the attributes come before it).
        static int Indent(Match m) => m.Value[(m.Value.LastIndexOf('\n') + 1)..].TakeWhile(c => c is ' ' or '\t').Count();
        var declarations = classes.Select(m => (Match: m, Indent: Indent(m))).ToList();
        var least = declarations.Count == 0 ? 0 : declarations.Min(d => d.Indent);
        return declarations.Where(d => d.Indent == least).Select(d => d.Match);
    }

    [Fact]
    public void The_rule_sees_a_class_without_the_trait()
    {
        var untagged = "using Xunit;\npublic sealed class StartsOne\n{\n    [Fact] public void A() => ComparatorProcess.RunAsync(\"targets\");\n}\n";
        var tagged = "[Trait(TestTiers.Trait, TestTiers.Processes)]\npublic sealed class StartsOne { }";
        Assert.Matches(StartsProcesses, untagged);
        Assert.DoesNotContain("TestTiers.Processes", TestClass.Match(untagged).Groups[1].Value);
        Assert.Contains("TestTiers.Processes", TestClass.Match(tagged).Groups[1].Value);
        // A fixture nested in a tagged class is the outer class's; a second top-level class is its own.
        var nested = tagged + "\n{\n    public sealed class SharedRun { }\n}\npublic sealed class Another { }\n";
        Assert.Equal(new[] { "StartsOne", "Another" }, Outermost(TestClass.Matches(nested)).Select(m => m.Groups[2].Value));
    }
}
