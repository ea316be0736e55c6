using System.IO;

namespace Comparator.Simulating;

/// <summary>One thread's part of a callgrind dump: its instructions (the "Ir" event, its self cost) and the object file it spent the most of them in.</summary>
/// <param name="Thread">callgrind's thread number (1 is the main thread), from the file's name</param>
/// <param name="TopObject">the object file (executable or library) with the most self cost, or null where the dump names none</param>
/// <param name="TopShare">that object's share of the thread's self cost</param>
public sealed record CallgrindThread(int Thread, long Instructions, string? TopObject, double TopShare)
{
    /// <summary>
    /// A thread that spent most of the window compiling: the JIT's own library (.NET's libclrjit) holds most of its self cost. Tiering's
    /// background compiler keeps finding work under a slowed-down clock, so its count is start-up work that a steady server does not repeat.
    /// </summary>
    public bool Compiling => TopObject is string o && IsJit(o) && TopShare >= 0.5;

    /// <summary>
    /// The thread's self cost in the JIT's own library, wherever the thread spent the rest: with tiering off a .NET method is compiled on the
    /// thread that first calls it, so a request thread that met a new path compiled it in its window (a window of kestrel at echo-post 4KB
    /// counted 28.9M on one worker, 14.2M of it in libclrjit).
    /// </summary>
    public long JitInstructions { get; init; }

    public static bool IsJit(string objectFile) => objectFile.Contains("clrjit", StringComparison.OrdinalIgnoreCase);
}

/// <summary>
/// callgrind's dump files, read: with --separate-threads=yes a dump is one file per thread, "STEM.N-TT" (N the dump's number from 1,
/// TT the thread), each with a "summary:" (or "totals:") line of its events and cost lines under "ob=" (object) and "fn=" (function)
/// names, compressed as "(id) name" the first time and "(id)" after. A line after "calls=" is a call's inclusive cost, not the
/// caller's own, and is left out of the self cost by object.
/// </summary>
public static class CallgrindDump
{
    /// <summary>Every thread's part of dump <paramref name="dump"/> of the files named <paramref name="stem"/> in <paramref name="directory"/>, by thread.</summary>
    public static IReadOnlyList<CallgrindThread> Read(string directory, string stem, int dump)
    {
        var prefix = $"{stem}.{dump}-";
        return Directory.EnumerateFiles(directory, prefix + "*")
            .Select(f => (File: f, Thread: int.TryParse(Path.GetFileName(f)[prefix.Length..], NumberStyles.None, CultureInfo.InvariantCulture, out var t) ? t : -1))
            .Where(f => f.Thread > 0)
            .Select(f => Parse(File.ReadAllText(f.File), f.Thread))
            .OrderBy(t => t.Thread).ToList();
    }

    /// <summary>One thread's file: its total instructions and the object file most of its self cost was in.</summary>
    public static CallgrindThread Parse(string text, int thread)
    {
        long? summary = null, totals = null;
        var names = new Dictionary<string, string>();
        var byObject = new Dictionary<string, long>();
        var current = "";
        var afterCall = false;
        foreach (var raw in text.Split('\n'))
        {
            var line = raw.TrimEnd('\r');
            if (line.Length == 0) continue;
            if (line.StartsWith("summary:", StringComparison.Ordinal)) summary = FirstNumber(line["summary:".Length..]);
            else if (line.StartsWith("totals:", StringComparison.Ordinal)) totals = FirstNumber(line["totals:".Length..]);
            else if (line.StartsWith("ob=", StringComparison.Ordinal)) current = Name(line[3..], names);
            // A call's object may be named first here, and only "(id)" on the ob= line that comes to it later.
            else if (line.StartsWith("cob=", StringComparison.Ordinal)) Name(line[4..], names);
            else if (line.StartsWith("calls=", StringComparison.Ordinal)) afterCall = true;
            else if (char.IsDigit(line[0]) || line[0] is '+' or '-' or '*')
            {
                // A cost line: the position, then the events (Ir first); the one after a calls= line is the call's, not this function's.
                if (!afterCall && line.Split(' ', StringSplitOptions.RemoveEmptyEntries) is { Length: >= 2 } parts
                    && long.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var cost))
                    byObject[current] = byObject.GetValueOrDefault(current) + cost;
                afterCall = false;
            }
        }
        var self = byObject.Values.Sum();
        var top = byObject.Where(o => o.Key.Length > 0).OrderByDescending(o => o.Value).FirstOrDefault();
        // The thread's total is its self cost, not the summary line: a thread that sat in a call across two dumps (Mono's main thread,
        // waiting) carries the call's inclusive cost as -X in one dump and +X in the next, and the summary takes in the +X (1.03G
        // instructions once, where the thread ran 1,274). Elsewhere the two agree within 0.03%. A file with no cost lines has its summary.
        return new CallgrindThread(thread, byObject.Count > 0 ? self : summary ?? totals ?? 0, top.Key, self > 0 && top.Key is not null ? (double)top.Value / self : 0)
        {
            JitInstructions = byObject.Where(o => CallgrindThread.IsJit(o.Key)).Sum(o => o.Value),
        };
    }

    /// <summary>"(7) /usr/bin/mono-sgen" defines id 7 and names it; "(7)" names it again.</summary>
    private static string Name(string value, Dictionary<string, string> names)
    {
        if (!value.StartsWith('(')) return value.Trim();
        var close = value.IndexOf(')');
        if (close < 0) return value.Trim();
        var id = value[..(close + 1)];
        var rest = value[(close + 1)..].Trim();
        if (rest.Length > 0) names[id] = rest;
        return names.GetValueOrDefault(id, id);
    }

    private static long? FirstNumber(string text) =>
        text.Split(' ', StringSplitOptions.RemoveEmptyEntries) is { Length: > 0 } parts && long.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var n) ? n : null;
}
