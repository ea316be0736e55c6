using System.IO;

namespace Comparator.Reports.Exporters;

/// <summary>
/// How every command writes what it measured: into a directory of its own that did not exist
/// before (never overwritten), each file under a temporary name first and then renamed, so a
/// reader never sees a torn file.
/// </summary>
public static class OutputFiles
{
    /// <summary>A new directory under <paramref name="outDirectory"/> named by prefix and start time, with -1, -2... when taken.</summary>
    public static string CreateNewDirectory(string outDirectory, string prefix, DateTimeOffset startedAt)
    {
        Directory.CreateDirectory(outDirectory);
        var stamp = prefix + startedAt.UtcDateTime.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        for (var n = 0; ; n++)
        {
            var directory = Path.Combine(outDirectory, n == 0 ? stamp : $"{stamp}-{n}");
            if (Directory.Exists(directory)) continue;
            try
            {
                Directory.CreateDirectory(directory);
                return directory;
            }
            catch (IOException) when (n < 100) { }
        }
    }

    /// <summary>The file whole or not at all; an existing one is kept (a run's files are never overwritten) unless <paramref name="replace"/> (a history's, rewritten on every call).</summary>
    public static void WriteAtomically(string path, string content, bool replace = false)
    {
        var temporary = path + ".tmp";
        File.WriteAllText(temporary, content);
        File.Move(temporary, path, overwrite: replace);
    }
}
