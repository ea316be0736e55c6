using System.IO;

namespace Comparator.Measuring;

/// <summary>
/// Finds a program on PATH as the OS's shell would: on Windows each PATHEXT extension in turn (ab is
/// ab.exe there; a name that already has an extension is tried as given first), elsewhere the bare
/// name. PATH, PATHEXT, the OS and the file test come in as arguments, so the rule is tested anywhere.
/// </summary>
public static class ToolPath
{
    /// <summary>What Windows uses when PATHEXT is unset.</summary>
    public const string DefaultPathExt = ".COM;.EXE;.BAT;.CMD";

    /// <summary>The first PATH entry holding the program, or null.</summary>
    public static string? Find(string tool, string? path, string? pathExt, bool windows, Func<string, bool> exists)
    {
        var names = windows ? WindowsNames(tool, pathExt) : new[] { tool };
        // Windows PATH entries may be quoted ("C:\Program Files\Apache24\bin").
        foreach (var dir in (path ?? "").Split(windows ? ';' : ':', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            foreach (var name in names)
            {
                var candidate = Path.Combine(windows ? dir.Trim('"') : dir, name);
                if (exists(candidate)) return candidate;
            }
        return null;
    }

    /// <summary>The program on this machine's PATH.</summary>
    public static string? Find(string tool) =>
        Find(tool, Environment.GetEnvironmentVariable("PATH"), Environment.GetEnvironmentVariable("PATHEXT"), OperatingSystem.IsWindows(), File.Exists);

    private static IReadOnlyList<string> WindowsNames(string tool, string? pathExt)
    {
        var extensions = (string.IsNullOrWhiteSpace(pathExt) ? DefaultPathExt : pathExt)
            .Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var withExtensions = extensions.Select(e => tool + e.ToLowerInvariant());
        return (Path.HasExtension(tool) ? withExtensions.Prepend(tool) : withExtensions).ToList();
    }
}
