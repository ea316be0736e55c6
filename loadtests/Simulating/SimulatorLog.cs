using System.IO;

namespace Comparator.Simulating;

/// <summary>
/// Valgrind's own messages about one simulated start (its --log-file, apart from the service's output), read when the start failed: so
/// a simulator that died is named as such, in its own words, never passed off as the service's failure. The file is kept in the run
/// directory (<see cref="Keep"/>) and its telling line goes into the pass's one-line reason.
/// </summary>
public static class SimulatorLog
{
    /// <summary>The folder of the run directory that keeps valgrind's log of every failed simulated start.</summary>
    public const string Folder = "simulator-logs";

    /// <summary>Lines of valgrind's that say why it ended, first match wins: its own crash, then the client's fatal signal.</summary>
    private static readonly string[] Telling =
    {
        "VALGRIND INTERNAL ERROR", "the 'impossible' happened", "Valgrind's memory management: out of memory", "Process terminating with default action of signal",
    };

    /// <summary>The line that says why valgrind ended (its "==PID== " prefix dropped), else its last line, else null for an empty or missing log.</summary>
    public static string? Reason(string? path)
    {
        if (path is null || !File.Exists(path)) return null;
        var lines = File.ReadAllLines(path).Select(Strip).Where(l => l.Length > 0).ToList();
        foreach (var telling in Telling)
            if (lines.FirstOrDefault(l => l.Contains(telling, StringComparison.Ordinal)) is string found) return found;
        return lines.Count > 0 ? lines[^1] : null;
    }

    /// <summary>Whether valgrind itself failed (its internal error or an impossible state), as opposed to the service ending under it.</summary>
    public static bool SimulatorDied(string? reason) => reason is not null && (reason.Contains("VALGRIND INTERNAL ERROR", StringComparison.Ordinal) ||
        reason.Contains("the 'impossible' happened", StringComparison.Ordinal) || reason.Contains("Valgrind's memory management", StringComparison.Ordinal));

    /// <summary>The newest log written under <paramref name="pattern"/> in <paramref name="folder"/> (a start may have taken a few ports, each a process), or null.</summary>
    public static string? Newest(string folder, string pattern) =>
        Directory.Exists(folder) ? Directory.EnumerateFiles(folder, pattern).OrderByDescending(File.GetLastWriteTimeUtc).FirstOrDefault() : null;

    /// <summary>Copies the log to <paramref name="runDirectory"/>/simulator-logs/<paramref name="name"/>; the kept path relative to the run directory, or null where there was none.</summary>
    public static string? Keep(string? path, string runDirectory, string name)
    {
        if (path is null || !File.Exists(path)) return null;
        var folder = Directory.CreateDirectory(Path.Combine(runDirectory, Folder)).FullName;
        File.Copy(path, Path.Combine(folder, name), overwrite: true);
        return Path.Combine(Folder, name);
    }

    /// <summary>"==1234== text" and "--1234-- text" (valgrind's own voice) are "text".</summary>
    private static string Strip(string line)
    {
        var trimmed = line.Trim();
        foreach (var mark in new[] { "==", "--" })
        {
            if (!trimmed.StartsWith(mark, StringComparison.Ordinal)) continue;
            var close = trimmed.IndexOf(mark, 2, StringComparison.Ordinal);
            if (close > 2 && trimmed[2..close].All(char.IsDigit)) return trimmed[(close + 2)..].Trim();
        }
        return trimmed;
    }
}
