using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Comparator.Results;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// A judged figure is one descriptor: the folders that render, compare and command (Reports/, Comparing/, Cli/) read a figure's
/// names and words from its descriptor and never branch on which figure it is. A branch on a figure's name is what drifts: a
/// verdict id written out as a string, a verdict's metric compared with a named figure, a switch on it.
/// </summary>
public sealed class MetricNameTests
{
    private static readonly string[] Folders = { "Reports", "Comparing", "Cli" };

    // A verdict's figure, or a change's, compared with (or switched on) one figure named in the code.
    private static readonly Regex Branch = new(@"\bMetric\s*(?:==|!=|is\b)\s*(?:Metrics\.(?!Headline\b)\w+|CellVerdict\.\w+)|\bMetric\s+switch\b|Metrics\.(?!Headline\b)\w+\.VerdictId\b");

    private static IEnumerable<(string File, string Text)> Sources()
    {
        var root = Path.Combine(BuildLayout.Discover().RepositoryRoot, "loadtests");
        return Folders.SelectMany(f => Directory.EnumerateFiles(Path.Combine(root, f), "*.cs", SearchOption.AllDirectories))
            .Select(f => (Path.GetRelativePath(root, f).Replace('\\', '/'), File.ReadAllText(f)));
    }

    private static int LineOf(string text, int index) => text.Take(index).Count(c => c == '\n') + 1;

    [Fact]
    public void No_renderer_comparer_or_command_branches_on_a_named_figure()
    {
        var found = Sources().SelectMany(s =>
        {
            var code = CodeText.Of(s.Text);
            return Branch.Matches(code).Select(m => $"{s.File}:{LineOf(code, m.Index)}: {m.Value}");
        }).ToList();
        Assert.True(found.Count == 0, "a figure named where its descriptor should be read:\n" + string.Join("\n", found));
    }

    [Fact]
    public void No_judged_figures_id_is_written_out_as_a_string_there()
    {
        var names = Metrics.Judged.SelectMany(m => new[] { m.Id, m.VerdictId! }).Distinct().ToList();
        var literal = new Regex("\"(" + string.Join("|", names.Select(Regex.Escape)) + ")\"");
        var found = Sources().SelectMany(s =>
        {
            // Comments aside (a line's // part): a name in a comment is no branch.
            var code = Regex.Replace(s.Text, @"(?m)^\s*///?.*$|(?<=[;{}),])\s*//.*$", "");
            return literal.Matches(code).Select(m => $"{s.File}:{LineOf(code, m.Index)}: {m.Value}");
        }).ToList();
        Assert.True(found.Count == 0, "a judged figure's id written out where its descriptor should be read:\n" + string.Join("\n", found));
    }

    /// <summary>
    /// A judged figure's descriptor named outright where verdicts are said (held in a local or an array, then compared through it, as a table of
    /// which figure counts which kind of work once was): what the figure is and does belongs in its descriptor's fields. Only the sections'
    /// tables of columns (Reports/Sections) name figures, to show each as a column.
    /// </summary>
    private static readonly Regex JudgedNamed = new(@"\bMetrics\.(" + string.Join("|",
        typeof(Metrics).GetFields(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Static)
            .Where(f => f.FieldType == typeof(MetricDescriptor) && ((MetricDescriptor)f.GetValue(null)!).Judging is not null).Select(f => f.Name)) + @")\b");

    [Fact]
    public void No_judged_figures_descriptor_is_named_where_verdicts_are_said()
    {
        var found = Sources().Where(s => !s.File.StartsWith("Reports/Sections/", StringComparison.Ordinal)).SelectMany(s =>
        {
            var code = CodeText.Of(s.Text);
            return JudgedNamed.Matches(code).Select(m => $"{s.File}:{LineOf(code, m.Index)}: {m.Value}");
        }).ToList();
        Assert.True(found.Count == 0, "a judged figure's descriptor named where its fields should be read:\n" + string.Join("\n", found));
    }

    [Fact]
    public void The_patterns_find_what_they_are_meant_to()
    {
        // A rule that matched nothing would pass above: each form it forbids, as it would be written.
        Assert.Matches(Branch, "v.Metric == Metrics.InstructionsPerRequest.VerdictId");
        Assert.Matches(Branch, "x.Metric is CellVerdict.P90");
        Assert.Matches(Branch, "var label = v.Metric switch");
        Assert.Matches(Branch, "c.Metric != Metrics.LatencyP90Ms");
        Assert.DoesNotMatch(Branch, "v.Metric == Metrics.Headline.VerdictId");
        Assert.DoesNotMatch(Branch, "v.Metric == figure.VerdictId");
        Assert.Matches(JudgedNamed, "var kind = Metrics.SystemCallsPerRequest;");
        Assert.Matches(JudgedNamed, "private static readonly MetricDescriptor[] CostsWithKernel = { Metrics.ServerCpuUsPerRequest };");
        Assert.DoesNotMatch(JudgedNamed, "Metrics.Headline.Judging");
        Assert.DoesNotMatch(JudgedNamed, "Metrics.ServerCores.Of(window)");
    }
}
