using System.IO;

namespace Comparator.Targets;

/// <summary>
/// Mono, which runs the net472 targets on Linux: where it is, its version (the report names it,
/// because the runtime can dominate the result), and how an exe is started under it.
/// </summary>
public static class MonoRuntime
{
    private static readonly Lazy<string?> Located = new(() => Measuring.ToolProcess.TryLocate("mono"));
    private static readonly Lazy<string?> VersionText = new(ReadVersion);

    /// <summary>The mono executable, or null when Mono is not installed.</summary>
    public static string? Path => Located.Value;

    /// <summary>"6.8.0.105" or null.</summary>
    public static string? Version => VersionText.Value;

    /// <summary>Why net472 targets cannot run on this machine, or null when they can.</summary>
    public static string? MissingReason =>
        OperatingSystem.IsWindows() || Path != null
            ? null
            : "needs Mono to run a .NET Framework (net472) exe on this OS: install it with 'apt-get install mono-complete' (scripts/prerequisites.sh does)";

    /// <summary>Mono's defaults, as `mono Service.exe` runs it; no tuning flag that a .NET 10 target would not get too.</summary>
    public static IReadOnlyList<string> Arguments(string exe) => new[] { exe };

    private static string? ReadVersion()
    {
        if (Path is null) return null;
        var (exit, output) = Measuring.ToolProcess.Capture(Path, "--version");
        if (exit != 0) return null;
        // "Mono JIT compiler version 6.8.0.105 (Debian 6.8.0.105+dfsg-3.3 ...)"
        var words = output.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        var at = Array.IndexOf(words, "version");
        return at >= 0 && at + 1 < words.Length ? words[at + 1] : null;
    }
}
