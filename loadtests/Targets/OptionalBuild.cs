using System.IO;

namespace Comparator.Targets;

/// <summary>
/// What scripts/build.sh found for a target whose packages only some NuGet sources hold (the named
/// twins): built, skipped because restore could not find its packages (the ids restore named, kept
/// in artifacts/optional-targets/PROJECT.missing), or not built yet. The catalogue's reason for such
/// a target comes from here, so it says what this machine's build actually found.
/// </summary>
public static class OptionalBuild
{
    public const string StatusFolder = "optional-targets";

    /// <summary>Null when the target's assembly is built; else why it is not, in one line.</summary>
    public static string? Reason(string projectName, string assemblyFile)
    {
        var layout = BuildLayout.Discover();
        if (!layout.IsCheckout) return BuildLayout.NotInCheckout;

        if (File.Exists(layout.AssemblyPath(projectName, null, assemblyFile))) return null;
        var status = Path.Combine(layout.RepositoryRoot, "artifacts", StatusFolder, projectName + ".missing");
        var found = File.Exists(status) ? File.ReadAllText(status).Trim() : "";
        const string Missing = "missing: ";
        if (found.StartsWith(Missing, StringComparison.Ordinal))
            return $"not built: {found[Missing.Length..]} not in this machine's NuGet sources (dotnet restore: NU1101/NU1102); built by scripts/build.sh wherever they restore";
        if (found.Length > 0)
            return $"not built: src/{projectName} {found}";
        return $"not built yet: scripts/build.sh builds src/{projectName} where its packages restore";
    }
}
