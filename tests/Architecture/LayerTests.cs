using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The comparator's folders depend one way (docs/layout.md): each folder is a namespace, and what a
/// folder's files name of another folder (a `using Comparator.X` line, or a qualified X.Type or
/// Comparator.X.Type in code, not in comments or strings) is an edge of the folder graph. The graph has
/// no cycle, and no folder reaches above itself in <see cref="Order"/>.
/// </summary>
public sealed class LayerTests
{
    /// <summary>Top to bottom: a folder may depend on folders of its own row (without a cycle) and of the rows below.</summary>
    public static readonly string[][] Order =
    {
        new[] { "Cli" },
        new[] { "Capacity", "Soak", "Crank", "Profiling", "Simulating" },
        new[] { "Running" },
        new[] { "Reports" },
        new[] { "Comparing" },
        new[] { "Statistics" },
        new[] { "Verification", "Drivers", "Measuring", "Targets", "Scenarios", "Wire" },
        new[] { "Results" },
        new[] { "Errors" },
    };

    private static readonly Lazy<FolderGraph> Loadtests = new(() =>
        FolderGraph.Read(Path.Combine(BuildLayout.Discover().RepositoryRoot, "loadtests")));

    [Fact]
    public void The_folders_of_the_comparator_depend_on_each_other_without_a_cycle()
    {
        var cycles = Loadtests.Value.Cycles();
        Assert.True(cycles.Count == 0, "the folders of loadtests/ depend on each other in a cycle:\n" + string.Join("\n", cycles));
    }

    [Fact]
    public void No_folder_depends_on_a_folder_above_it()
    {
        var row = Order.SelectMany((folders, i) => folders.Select(f => (f, i))).ToDictionary(p => p.f, p => p.i);
        var upward = Loadtests.Value.References
            .Where(r => row.ContainsKey(r.From) && row.ContainsKey(r.To) && row[r.To] < row[r.From])
            .Select(r => $"{r.From} → {r.To} (above it): {r.Where}").ToList();
        Assert.True(upward.Count == 0, "a folder depends on one above it in LayerTests.Order:\n" + string.Join("\n", upward));
    }

    [Fact]
    public void Every_folder_has_its_place_in_the_order_and_every_file_its_folders_namespace()
    {
        var graph = Loadtests.Value;
        var placed = Order.SelectMany(f => f).ToList();
        Assert.Equal(placed.Count, placed.Distinct().Count());
        Assert.Equal(placed.OrderBy(f => f, StringComparer.Ordinal), graph.Folders.OrderBy(f => f, StringComparer.Ordinal));
        Assert.True(graph.Misplaced.Count == 0, "files whose namespace is not their folder's (Comparator.FOLDER):\n" + string.Join("\n", graph.Misplaced));
    }

    [Fact]
    public void The_reader_finds_the_dependencies_the_comparator_is_known_to_have()
    {
        // A reader that found nothing would pass the rules above: these edges are stated in the source.
        var edges = Loadtests.Value.Edges;
        foreach (var (from, to) in new[] { ("Cli", "Running"), ("Running", "Results"), ("Reports", "Statistics"), ("Drivers", "Wire"), ("Cli", "Errors") })
            Assert.True(edges.Contains((from, to)), $"{from} → {to} not found; found: {string.Join(", ", edges.Select(e => $"{e.From} → {e.To}"))}");
    }

    [Fact]
    public void Comments_strings_and_other_names_are_not_dependencies_but_interpolation_holes_are()
    {
        var graph = FolderGraph.Of(new Dictionary<string, string>
        {
            ["Cli/UsageException.cs"] = "namespace Comparator.Cli;\npublic sealed class UsageException { }",
            ["Comparing/PairVerdicts.cs"] = "namespace Comparator.Comparing;\npublic static class PairVerdicts { }",
            ["Targets/TargetCatalog.cs"] = "namespace Comparator.Targets;\npublic static class TargetCatalog { }",
            ["Statistics/Format.cs"] = "namespace Comparator.Statistics;\npublic static class Format { }",
            ["Running/Plan.cs"] = """
                namespace Comparator.Running;
                // using Comparator.Cli; and Cli.UsageException in a comment
                /* Cli.UsageException
                   over lines */
                public sealed class Plan
                {
                    public IReadOnlyList<string> Targets { get; } = new[] { "Cli.UsageException", @"Cli.UsageException ""quoted"" here", "\"Cli.UsageException" };
                    public int Count => Targets.Count + '"' + '\'';
                    public string Raw = QQQ
                        Cli.UsageException "in" a raw string
                        QQQ;
                    public string Braces => $"{{Cli.UsageException}} {Targets.Count}";
                    public string Hole => $"{Comparing.PairVerdicts.Build(null)} {(true ? "Cli.UsageException" : "")}";
                    public string RawHole => $$QQQ{{Statistics.Format.Ratio(1)}} {Cli.UsageException}QQQ;
                }
                """.Replace("QQQ", "\"\"\""),
        });

        Assert.Equal(new[] { "Running → Comparing: Running/Plan.cs:13 Comparing.PairVerdicts", "Running → Statistics: Running/Plan.cs:14 Statistics.Format" },
            graph.References.Select(r => $"{r.From} → {r.To}: {r.Where}"));
    }

