using System;
using System.Collections.Generic;
using System.CommandLine;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Comparator.Cli;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// README.md and docs/ stay true to the tool: every comparator command line they quote names a
/// command that exists and only options that command has (so removing or renaming an option fails
/// here until the docs follow), and every relative link and image resolves to a file.
/// </summary>
public class DocsTests
{
    private static readonly string Root = BuildLayout.Discover().RepositoryRoot;

    public static IEnumerable<object[]> Documents() =>
        new[] { "README.md" }.Concat(Directory.GetFiles(Path.Combine(Root, "docs"), "*.md").Select(f => Path.GetRelativePath(Root, f)))
            .Select(f => new object[] { f.Replace('\\', '/') });

    private static string Read(string doc) => File.ReadAllText(Path.Combine(Root, doc));

    /// <summary>The main job's build (Comparator.Run.slnf) is the core build without the tests, so the two never drift: a target added to one is in both.</summary>
    [Fact]
    public void The_main_jobs_build_is_the_core_build_without_the_tests()
    {
        IReadOnlyList<string> Projects(string filter) => System.Text.Json.JsonDocument.Parse(File.ReadAllText(Path.Combine(Root, filter)))
            .RootElement.GetProperty("solution").GetProperty("projects").EnumerateArray().Select(p => p.GetString()!).ToList();

        Assert.Equal(Projects("Comparator.Core.slnf").Where(p => !p.StartsWith(@"tests\", StringComparison.Ordinal)), Projects("Comparator.Run.slnf"));
        Assert.Contains(@"loadtests\Comparator.csproj", Projects("Comparator.Run.slnf"));
    }

    /// <summary>docs/layout.md's walk of one run names files that exist, and at most 20 of them.</summary>
    [Fact]
    public void The_walk_of_one_run_names_files_that_exist_and_few_of_them()
    {
        var layout = Read("docs/layout.md");
        var walk = layout[layout.IndexOf("## One run, from Main", StringComparison.Ordinal)..];
        var files = Regex.Matches(walk, @"`((?:[A-Za-z]+/)*[A-Za-z]+\.cs)`").Select(m => m.Groups[1].Value).Distinct().ToList();

        Assert.InRange(files.Count, 10, 20);
        Assert.All(files, f => Assert.True(File.Exists(Path.Combine(Root, "loadtests", f)), $"docs/layout.md names loadtests/{f}, which does not exist"));
    }

    /// <summary>How the docs call the comparator: the built dll, `comparator`, or scripts/compare.sh or compare.ps1 (which pass their arguments on).</summary>
    private static readonly Regex Invocation = new(
        @"(?:dotnet\s+artifacts/bin/Comparator/release/comparator\.dll|(?<![\w/.-])comparator|bash\s+scripts/compare\.sh|pwsh\s+scripts/compare\.ps1)(?=\s|`|$)([^`\n]*)",
        RegexOptions.Compiled);

    /// <summary>Every quoted command line: the words after the program, up to a comment or the end of the code.</summary>
    internal static IEnumerable<(string Line, IReadOnlyList<string> Words)> CommandLines(string text)
    {
        // Code spans anywhere; indented lines only where they start with the program (an indented list line is prose).
        var codeLines = Regex.Matches(text, @"`([^`\n]+)`").Select(m => m.Groups[1].Value)
            .Concat(text.Split('\n').Where(l => l.StartsWith("    ", StringComparison.Ordinal)).Select(l => l.Trim())
                .Where(l => Invocation.Match(l) is { Success: true, Index: 0 }));
        foreach (var code in codeLines)
        foreach (Match m in Invocation.Matches(code))
        {
            var rest = m.Groups[1].Value;
            var hash = rest.IndexOf(" #", StringComparison.Ordinal);
            if (hash >= 0) rest = rest[..hash];
            // Words as the shell splits them: a quoted --target 'old=cmd:dotnet Old.dll --port {port}' is one word, its --port the service's.
            var words = CommandTargetSpec.Split(rest, out var unclosed);
            yield return (m.Value.Trim(), unclosed is null ? words : rest.Split(' ', StringSplitOptions.RemoveEmptyEntries));
        }
    }

    /// <summary>What is wrong with the comparator command lines a text quotes: a command that does not exist, an option its command does not have.</summary>
    internal static List<string> CommandProblems(string text, out int checkedLines)
    {
        var root = CommandLine.Build();
        var run = root.Subcommands.First(c => c.Name == "run");
        var problems = new List<string>();
        checkedLines = 0;
        foreach (var (line, words) in CommandLines(text))
        {
            // Usage notation ([--quick], --format html|md, --driver=X) is read for its option names only.
            var tokens = words.Select(w => w.Trim('[', ']', '(', ')', ',', '.', ';', ':', '"', '\'')).Where(w => w.Length > 0).ToList();
            Command? command;
            if (line.StartsWith("bash", StringComparison.Ordinal) || line.StartsWith("pwsh", StringComparison.Ordinal) || tokens.Count == 0 || tokens[0].StartsWith('-')) command = run; // options alone mean run
            else
            {
                command = root.Subcommands.FirstOrDefault(c => c.Name == tokens[0]);
                if (command is null)
                {
                    if (LooksLikeCommand(tokens[0])) problems.Add($"{line}: no command '{tokens[0]}'");
                    continue;
                }
                // A command of commands (`scenario draft`): the options are the subcommand's.
                var depth = 1;
                for (; depth < tokens.Count && command.Subcommands.FirstOrDefault(c => c.Name == tokens[depth]) is Command sub; depth++) command = sub;
                if (command.Subcommands.Count > 0 && depth < tokens.Count && LooksLikeCommand(tokens[depth]))
                    problems.Add($"{line}: '{command.Name}' has no command '{tokens[depth]}'");
            }
            var options = command.Options.SelectMany(o => o.Aliases.Prepend(o.Name)).Append("--help").Append("--version").ToHashSet();
            foreach (var t in tokens.Where(t => t.StartsWith("--", StringComparison.Ordinal)))
            {
                var option = t.Split('=', '|')[0];
                if (option.Length > 2 && !options.Contains(option)) problems.Add($"{line}: '{command.Name}' has no option {option}");
            }
            checkedLines++;
        }
        return problems;
    }

    [Theory]
    [MemberData(nameof(Documents))]
    public void Every_command_line_quoted_names_a_command_and_options_the_comparator_has(string doc)
    {
        var problems = CommandProblems(Read(doc), out var checkedLines);
        Assert.True(problems.Count == 0, doc + ":\n" + string.Join("\n", problems));
        if (doc == "README.md") Assert.True(checkedLines >= 10, $"README.md quotes {checkedLines} comparator command lines; the table alone has more");
    }

    /// <summary>A word that stands where a command would: lower-case letters and dashes (not a path, a file or a placeholder).</summary>
    private static bool LooksLikeCommand(string word) => Regex.IsMatch(word, "^[a-z][a-z-]*$");

    /// <summary>The relative links and images of a text (in the folder <paramref name="dir"/>) that point at no file or folder.</summary>
    internal static List<string> BrokenLinks(string text, string dir) =>
        Regex.Matches(text, @"!?\[[^\]]*\]\(([^)\s]+)\)").Select(m => m.Groups[1].Value)
            .Where(t => !t.Contains("://", StringComparison.Ordinal) && !t.StartsWith('#') && !t.StartsWith("mailto:", StringComparison.Ordinal))
            .Select(t => t.Split('#')[0])
            .Where(t => !File.Exists(Path.Combine(dir, t)) && !Directory.Exists(Path.Combine(dir, t)))
            .ToList();

    [Theory]
    [MemberData(nameof(Documents))]
    public void Every_relative_link_and_image_resolves(string doc)
    {
        var broken = BrokenLinks(Read(doc), Path.GetDirectoryName(Path.Combine(Root, doc))!);
        Assert.True(broken.Count == 0, doc + " links to missing files: " + string.Join(", ", broken));
    }

    [Theory]
    [MemberData(nameof(Documents))]
    public void Every_doc_opens_with_its_title_and_a_one_line_purpose(string doc)
    {
        var lines = Read(doc).Split('\n');
        Assert.StartsWith("# ", lines[0]);
        if (doc != "README.md") Assert.True(lines[1].Length == 0 && lines[2].Length > 0 && lines[3].Length == 0, doc + ": a title, then one line saying what the file is for");
    }

    [Fact]
    public void The_readme_stays_a_front_page()
    {
        var lines = Read("README.md").Split('\n');
        Assert.True(lines.Length <= 151, $"README.md has {lines.Length} lines; the rest belongs in docs/");
        var first = string.Join("\n", lines.Take(60));
        Assert.Contains("99% interval", first); // a real run's verdicts, with their intervals, on the front page
        Assert.Matches(@"!\[[^\]]*\]\(docs/[^)]+\.png\)", first);
    }

    /// <summary>
    /// The first lines give exactly two set-up commands, the main job and the tests, then the same two for
    /// Windows (PowerShell 7) in the sentence beside them; each script exists.
    /// </summary>
    [Fact]
    public void The_readme_opens_with_the_set_up_commands_for_linux_and_windows()
    {
        var opening = Read("README.md").Split('\n').Take(10).TakeWhile(l => !l.StartsWith("Comparator answers", StringComparison.Ordinal)).ToList();
        var setUp = opening.Where(l => l.StartsWith("    ", StringComparison.Ordinal)).Select(l => l.Split('#')[0].Trim()).ToList();
        Assert.Equal(new[] { "bash scripts/compare.sh", "bash scripts/test.sh" }, setUp);
        var windows = opening.Single(l => l.StartsWith("On Windows", StringComparison.Ordinal));
        Assert.Contains("`pwsh scripts/compare.ps1`", windows);
        Assert.Contains("`pwsh scripts/test.ps1`", windows);
        foreach (var script in setUp.Select(c => c.Split(' ')[1]).Concat(new[] { "scripts/compare.ps1", "scripts/test.ps1" }))
            Assert.True(File.Exists(Path.Combine(Root, script)), "README.md's set-up names " + script + ", which does not exist");
    }

    [Fact]
    public void The_checks_catch_a_removed_option_an_unknown_command_and_a_broken_link()
    {
        var text = "run it: `comparator run --quick --no-such-option 3`\n\n" +
                   "    dotnet artifacts/bin/Comparator/release/comparator.dll diff A B --threshold 5%   # compare\n" +
                   "    comparator frobnicate --quick\n" +
                   "    bash scripts/compare.sh --sizes 500 --endpoint time\n" +
                   "    pwsh scripts/compare.ps1 --quick --sizes 500\n" +
                   "see [the docs](docs/nowhere.md) and [crank](https://github.com/dotnet/crank)\n";
        var problems = CommandProblems(text, out var checkedLines);
        Assert.Equal(4, checkedLines);
        Assert.Equal(new[]
        {
            "comparator run --quick --no-such-option 3: 'run' has no option --no-such-option",
            "comparator frobnicate --quick: no command 'frobnicate'",
            "bash scripts/compare.sh --sizes 500 --endpoint time: 'run' has no option --endpoint",
        }, problems.OrderBy(p => p.StartsWith("bash") ? 2 : p.Contains("frobnicate") ? 1 : 0));
        Assert.Equal(new[] { "docs/nowhere.md" }, BrokenLinks(text, Root));
    }
}
