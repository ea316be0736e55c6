using System.IO;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using Comparator.Results;

namespace Comparator.Running;

/// <summary>
/// What a run knows before it measures anything: the spec, every planned cell, each target's runtime,
/// and what judges a cell (the machine's cores, the precision). The journal's first line.
/// </summary>
public sealed record RunStart(int SchemaVersion, DateTimeOffset StartedAt, RunSpec Spec, IReadOnlyList<CellPlan> Cells,
    IReadOnlyList<TargetRuntime> Targets, int ProcessorCount, double Precision);

/// <summary>A target of the run in the order asked, with the runtime its cells are labelled with.</summary>
public sealed record TargetRuntime(string Name, string Runtime);

/// <summary>
/// One line of journal.jsonl: one change to what the run has measured or decided, by <see cref="Event"/>
/// (the <c>Is*</c> constants), with the fields that event uses. Every line carries its time.
/// </summary>
public sealed record JournalEntry(string Event, DateTimeOffset At)
{
    public const string IsStart = "start";           // Start
    public const string IsTarget = "target";         // Target: added, or replacing the one of its name
    public const string IsChecks = "checks";         // Checks: the verification the results keep
    public const string IsLaunchFailure = "launch-failure"; // Name, Note: a launch a target missed, and why
    public const string IsCapacity = "capacity";     // Capacity, RequestsPerSecond: a closed-loop cell's capacity in the first launch
    public const string IsWindow = "window";         // Key, Window: one measured window
    public const string IsMissed = "missed";         // Key, Note, Flag: why a launch could not measure a cell
    public const string IsLaunch = "launch";         // Launches, LoadSeconds: a launch ended
    public const string IsLook = "look";             // Look: the sequential design's look after a launch
    public const string IsEnd = "end";               // Partial, Note (why the run stopped adding launches)
    public const string IsProfile = "profile";       // Profile: the profile pass after the run's end (run --profile)
    public const string IsSimulatedStart = "simulated-start";   // Note, Sequential, Runtimes: the simulated pass began, what it counts and how, its planned design, each target's runtime settings
    public const string IsSimulatedWindow = "simulated-window"; // Key, Window: one simulated window
    public const string IsSimulatedEnd = "simulated-end";       // Note, Sequential: the pass's line (failures too) and how it added launches

    public RunStart? Start { get; init; }
    public TargetInfo? Target { get; init; }
    public IReadOnlyList<Check>? Checks { get; init; }
    public string? Name { get; init; }
    public string? Note { get; init; }
    public string? Flag { get; init; }
    public CellKey? Capacity { get; init; }
    public double? RequestsPerSecond { get; init; }
    public CellKey? Key { get; init; }
    public Measurement? Window { get; init; }
    public int? Launches { get; init; }
    public double? LoadSeconds { get; init; }
    public LookSpec? Look { get; init; }
    public bool? Partial { get; init; }
    public ProfileResult? Profile { get; init; }
    public SequentialSpec? Sequential { get; init; }
    public IReadOnlyDictionary<string, string>? Runtimes { get; init; }
}

/// <summary>
/// journal.jsonl in the run directory: every change to a run appended as it happens, one JSON object a
/// line, flushed line by line, so a run whose process died can be rebuilt (`comparator report RUN_DIR`).
/// </summary>
public sealed class RunJournal : IDisposable
{
    public const string FileName = "journal.jsonl";

    private static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    };

    private readonly StreamWriter _writer;

    private RunJournal(string path)
    {
        Path = path;
        _writer = new StreamWriter(new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.Read), new UTF8Encoding(false));
    }

    public string Path { get; }

    /// <summary>A new journal in <paramref name="directory"/> (it must not have one yet).</summary>
    public static RunJournal Create(string directory) => new(System.IO.Path.Combine(directory, FileName));

    public void Append(JournalEntry entry)
    {
        lock (_writer)
        {
            _writer.WriteLine(JsonSerializer.Serialize(entry, Json));
            _writer.Flush();
        }
    }

    public void Dispose()
    {
        lock (_writer) _writer.Dispose();
    }

    /// <summary>
    /// Every whole entry of a journal, in order; a last line cut short by the process's death is left out.
    /// A journal without its start entry, or with a broken line before the last, is an error with one line.
    /// </summary>
    public static IReadOnlyList<JournalEntry> Read(string path)
    {
        var lines = File.ReadAllLines(path);
        var entries = new List<JournalEntry>();
        for (var i = 0; i < lines.Length; i++)
        {
            if (lines[i].Length == 0) continue;
            try
            {
                entries.Add(JsonSerializer.Deserialize<JournalEntry>(lines[i], Json) ?? throw new JsonException("null"));
            }
            catch (JsonException) when (i == lines.Length - 1)
            {
                // the line being written when the process died
            }
            catch (JsonException e)
            {
                throw new InvalidDataException($"{path}: line {i + 1} is not a journal entry: {e.Message}");
            }
        }
        if (entries.Count == 0 || entries[0].Event != JournalEntry.IsStart || entries[0].Start is null)
            throw new InvalidDataException($"{path} is not a run's journal: it does not begin with the run's start");
        return entries;
    }
}
