using System.IO;

namespace Comparator.Measuring;

/// <summary>
/// The process listening on a local TCP port, found as `ss -ltnp` finds it: the listening socket's
/// inode in /proc/net/tcp and tcp6, then the process holding that inode among its file descriptors.
/// Linux only; null where it cannot be told (another OS, another user's process, nothing listening).
/// </summary>
public static class ListeningProcess
{
    private const string Listen = "0A"; // TCP_LISTEN in /proc/net/tcp's st column

    public static int? Find(int port)
    {
        if (!OperatingSystem.IsLinux()) return null;
        var inodes = new[] { "/proc/net/tcp", "/proc/net/tcp6" }.Where(File.Exists)
            .SelectMany(f => File.ReadLines(f).Skip(1))
            .Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Where(c => c.Length > 9 && c[3] == Listen && LocalPort(c[1]) == port)
            .Select(c => c[9]).Where(i => i != "0").ToHashSet();
        if (inodes.Count == 0) return null;
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), NumberStyles.None, CultureInfo.InvariantCulture, out var pid)) continue;
            try
            {
                foreach (var fd in Directory.EnumerateFileSystemEntries(Path.Combine(dir, "fd")))
                    if (new FileInfo(fd).LinkTarget is string target && target.StartsWith("socket:[", StringComparison.Ordinal) &&
                        inodes.Contains(target["socket:[".Length..^1]))
                        return pid;
            }
            catch (Exception e) when (e is UnauthorizedAccessException or IOException) { /* not ours to read, or gone */ }
        }
        return null;
    }

    /// <summary>"0100007F:1F90" → 8080.</summary>
    private static int LocalPort(string address) =>
        int.TryParse(address[(address.LastIndexOf(':') + 1)..], NumberStyles.HexNumber, CultureInfo.InvariantCulture, out var p) ? p : -1;
}