    [Fact]
    public void A_cycle_is_named_step_by_step_with_where_each_step_is_written()
    {
        var graph = FolderGraph.Of(new Dictionary<string, string>
        {
            ["Results/ResultStore.cs"] = "using Comparator.Comparing;\n\nnamespace Comparator.Results;\npublic static class ResultStore { }",
            ["Comparing/PairVerdicts.cs"] = "namespace Comparator.Comparing;\npublic static class PairVerdicts { object Rule => Statistics.LeadRule.Default; }",
            ["Statistics/LeadRule.cs"] = "namespace Comparator.Statistics;\npublic sealed record LeadRule { object Store => Comparator.Results.ResultStore.Options; }",
            ["Wire/RawHttp.cs"] = "using Comparator.Results;\nnamespace Comparator.Wire;\npublic static class RawHttp { }",
        });

        var cycle = Assert.Single(graph.Cycles());
        Assert.Equal("Comparing → Statistics → Results → Comparing: Comparing/PairVerdicts.cs:2 Statistics.LeadRule; " +
                     "Statistics/LeadRule.cs:2 Comparator.Results.ResultStore; Results/ResultStore.cs:1 using Comparator.Comparing", cycle);
    }
}

/// <summary>One folder's file naming another folder: <see cref="Where"/> says the file, the line and what it wrote.</summary>
public sealed record FolderReference(string From, string To, string Where);

/// <summary>The folders of a source tree (each a namespace Comparator.FOLDER) and what each names of the others.</summary>
public sealed class FolderGraph
{
    private static readonly Regex Namespace = new(@"(?m)^[ \t]*namespace\s+(?<name>[\w.]+)");
    private static readonly Regex Declaration = new(@"\b(?:class|struct|interface|enum|record)\s+@?(?<name>\w+)");
    private static readonly Regex Using = new(@"(?m)^[ \t]*(?<global>global\s+)?using\s+(?:static\s+)?(?:\w+\s*=\s*)?(?:global::)?Comparator\.(?<folder>\w+)");
    private static readonly Regex Qualified = new(@"(?<![\w.])(?:global::)?(?<root>Comparator\.)?(?<folder>\w+)\.(?<member>\w+)");

    public IReadOnlyList<string> Folders { get; }
    public IReadOnlyList<FolderReference> References { get; }
    /// <summary>Files whose namespace is not their folder's, and `global using Comparator.X` lines (a dependency no folder states).</summary>
    public IReadOnlyList<string> Misplaced { get; }
    public IReadOnlySet<(string From, string To)> Edges => References.Select(r => (r.From, r.To)).ToHashSet();

    private FolderGraph(IReadOnlyList<string> folders, IReadOnlyList<FolderReference> references, IReadOnlyList<string> misplaced) =>
        (Folders, References, Misplaced) = (folders, references, misplaced);

    /// <summary>Every .cs file under <paramref name="root"/> (bin and obj aside); a file at the root itself (Program.cs) belongs to no folder.</summary>
    public static FolderGraph Read(string root) => Of(Directory.EnumerateFiles(root, "*.cs", SearchOption.AllDirectories)
        .Select(f => Path.GetRelativePath(root, f).Replace('\\', '/'))
        .Where(f => !f.Split('/').Any(part => part is "bin" or "obj"))
        .ToDictionary(f => f, f => File.ReadAllText(Path.Combine(root, f))));

