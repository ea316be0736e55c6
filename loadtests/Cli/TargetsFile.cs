using System.IO;
using System.Text.Json;
using System.Text.RegularExpressions;
using Comparator.Scenarios;
using Comparator.Targets;

namespace Comparator.Cli;

/// <summary>
/// `--targets-file FILE`: services started by command, for a team's CI (docs/migration.md). JSON, read as scenario
/// files are (<see cref="StrictJson"/>): an unknown field, a wrong kind of value or a missing one refuses the file in one line naming the file,
/// the line and the field. A relative working directory is the file's own directory's; a relative program, the
/// working directory's.
/// </summary>
public static class TargetsFile
{
    private const string Fields = "targets; name, program, arguments, workingDirectory, environment, url, ready, readyTimeout, stopGrace; ready: path, status, outputLine";

    public static IReadOnlyList<TargetDefinition> Load(string file)
    {
        string text;
        try { text = File.ReadAllText(file); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        { throw new UsageException($"run: --targets-file {file}: cannot read it: {e.Message}"); }
        FileDto? dto;
        try { dto = JsonSerializer.Deserialize<FileDto>(text, StrictJson.Options); }
        catch (JsonException e) { throw Error(file, StrictJson.Line(e).TrimStart() + (e.LineNumber is null ? "" : ": ") + (string.IsNullOrEmpty(e.Path) ? "" : e.Path + ": "), StrictJson.Explain(e, Fields)); }
        if (dto?.Targets is not { Count: > 0 } targets) throw Error(file, "$.targets: ", "expected a list of one or more targets");
        var directory = Path.GetDirectoryName(Path.GetFullPath(file)) ?? ".";
        return targets.Select((t, i) => Target(file, directory, t, $"$.targets[{i}]")).ToList();
    }

    private static TargetDefinition Target(string file, string directory, TargetDto? t, string at)
    {
        if (t is null) throw Error(file, at + ": ", "expected a target object");
        if (string.IsNullOrWhiteSpace(t.Name)) throw Error(file, at + ".name: ", "expected the target's name");
        if (string.IsNullOrWhiteSpace(t.Program)) throw Error(file, at + ".program: ", "expected the program that starts it (dotnet, mono, or a path)");
        Uri? url = null;
        if (t.Url is string u && (!Uri.TryCreate(u, UriKind.Absolute, out url) || url.Scheme is not ("http" or "https")))
            throw Error(file, at + ".url: ", $"expected http://HOST:PORT/ or https://HOST:PORT/, not '{u}'");
        var command = new CommandSpec(t.Program, t.Arguments ?? new List<string>(), Path.GetFullPath(t.WorkingDirectory ?? ".", directory))
        {
            Environment = t.Environment ?? new Dictionary<string, string>(),
            FixedUrl = url,
            Ready = Ready(file, t.Ready, at + ".ready"),
            ReadyTimeout = t.ReadyTimeout is string r ? Duration(file, at + ".readyTimeout", r) : CommandSpec.DefaultReadyTimeout,
            StopGrace = t.StopGrace is string g ? Duration(file, at + ".stopGrace", g) : CommandSpec.DefaultStopGrace,
        };
        return CommandTargetSpec.Checked(t.Name, command, $"--targets-file {file}: {at} ({t.Name})");
    }

    private static ReadyCheck Ready(string file, ReadyDto? ready, string at)
    {
        if (ready is null) return ReadyCheck.AnyAnswer;
        if (ready.OutputLine is string line)
        {
            if (ready.Path is not null || ready.Status is not null) throw Error(file, at + ": ", "give \"outputLine\" or \"path\" (and \"status\"), not both");
            try { return new ReadyCheck(null, null, new Regex(line, RegexOptions.None, TimeSpan.FromSeconds(1))); }
            catch (ArgumentException e) { throw Error(file, at + ".outputLine: ", "not a regular expression: " + e.Message); }
        }
        var path = ready.Path ?? "/";
        if (!path.StartsWith('/')) throw Error(file, at + ".path: ", $"expected a path from the service's root, such as /health, not '{path}'");
        if (ready.Status is int s && s is < 100 or > 599) throw Error(file, at + ".status: ", $"expected an HTTP status (100 to 599), not {s}");
        return new ReadyCheck(path, ready.Status, null);
    }

    private static TimeSpan Duration(string file, string at, string raw)
    {
        try { return OptionValues.Duration(at, raw, allowZero: false); }
        catch (UsageException) { throw Error(file, at + ": ", $"expected a duration such as 30s or 500ms, not '{raw}'"); }
    }

    private static UsageException Error(string file, string at, string what) => new($"run: --targets-file {file}: {at}{what}");

    private sealed class FileDto
    {
        public List<TargetDto?>? Targets { get; set; }
    }

    private sealed class TargetDto
    {
        public string? Name { get; set; }
        public string? Program { get; set; }
        public List<string>? Arguments { get; set; }
        public string? WorkingDirectory { get; set; }
        public Dictionary<string, string>? Environment { get; set; }
        public string? Url { get; set; }
        public ReadyDto? Ready { get; set; }
        public string? ReadyTimeout { get; set; }
        public string? StopGrace { get; set; }
    }

    private sealed class ReadyDto
    {
        public string? Path { get; set; }
        public int? Status { get; set; }
        public string? OutputLine { get; set; }
    }
}
