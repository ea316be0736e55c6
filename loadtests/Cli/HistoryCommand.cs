using System.CommandLine;
using System.IO;
using Comparator.Comparing;
using Comparator.Errors;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Reports.Exporters;

namespace Comparator.Cli;

/// <summary>
/// history [DIR...]: every run under the folders (results/ by default), grouped by machine and target set, in time order; per target,
/// cell and judged figure a series, its change points (<see cref="Statistics.ChangePoints"/>), and a gate on the figure that gates.
/// Writes history.html, history.md and history.json; exit 0 no change for the worse, 1 a gating figure changed for the worse since the
/// newest baseline, 2 nothing to read (or runs of several machines and no --machine), 3 too few runs to find a change.
/// </summary>
public static class HistoryCommand
{
    public const string ExitCodesText = "Exit 0: no gating figure changed for the worse since the newest baseline; 1: one did; " +
        "2: no runs to read, or runs of several machines without --machine; 3: too few runs to find a change (a change needs 3 runs on each side).";

    public static Command Define()
    {
        var history = new Command("history",
            "Every run under the folders (results/ by default) as a history: per machine, target set, cell and judged figure a series in time order, " +
            "the change points a windowed t-test finds in it, and a gate (instructions per request where counted, else req/s). " +
            "Writes history.html (a trend chart per cell and figure), history.md and history.json. " + ExitCodesText)
        {
            new Argument<string[]>("DIR") { Description = "Folders holding run directories (each with results.json, as `run` writes them), searched to any depth. Default: results.", Arity = ArgumentArity.ZeroOrMore },
            CommandLine.One("--since", "DATE", "Only runs started at or after this UTC date or time (2026-11-01, 2026-11-01T12:00)."),
            CommandLine.One("--last", "N", "Only the newest N runs of each group (2 to 10000)."),
            CommandLine.One("--machine", "FINGERPRINT|each|any", "Runs of more than one machine: keep one machine's (its fingerprint, or the first characters of it), " +
                "chart each machine apart (each), or mix them in one series (any). Without it, runs of several machines are refused."),
            CommandLine.One("--mark-baseline", "RUN", "Mark this run directory as an intended new baseline (writes baseline.json beside its results.json), then show the history: " +
                "no change is looked for across the mark, and only changes after the newest mark gate."),
            CommandLine.One("--reason", "TEXT", "With --mark-baseline: why the change was intended, shown beside the run."),
            CommandLine.One("--unmark-baseline", "RUN", "Take a run's baseline mark away, then show the history."),
            CommandLine.One("--out", "DIR", "Where history.html, history.md and history.json go. Default: history/ in the first folder."),
        };
        foreach (var option in CiOutputs.Options()) history.Options.Add(option);
        history.SetAction(parse => Run(new ArgumentReader(parse)));
        return history;
    }

