using Comparator.Results;

namespace Comparator.Running;

/// <summary>
/// What a run has measured and decided so far. Every change is one <see cref="JournalEntry"/>: written to
/// the journal (when the run keeps one), then applied here. A journal read back applies the same entries
/// (<see cref="Replay"/>), so a run rebuilt from its journal holds what the run held when the line was written.
/// </summary>
public sealed class RunRecord
{
    private readonly RunJournal? _journal;
    private readonly List<TargetInfo> _targets = new();
    private readonly List<Check> _checks = new();
    private readonly Dictionary<string, List<string>> _launchFailures = new();
    private readonly Dictionary<CellKey, double> _capacity = new();
    private readonly Dictionary<CellKey, List<Measurement>> _windows = new();
    private readonly Dictionary<CellKey, (string Reason, string Flag)> _missed = new();
    private readonly List<LookSpec> _looks = new();

    private RunRecord(RunStart start, RunJournal? journal)
    {
        Start = start;
        _journal = journal;
        Stopped = start.Spec.Sequential?.Stopped ?? "";
        LastAt = start.StartedAt;
    }

    /// <summary>A new run's record, its start the journal's first line.</summary>
    public static RunRecord Begin(RunStart start, RunJournal? journal)
    {
        var record = new RunRecord(start, journal);
        journal?.Append(new JournalEntry(JournalEntry.IsStart, start.StartedAt) { Start = start });
        return record;
    }

    /// <summary>The run a journal's entries describe, each applied as the run applied it.</summary>
    public static RunRecord Replay(IReadOnlyList<JournalEntry> entries)
    {
        var record = new RunRecord(entries[0].Start!, null);
        foreach (var entry in entries.Skip(1)) record.Apply(entry);
        return record;
    }

    public RunStart Start { get; }
    public IReadOnlyList<TargetInfo> Targets => _targets;
    public IReadOnlyList<Check> Checks => _checks;
    public IReadOnlyList<LookSpec> Looks => _looks;
    /// <summary>Load spent so far (warm-ups and measured windows), and the launches run.</summary>
    public double LoadSeconds { get; private set; }
    public int LaunchesRun { get; private set; }
    /// <summary>Why the run stopped adding launches.</summary>
    public string Stopped { get; private set; }
    /// <summary>Whether the run recorded its end, and whether it ended early; null for a run whose journal has no end.</summary>
    public bool? Partial { get; private set; }
    /// <summary>When the last change was recorded: a finished run's end.</summary>
    public DateTimeOffset LastAt { get; private set; }

    /// <summary>The profile pass's result, when the run had one (it comes after the run's end).</summary>
    public ProfileResult? Profile { get; private set; }

    /// <summary>The simulated pass as journaled: its line (null where it never began), whether it ended, how it added launches, its windows by cell.</summary>
    public string? SimulatedLine { get; private set; }
    public bool SimulatedEnded { get; private set; }
    public SequentialSpec? SimulatedSequential { get; private set; }
    public IReadOnlyDictionary<string, string>? SimulatedRuntimes { get; private set; }
    public IReadOnlyDictionary<CellKey, IReadOnlyList<Measurement>> SimulatedWindows =>
        _simulated.ToDictionary(w => w.Key, w => (IReadOnlyList<Measurement>)w.Value);
    private readonly Dictionary<CellKey, List<Measurement>> _simulated = new();

    public IReadOnlyList<string>? LaunchFailuresOf(string target) => _launchFailures.TryGetValue(target, out var list) ? list : null;
    public IReadOnlyList<Measurement>? WindowsOf(CellKey key) => _windows.TryGetValue(key, out var list) ? list : null;
    public (string Reason, string Flag)? MissedOf(CellKey key) => _missed.TryGetValue(key, out var why) ? why : null;

    /// <summary>Whether the target failed its first start or verification (it is not started again).</summary>
    public bool NotMeasured(string target) => _targets.Any(t => t.Name == target && !t.Measured);

    /// <summary>The requests/s a fixed-rate cell asks, whole; null for the closed loop or while its capacity is unknown.</summary>
    public double? RateOf(CellPlan c) => c.Rate switch
    {
        null => null,
        { PerSecond: double r } => r,
        { ShareOfCapacity: double share } => _capacity.TryGetValue(c.Key, out var capacity) ? Math.Max(1, Math.Round(capacity * share)) : null,
        _ => null,
    };

    public CellKey Key(string target, CellPlan c) => c.For(target, c.Rate is null ? null : RateOf(c) ?? 0);

