using Comparator.Errors;
using Comparator.Results;

namespace Comparator.Running;

/// <summary>
/// Where the run goes and what it adds to its results: the directory, what the user calls it, a profile pass after
/// the measured windows, and crank's lines.
/// </summary>
/// <param name="OutDirectory">--out, where the run directory is made</param>
/// <param name="Label">--label, what the user calls the run; null when not given</param>
/// <param name="Profile">--profile (or the profile command), a sampling profile of every target per closed-loop cell; null for none</param>
/// <param name="Crank">--crank, the run is crank's load job and also prints the results for crank's agent</param>
public sealed record RunOutput(string OutDirectory, string? Label = null, ProfileSettings? Profile = null, bool Crank = false)
{
    /// <summary>A directory to write to, and a label that says something.</summary>
    public Validated<RunOutput> Validate() =>
        string.IsNullOrWhiteSpace(OutDirectory) ? Validated<RunOutput>.Refused("run: --out needs a directory")
        : Label is not null && Label.Trim().Length == 0 ? Validated<RunOutput>.Refused("run: --label needs a text, not an empty one")
        : Validated<RunOutput>.Valid(this);
}

/// <summary>
/// What a profile pass samples: each target under each closed-loop cell's load for <paramref name="Duration"/>, its frames read by
/// <paramref name="Layers"/> (a user's --layers file, then the project's profile-layers.json), with perf at <paramref name="Perf"/> (null: on PATH).
/// </summary>
public sealed record ProfileSettings(TimeSpan Duration, IReadOnlyList<LayerRule> Layers, string LayersFile, string? Perf)
{
    public static readonly TimeSpan DefaultDuration = TimeSpan.FromSeconds(5);
}