    /// <summary>The graph of files given by their path under the source root ("Running/RunPlan.cs") and their text.</summary>
    public static FolderGraph Of(IReadOnlyDictionary<string, string> files)
    {
        var code = files.ToDictionary(f => f.Key, f => CodeText.Of(f.Value));
        var folders = files.Keys.Where(f => f.Contains('/')).Select(FolderOf).Distinct().OrderBy(f => f, StringComparer.Ordinal).ToList();
        var misplaced = new List<string>();
        // The types (and inner namespaces) each folder declares: X.Name is a reference to folder X only where X declares Name.
        var declared = folders.ToDictionary(f => f, _ => new HashSet<string>());
        foreach (var (file, text) in code.Where(f => f.Key.Contains('/')))
        {
            var folder = FolderOf(file);
            var names = Namespace.Matches(text).Select(m => m.Groups["name"].Value).ToList();
            if (names.Count == 0 || names.Any(n => n != "Comparator." + folder && !n.StartsWith("Comparator." + folder + ".", StringComparison.Ordinal)))
                misplaced.Add($"{file}: namespace {(names.Count == 0 ? "none" : string.Join(", ", names))}");
            foreach (var inner in names.SelectMany(n => n.Split('.').Skip(2))) declared[folder].Add(inner);
            foreach (Match m in Declaration.Matches(text)) declared[folder].Add(m.Groups["name"].Value);
        }

        var references = new List<FolderReference>();
        foreach (var (file, text) in code.OrderBy(f => f.Key, StringComparer.Ordinal))
        {
            var from = file.Contains('/') ? FolderOf(file) : null;
            var body = Namespace.Replace(text, m => new string(' ', m.Length));
            foreach (Match m in Using.Matches(body))
            {
                var to = m.Groups["folder"].Value;
                if (m.Groups["global"].Success && declared.ContainsKey(to)) misplaced.Add($"{file}:{LineOf(body, m.Index)} {m.Value.Trim()}: a dependency no folder states");
                if (from is not null && to != from && declared.ContainsKey(to))
                    references.Add(new FolderReference(from, to, $"{file}:{LineOf(body, m.Index)} {m.Value.Trim()}"));
            }
            if (from is null) continue;
            foreach (Match m in Qualified.Matches(Using.Replace(body, u => new string(' ', u.Length))))
            {
                var to = m.Groups["folder"].Value;
                if (to == from || !declared.TryGetValue(to, out var names)) continue;
                if (m.Groups["root"].Success || names.Contains(m.Groups["member"].Value))
                    references.Add(new FolderReference(from, to, $"{file}:{LineOf(body, m.Index)} {m.Value}"));
            }
        }
        return new FolderGraph(folders, references, misplaced);
    }

    /// <summary>Each cycle of folders, one line each: "A → B → A: where A names B; where B names A".</summary>
    public IReadOnlyList<string> Cycles()
    {
        var next = References.GroupBy(r => r.From).ToDictionary(g => g.Key, g => g.Select(r => r.To).Distinct().OrderBy(t => t, StringComparer.Ordinal).ToList());
        var cycles = new List<string>();
        foreach (var component in StronglyConnected(next).Where(c => c.Count > 1))
        {
            // The shortest way from the component's first folder back to it, within the component.
            var start = component.Min(StringComparer.Ordinal)!;
            var cameFrom = new Dictionary<string, string>();
            var queue = new Queue<string>(new[] { start });
            while (queue.Count > 0 && !cameFrom.ContainsKey(start + "↺"))
            {
                var at = queue.Dequeue();
                foreach (var to in next.GetValueOrDefault(at) ?? new List<string>())
                {
                    if (!component.Contains(to)) continue;
                    if (to == start) { cameFrom[start + "↺"] = at; break; }
                    if (cameFrom.TryAdd(to, at)) queue.Enqueue(to);
                }
            }
            var path = new List<string> { start };
            for (var at = cameFrom[start + "↺"]; at != start; at = cameFrom[at]) path.Insert(1, at);
            path.Add(start);
            var steps = path.Zip(path.Skip(1), (a, b) => References.First(r => r.From == a && r.To == b).Where);
            cycles.Add($"{string.Join(" → ", path)}: {string.Join("; ", steps)}");
        }
        return cycles;
    }

    /// <summary>Tarjan's strongly connected components.</summary>
    private static List<HashSet<string>> StronglyConnected(Dictionary<string, List<string>> next)
    {
        var index = new Dictionary<string, int>();
        var low = new Dictionary<string, int>();
        var stack = new Stack<string>();
        var components = new List<HashSet<string>>();
        void Visit(string v)
        {
            index[v] = low[v] = index.Count;
            stack.Push(v);
            foreach (var w in next.GetValueOrDefault(v) ?? new List<string>())
            {
                if (!index.ContainsKey(w)) { Visit(w); low[v] = Math.Min(low[v], low[w]); }
                else if (stack.Contains(w)) low[v] = Math.Min(low[v], index[w]);
            }
            if (low[v] != index[v]) return;
            var component = new HashSet<string>();
            string popped;
            do { popped = stack.Pop(); component.Add(popped); } while (popped != v);
            components.Add(component);
        }
        foreach (var v in next.Keys.OrderBy(k => k, StringComparer.Ordinal))
            if (!index.ContainsKey(v)) Visit(v);
        return components;
    }

