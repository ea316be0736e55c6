using System.IO;
using System.Text;
using Comparator.Targets;

namespace Comparator.Cli;

/// <summary>
/// `--target NAME=cmd:PROGRAM ARGS...`: a service the comparator starts by command every launch. The words are
/// split as a POSIX shell splits them (quotes and backslashes; nothing expanded), the program found on PATH or
/// from the current directory, and "{port}" replaced by a free port each launch; ready when
/// http://127.0.0.1:{port}/ answers. A targets file (<see cref="TargetsFile"/>) says the rest.
/// </summary>
public static class CommandTargetSpec
{
    public const string Prefix = "cmd:";

    /// <summary>A name that is a file name too (its output files in the run directory are named by it).</summary>
    private static readonly System.Text.RegularExpressions.Regex NamePattern = new("^[A-Za-z0-9][A-Za-z0-9._-]*$");

    /// <summary>The command targets a command line names: each --target NAME=cmd:..., then each entry of --targets-file.</summary>
    public static IReadOnlyList<TargetDefinition> FromOptions(ArgumentReader a)
    {
        var given = a.Defines("--target") ? a.Values("--target") : Array.Empty<string>();
        return given.Where(IsCommand).Select(t => Parse(t, Directory.GetCurrentDirectory()))
            .Concat(a.Defines("--targets-file") && a.Value("--targets-file") is string file ? TargetsFile.Load(file) : Array.Empty<TargetDefinition>())
            .ToList();
    }

    /// <summary>Whether a --target value gives a command rather than a URL.</summary>
    public static bool IsCommand(string spec) => spec.IndexOf('=') is var eq && eq > 0 && spec[(eq + 1)..].StartsWith(Prefix, StringComparison.Ordinal);

    public static TargetDefinition Parse(string spec, string workingDirectory)
    {
        var eq = spec.IndexOf('=');
        var (name, text) = (spec[..eq], spec[(eq + 1 + Prefix.Length)..]);
        var words = Split(text, out var problem);
        if (problem is not null || words.Count == 0)
            throw new UsageException($"run: --target {name}={Prefix}...: {problem ?? "no command after " + Prefix}");
        return Checked(name, new CommandSpec(words[0], words.Skip(1).ToList(), workingDirectory), $"--target {name}");
    }

    /// <summary>
    /// The command's target once its program is found and it can be told its port; else the command is refused
    /// (exit 2) with one line, <paramref name="where"/> naming the --target or the file's entry.
    /// </summary>
    public static TargetDefinition Checked(string name, CommandSpec command, string where)
    {
        if (!NamePattern.IsMatch(name)) throw new UsageException($"run: {where}: a target's name is letters, digits and -_. , not '{name}'");
        if (!Directory.Exists(command.WorkingDirectory)) throw new UsageException($"run: {where}: working directory {command.WorkingDirectory} does not exist");
        var program = CommandRuntime.Resolve(command.Program, command.WorkingDirectory, out var whyNot)
                      ?? throw new UsageException($"run: {where}: {whyNot}");
        if (command.FixedUrl is null && !command.TakesPort)
            throw new UsageException($"run: {where}: its command never says {CommandSpec.PortPlaceholder}, so it cannot be told its port: put {CommandSpec.PortPlaceholder} " +
                                     "where the service reads it (--port {port}, --urls http://127.0.0.1:{port}, or an environment value in a targets file), or give its fixed \"url\" in a targets file");
        return TargetDefinition.ForCommand(name, command with { ResolvedProgram = program });
    }

    /// <summary>Words as a POSIX shell splits them: blanks separate, '...' keeps all, "..." keeps all but \" and \\, a backslash escapes one character.</summary>
    public static IReadOnlyList<string> Split(string text, out string? problem)
    {
        problem = null;
        var words = new List<string>();
        var word = new StringBuilder();
        var inWord = false;
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (char.IsWhiteSpace(c))
            {
                if (inWord) { words.Add(word.ToString()); word.Clear(); inWord = false; }
                continue;
            }
            inWord = true;
            if (c == '\\' && i + 1 < text.Length) { word.Append(text[++i]); continue; }
            if (c is '\'' or '"')
            {
                var end = i + 1;
                for (; end < text.Length && text[end] != c; end++)
                {
                    if (c == '"' && text[end] == '\\' && end + 1 < text.Length && text[end + 1] is '"' or '\\') end++;
                    word.Append(text[end]);
                }
                if (end >= text.Length) { problem = $"a quote ({c}) is not closed"; return words; }
                i = end;
                continue;
            }
            word.Append(c);
        }
        if (inWord) words.Add(word.ToString());
        return words;
    }
}