    public void Target(TargetInfo target) => Record(new JournalEntry(JournalEntry.IsTarget, Now) { Target = target });
    public void AddChecks(IReadOnlyList<Check> checks) => Record(new JournalEntry(JournalEntry.IsChecks, Now) { Checks = checks });
    public void LaunchFailure(string target, string note) => Record(new JournalEntry(JournalEntry.IsLaunchFailure, Now) { Name = target, Note = note });
    public void Capacity(CellKey cell, double requestsPerSecond) =>
        Record(new JournalEntry(JournalEntry.IsCapacity, Now) { Capacity = cell, RequestsPerSecond = requestsPerSecond });
    public void Window(CellKey key, Measurement window) => Record(new JournalEntry(JournalEntry.IsWindow, Now) { Key = key, Window = window });
    public void Missed(CellKey key, string reason, string flag) => Record(new JournalEntry(JournalEntry.IsMissed, Now) { Key = key, Note = reason, Flag = flag });
    public void LaunchEnded(int launchesRun, double loadSeconds)
    {
        Record(new JournalEntry(JournalEntry.IsLaunch, Now) { Launches = launchesRun, LoadSeconds = loadSeconds + _unplannedLoad });
        _unplannedLoad = 0;
    }

    /// <summary>Load the launch spent beyond its plan on a cell's targets (a .NET target held until its JIT stopped): charged to the budget when the launch ends.</summary>
    public void UnplannedLoad(double seconds, int targets)
    {
        _unplannedLoad += seconds;
        _unplannedTotal += seconds;
        _targetCells += targets;
    }

    /// <summary>The mean unplanned load of one target's cell so far: the next launch's estimate of it, for the budget.</summary>
    public double UnplannedPerTargetCell => _targetCells == 0 ? 0 : _unplannedTotal / _targetCells;

    private double _unplannedLoad, _unplannedTotal;
    private int _targetCells;
    public void Look(LookSpec look) => Record(new JournalEntry(JournalEntry.IsLook, Now) { Look = look });
    public void End(bool partial, string stopped) => Record(new JournalEntry(JournalEntry.IsEnd, Now) { Partial = partial, Note = stopped });

    private static DateTimeOffset Now => DateTimeOffset.UtcNow;

    private void Record(JournalEntry entry)
    {
        _journal?.Append(entry);
        Apply(entry);
    }

    private void Apply(JournalEntry e)
    {
        LastAt = e.At;
        switch (e.Event)
        {
            case JournalEntry.IsTarget:
                var index = _targets.FindIndex(t => t.Name == e.Target!.Name);
                if (index >= 0) _targets[index] = e.Target!;
                else _targets.Add(e.Target!);
                break;
            case JournalEntry.IsChecks: _checks.AddRange(e.Checks!); break;
            case JournalEntry.IsLaunchFailure:
                var notes = _launchFailures.TryGetValue(e.Name!, out var list) ? list : _launchFailures[e.Name!] = new List<string>();
                if (!notes.Contains(e.Note!)) notes.Add(e.Note!);
                break;
            case JournalEntry.IsCapacity: _capacity[e.Capacity!] = e.RequestsPerSecond!.Value; break;
            case JournalEntry.IsWindow:
                (_windows.TryGetValue(e.Key!, out var windows) ? windows : _windows[e.Key!] = new List<Measurement>()).Add(e.Window!);
                break;
            case JournalEntry.IsMissed: _missed[e.Key!] = (e.Note!, e.Flag!); break;
            case JournalEntry.IsLaunch: (LaunchesRun, LoadSeconds) = (e.Launches!.Value, e.LoadSeconds!.Value); break;
            case JournalEntry.IsLook: _looks.Add(e.Look!); break;
            case JournalEntry.IsEnd: (Partial, Stopped) = (e.Partial, e.Note ?? Stopped); break;
            case JournalEntry.IsProfile: Profile = e.Profile; break;
            case JournalEntry.IsSimulatedStart: (SimulatedLine, SimulatedSequential, SimulatedRuntimes) = (e.Note, e.Sequential, e.Runtimes); break;
            case JournalEntry.IsSimulatedWindow:
                (_simulated.TryGetValue(e.Key!, out var counted) ? counted : _simulated[e.Key!] = new List<Measurement>()).Add(e.Window!);
                break;
            case JournalEntry.IsSimulatedEnd: (SimulatedLine, SimulatedEnded, SimulatedSequential) = (e.Note, true, e.Sequential); break;
        }
    }
}
