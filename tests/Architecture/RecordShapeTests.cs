using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// No record of the comparator declares more than <see cref="MostPositional"/> positional parameters: past that a
/// call site is a row of values whose meaning is their place. Settings are grouped by who reads them (RunOptions),
/// and what a saved file adds later is an init property (RunSpec). Read from the source, as <see cref="LayerTests"/> reads it.
/// </summary>
public sealed class RecordShapeTests
{
    public const int MostPositional = 16;

    private static readonly Regex Record = new(@"\brecord\s+(?:class\s+|struct\s+)?(?<name>\w+)\s*(?:<[^>]*>)?\s*\(");

    [Fact]
    public void No_record_declares_more_than_sixteen_positional_parameters()
    {
        var root = Path.Combine(BuildLayout.Discover().RepositoryRoot, "loadtests");
        var records = Directory.EnumerateFiles(root, "*.cs", SearchOption.AllDirectories)
            .Where(f => !Path.GetRelativePath(root, f).Replace('\\', '/').Split('/').Any(part => part is "bin" or "obj"))
            .SelectMany(f => PositionalCounts(File.ReadAllText(f)).Select(r => (File: Path.GetRelativePath(root, f).Replace('\\', '/'), r.Name, r.Count)))
            .ToList();

        // A reader that found nothing would pass: these records are known to be there, with parameters (how many is the rule's, below,
        // not this guard's: a legal change of RunSpec's count must not fail it).
        Assert.Contains(records, r => r.Name == "RunSpec" && r.Count > 0);
        Assert.Contains(records, r => r.Name == "CellKey" && r.Count > 0);
        var wide = records.Where(r => r.Count > MostPositional).Select(r => $"{r.File}: {r.Name} has {r.Count}").ToList();
        Assert.True(wide.Count == 0, $"records with more than {MostPositional} positional parameters (group them by who reads them, " +
                                     "or make what is optional an init property):\n" + string.Join("\n", wide));
    }

    [Fact]
    public void The_count_skips_what_is_nested_in_a_parameter_and_what_is_not_code()
    {
        var source = """
            // public sealed record InComment(int A, int B, int C);
            public sealed record Plain(int A, IReadOnlyDictionary<string, (int X, int Y)> B, string C = "a, b", Func<int, int>? D = null);
            public readonly record struct Point(double X, double Y) { public string Text => $"{X}, {Y}"; }
            public sealed record Generic<T>([property: JsonIgnore] T Value, int[] Items, int N = 1);
            public sealed record Lambda(Func<int, bool> F, int After);
            public sealed record Empty();
            public sealed record NoParameters { public int A { get; init; } }
            """;

        Assert.Equal(new[] { ("Plain", 4), ("Point", 2), ("Generic", 3), ("Lambda", 2), ("Empty", 0) }, PositionalCounts(source));
    }

    /// <summary>
    /// Each record with a parameter list in the file, and how many parameters the list holds at its top level: brackets of
    /// every kind nest, generics' angle brackets too (a comparison in a default value would miscount; none is written).
    /// </summary>
    public static IReadOnlyList<(string Name, int Count)> PositionalCounts(string source)
    {
        var code = CodeText.Of(source);
        var found = new List<(string, int)>();
        foreach (Match m in Record.Matches(code))
        {
            var (depth, commas, any) = (0, 0, false);
            for (var i = m.Index + m.Length; i < code.Length; i++)
            {
                var c = code[i];
                if (c is '(' or '[' or '{' or '<') depth++;
                else if (c is ')' or ']' or '}' || (c == '>' && code[i - 1] != '=')) depth--;
                if (depth < 0) break;
                if (c == ',' && depth == 0) commas++;
                if (!char.IsWhiteSpace(c)) any = true;
            }
            found.Add((m.Groups["name"].Value, any ? commas + 1 : 0));
        }
        return found;
    }
}
