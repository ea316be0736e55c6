using System.IO;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Reports.Exporters;

namespace Comparator.Cli;

/// <summary>
/// A run measured into a run directory of its own: the directory is made before the first target starts,
/// every change is appended to its journal.jsonl as it happens, and results.json and the reports are
/// written into it at the end. A run whose process died leaves the journal, and <see cref="RebuildIfDied"/>
/// makes the results and reports of every window it measured from it.
/// </summary>
public static class JournaledRun
{
    /// <summary>Measures (<paramref name="measure"/> is handed the journal) into a new directory under <paramref name="outDirectory"/>.</summary>
    /// <returns>the run's report, built once: its files were written from it, and the terminal prints from it</returns>
    public static Task<(RunReport Report, string Directory)> MeasureAsync(string outDirectory, Func<RunJournal, Task<RunResult>> measure) =>
        MeasureAsync(outDirectory, (journal, _) => measure(journal));

    /// <summary>The same, <paramref name="measure"/> told the run directory too (a profile pass writes its files there).</summary>
    public static async Task<(RunReport Report, string Directory)> MeasureAsync(string outDirectory, Func<RunJournal, string, Task<RunResult>> measure)
    {
        var directory = OutputFiles.CreateNewDirectory(outDirectory, "", DateTimeOffset.UtcNow);
        RunResult run;
        using (var journal = RunJournal.Create(directory))
            run = await measure(journal, directory);
        var report = new RunReport(run);
        RunDirectory.WriteInto(report, directory);
        return (report, directory);
    }

    /// <summary>Why a run rebuilt from its journal stopped adding launches: its process ended first.</summary>
    public const string Died = "the run's process ended before the run did (rebuilt from its journal)";

    /// <summary>
    /// A run directory with a journal and no results.json (the run's process died): the run rebuilt from the
    /// journal, marked partial unless the journal recorded its end, with results.json and the reports written
    /// into the directory. Null for anything else (a results file, a finished run's directory).
    /// </summary>
    public static RunResult? RebuildIfDied(string path)
    {
        var journalPath = Path.Combine(path, RunJournal.FileName);
        if (!Directory.Exists(path) || File.Exists(Path.Combine(path, "results.json")) || !File.Exists(journalPath)) return null;
        // A run's files are never overwritten: where some survive without results.json (removed by hand), say so before measuring anything.
        var written = Exporters.Files.Select(e => e.FileName!).Where(f => File.Exists(Path.Combine(path, f)) || Directory.Exists(Path.Combine(path, f))).ToList();
        if (written.Count > 0)
            throw new IncomparableException($"cannot rebuild {path} from its journal: it has no results.json but holds {string.Join(", ", written)}, which a rebuild " +
                                            $"would write again and a run's files are never overwritten; copy {RunJournal.FileName} into an empty directory and give that");
        IReadOnlyList<JournalEntry> entries;
        try { entries = RunJournal.Read(journalPath); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
        { throw new IncomparableException($"cannot rebuild {path} from its journal: {e.Message}"); }
        var record = RunRecord.Replay(entries);
        var lastAt = record.LastAt;
        if (record.Partial is null) record.End(partial: true, Died);
        var run = RunAssembly.Result(record, record.Partial!.Value, lastAt, PairVerdicts.Build);
        RunDirectory.WriteInto(run, path);
        var windows = entries.Count(e => e.Event == JournalEntry.IsWindow);
        Console.Error.WriteLine($"report: {path} had no results.json: rebuilt from {RunJournal.FileName} ({windows} window(s), {record.LaunchesRun} launch(es) finished" +
                                $"{(run.Partial ? ", marked partial" : "")}); results.json and the reports written there");
        return run;
    }
}