    public static int Run(ArgumentReader options)
    {
        var folders = options.Arguments("DIR") is { Count: > 0 } given ? given : new[] { "results" };
        var selection = new HistorySelection(Since(options.Value("--since")),
            options.Value("--last") is string last ? OptionValues.PositiveInt("--last", last, 10000, "history") : null, options.Value("--machine"));
        if (selection.Last is < 2) throw new UsageException("history: --last needs at least 2 runs: a series of one has no history");
        if (options.Value("--reason") is not null && options.Value("--mark-baseline") is null) throw new UsageException("history: --reason goes with --mark-baseline RUN");
        if (options.Value("--mark-baseline") is string mark)
        {
            BaselineMark.Write(RunDirectory(mark, "--mark-baseline"), new BaselineMark(DateTimeOffset.UtcNow, options.Value("--reason")));
            Console.Error.WriteLine($"history: marked {mark} as a baseline");
        }
        if (options.Value("--unmark-baseline") is string unmark)
            Console.Error.WriteLine(BaselineMark.Remove(RunDirectory(unmark, "--unmark-baseline")) ? $"history: {unmark} is no longer a baseline" : $"history: {unmark} was not a baseline");

        var (inputs, skipped) = Read(folders);
        foreach (var line in skipped) Console.Error.WriteLine("history: skipped " + line);
        if (inputs.Count == 0)
            throw new IncomparableException($"history: no runs under {string.Join(", ", folders)} (a run is a directory with results.json, as `run` writes)" +
                                            (skipped.Count > 0 ? $"; {skipped.Count} skipped" : ""));
        var machines = RunHistory.Machines(inputs);
        if (machines.Count > 1 && selection.Machine is null)
            throw new IncomparableException($"history: runs of {machines.Count} machines ({string.Join("; ", machines.Select(m => $"{m.Fingerprint}: {m.Runs} run(s) on {m.Text}"))}): " +
                                            "keep one with --machine FINGERPRINT, chart each apart with --machine each, or mix them with --machine any");
        if (selection.Machine is string chosen && chosen is not HistorySelection.EachMachine and not HistorySelection.AnyMachine
            && !machines.Any(m => m.Fingerprint.StartsWith(chosen, StringComparison.OrdinalIgnoreCase)))
            throw new IncomparableException($"history: no run of machine {chosen}; the runs' machines: {string.Join(", ", machines.Select(m => m.Fingerprint))}");

        var history = RunHistory.Build(inputs, selection, DateTimeOffset.UtcNow, skipped);
        if (history.Groups.Count == 0)
            throw new IncomparableException($"history: none of the {inputs.Count} runs is at or after {selection.Since:yyyy-MM-dd HH:mm} UTC");
        var exit = history.HasRegression ? ExitCodes.Failed : history.CannotJudge ? ExitCodes.CannotJudge : ExitCodes.Success;

        var markdown = HistoryReport.Markdown(history);
        var outDirectory = options.Value("--out") ?? Path.Combine(Directory.Exists(folders[0]) ? folders[0] : Path.GetDirectoryName(Path.GetFullPath(folders[0]))!, "history");
        try
        {
            Directory.CreateDirectory(outDirectory);
            OutputFiles.WriteAtomically(Path.Combine(outDirectory, "history.md"), markdown, replace: true);
            OutputFiles.WriteAtomically(Path.Combine(outDirectory, "history.html"), HistoryReport.Html(history), replace: true);
            OutputFiles.WriteAtomically(Path.Combine(outDirectory, "history.json"), HistoryReport.Json(history), replace: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new UsageException($"history: cannot write {outDirectory}: {e.Message}");
        }
        Console.Write(markdown);
        Console.Error.WriteLine($"history: wrote {Path.Combine(outDirectory, "history.html")}, history.md and history.json");
        CiOutputs.Write(options, () => JUnitReport.Render(history, history.At), () => HistoryReport.Summary(history, exit));
        return exit;
    }

    /// <summary>Every run under the folders (or a results.json given itself), and one line for each that could not be read.</summary>
    private static (IReadOnlyList<HistoryInput> Runs, IReadOnlyList<string> Skipped) Read(IReadOnlyList<string> paths)
    {
        var runs = new List<HistoryInput>();
        var skipped = new List<string>();
        foreach (var path in paths)
        {
            IEnumerable<string> files;
            if (File.Exists(path)) files = new[] { path };
            else if (Directory.Exists(path))
                files = Directory.EnumerateFiles(path, "results.json", new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true })
                    .Order(StringComparer.Ordinal);
            else throw new IncomparableException($"history: {path} does not exist");
            foreach (var file in files)
            {
                var directory = Path.GetDirectoryName(file) ?? ".";
                try
                {
                    runs.Add(new HistoryInput(SavedRun.Read(File.ReadAllText(file), file), Path.GetRelativePath(".", directory), BaselineMark.Read(directory)));
                }
                catch (Exception e) when (e is InvalidDataException or IOException or UnauthorizedAccessException)
                {
                    skipped.Add($"{file}: {e.Message}");
                }
            }
        }
        return (runs, skipped);
    }

    /// <summary>A run directory as --mark-baseline names it (or its results.json): it must hold a run.</summary>
    private static string RunDirectory(string path, string option)
    {
        var directory = File.Exists(path) && Path.GetFileName(path) == "results.json" ? Path.GetDirectoryName(Path.GetFullPath(path))! : path;
        if (!File.Exists(Path.Combine(directory, "results.json")))
            throw new UsageException($"history: {option} {path} is not a run directory (it has no results.json)");
        return directory;
    }

    private static DateTimeOffset? Since(string? raw)
    {
        if (raw is null) return null;
        return DateTimeOffset.TryParse(raw, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out var at)
            ? at
            : throw new UsageException($"history: --since needs a UTC date or time such as 2026-11-01 or 2026-11-01T12:00, not '{raw}'");
    }
}