    private static string FolderOf(string file) => file[..file.IndexOf('/')];

    private static int LineOf(string text, int index) => 1 + text.AsSpan(0, index).Count('\n');
}

/// <summary>
/// The code of a C# file: comments and the text of string and character literals blanked (their line
/// breaks kept, so lines number alike), the holes of interpolated strings kept, being code.
/// </summary>
public static class CodeText
{
    public static string Of(string source)
    {
        var code = new StringBuilder(source.Length);
        var i = 0;
        Code(source, ref i, code, hole: false);
        return code.ToString();
    }

    /// <summary>Code up to the end, or in a hole up to its closing brace (left for the caller).</summary>
    private static void Code(string s, ref int i, StringBuilder code, bool hole)
    {
        var depth = 0;
        while (i < s.Length)
        {
            var c = s[i];
            if (c == '/' && At(s, i + 1, '/'))
            {
                while (i < s.Length && s[i] != '\n') i++;
                continue;
            }
            if (c == '/' && At(s, i + 1, '*'))
            {
                var end = s.IndexOf("*/", i + 2, StringComparison.Ordinal);
                end = end < 0 ? s.Length : end + 2;
                Breaks(s, i, end, code);
                i = end;
                continue;
            }
            if (c == '\'')
            {
                i += At(s, i + 1, '\\') ? 3 : 2;
                while (i < s.Length && s[i] != '\'' && s[i] != '\n') i++;
                i++;
                code.Append("' '");
                continue;
            }
            if (c is '"' or '$' or '@' && StringLiteral(s, ref i, code)) continue;
            if (hole && c == '{') depth++;
            if (hole && c == '}' && depth-- == 0) return;
            code.Append(c);
            i++;
        }
    }

    /// <summary>A string literal at <paramref name="i"/> (regular, verbatim, raw, any of them interpolated), blanked but for its holes; false where none starts there.</summary>
    private static bool StringLiteral(string s, ref int i, StringBuilder code)
    {
        var j = i;
        int dollars = 0;
        var verbatim = false;
        while (j < s.Length && s[j] is '$' or '@')
        {
            if (s[j] == '$') dollars++; else verbatim = true;
            j++;
        }
        var quotes = Run(s, j, '"');
        if (quotes == 0) return false;
        code.Append('"');
        if (quotes >= 3 && !verbatim)
        {
            // Raw: ends at as many quotes as it opened with; with N dollars a hole opens at N braces.
            i = j + quotes;
            while (i < s.Length)
            {
                if (s[i] == '"' && Run(s, i, '"') >= quotes) { i += Run(s, i, '"'); break; }
                if (dollars > 0 && s[i] == '{' && Run(s, i, '{') >= dollars)
                {
                    i += Run(s, i, '{');
                    Code(s, ref i, code, hole: true);
                    i += Math.Min(dollars, Run(s, i, '}'));
                    continue;
                }
                if (s[i] == '\n') code.Append('\n');
                i++;
            }
        }
        else
        {
            i = j + 1;
            while (i < s.Length)
            {
                var c = s[i];
                if (c == '\\' && !verbatim) { i += 2; continue; }
                if (c == '"' && verbatim && At(s, i + 1, '"')) { i += 2; continue; }
                if (c == '"') { i++; break; }
                if (dollars > 0 && c is '{' or '}' && At(s, i + 1, c)) { i += 2; continue; }
                if (dollars > 0 && c == '{')
                {
                    i++;
                    Code(s, ref i, code, hole: true);
                    i++;
                    continue;
                }
                if (c == '\n')
                {
                    code.Append('\n');
                    if (!verbatim) { i++; break; } // a regular string does not span lines: unterminated, read on as code
                }
                i++;
            }
        }
        code.Append('"');
        return true;
    }

    private static bool At(string s, int i, char c) => i < s.Length && s[i] == c;

    private static int Run(string s, int i, char c)
    {
        var n = 0;
        while (i + n < s.Length && s[i + n] == c) n++;
        return n;
    }

    private static void Breaks(string s, int from, int to, StringBuilder code)
    {
        for (var k = from; k < to; k++)
            if (s[k] == '\n') code.Append('\n');
    }
}
