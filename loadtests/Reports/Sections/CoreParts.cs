using Comparator.Results;

namespace Comparator.Reports.Sections;

/// <summary>
/// A run measured under several allotments of cores (--server-cores) is several comparisons: each
/// allotment's cells, verdicts and tables stand apart, titled with the cores they had. Renderers
/// take the parts and render each as they render a run; the cores crossovers compare the parts.
/// </summary>
public static class CoreParts
{
    /// <summary>Whether the run measured its cells under more than one allotment of cores.</summary>
    public static bool HasSeveralCores(this RunResult run) => run.Spec.Cores is { Count: > 1 };

    /// <summary>The run itself for one allotment; else one part per allotment, in the run's order, each with its cells, verdicts and that allotment alone in its spec.</summary>
    public static IReadOnlyList<RunResult> ByCores(this RunResult run)
    {
        if (!run.HasSeveralCores()) return new[] { run };
        return run.Spec.Cores!.Select(a => run with
        {
            Spec = run.Spec with { Cores = new[] { a } },
            Cells = run.Cells.Where(c => c.Key.Cores == a.Label).ToList(),
            Verdicts = run.Verdicts?.Where(v => v.Cores == a.Label).ToList(),
        }).ToList();
    }

    /// <summary>
    /// How the servers were placed, in a sentence's words: "on 1 core (CPU 1), the driver on CPU 0",
    /// "sharing 2 cores with the driver"; for files saved before allotments, from --pin or crank.
    /// </summary>
    public static string Phrase(RunSpec spec) => spec.Cores switch
    {
        _ when spec.SeparateServerCores is int own => $"each on a machine of its own ({own} cores)",
        { Count: 1 } one => one[0].Description,
        { Count: > 1 } several => string.Join("; then ", several.Select(c => c.Description)),
        _ when spec.Pin is string pin => pin,
        _ => $"sharing {spec.Machine.LogicalCores} cores with the driver",
    };

    /// <summary>The short form for titles and table cells: "on 1 core", "sharing 2 cores", "on CPU 1".</summary>
    public static string Short(RunSpec spec, CoresSpec? cores = null) => (cores ?? (spec.Cores is { Count: 1 } one ? one[0] : null)) switch
    {
        _ when spec.SeparateServerCores is int own => $"on machines of their own ({own} cores)",
        { Description: var d } when d == CoresSpec.AsStarted => "on the cores they were started with",
        { Label: "shared" } => $"sharing {spec.Machine.LogicalCores} cores",
        { Label: var n } when int.TryParse(n, NumberStyles.None, CultureInfo.InvariantCulture, out var count) => count == 1 ? "on 1 core" : $"on {count} cores",
        CoresSpec other => other.Description,
        null when spec.Cores is { Count: > 1 } => Joined(spec.Cores.Select(c => Short(spec, c)).ToList()),
        null when spec.SeparateServerCores is null && spec.Pin is null => $"sharing {spec.Machine.LogicalCores} cores",
        null => Phrase(spec),
    };

    /// <summary>"on 1 core and sharing 2 cores", "on 1 core, on 2 cores and sharing 4 cores".</summary>
    private static string Joined(IReadOnlyList<string> items) =>
        items.Count == 1 ? items[0] : string.Join(", ", items.Take(items.Count - 1)) + " and " + items[^1];

    /// <summary>A title with its part's cores: "Side by side, on 1 core".</summary>
    public static string Titled(string title, RunResult part) => $"{title}, {Short(part.Spec)}";

    /// <summary>A file-name-safe tag of a part's allotment for chart names ("1core", "shared").</summary>
    public static string Tag(RunResult part) => part.Spec.Cores is { Count: 1 } one
        ? (one[0].Label == "shared" ? "shared" : one[0].Label.Replace(' ', '-').Replace(':', '-') + "core")
        : "";
}
