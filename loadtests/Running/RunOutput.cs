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
    /// <summary>--counters simulated or both: the simulated pass after the measured windows (and the profile); null for none.</summary>
    public SimulationSettings? Simulation { get; init; }

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

/// <summary>
/// What the simulated pass runs: its launches (each target started afresh under the simulator in each), per closed-loop cell a warm-up
/// (<paramref name="FirstWarmup"/> for a launch's first cell, which compiles the common path; <paramref name="CellWarmup"/> after) and rounds of
/// windows, and how many connections carry a simulated window's load.
/// </summary>
public sealed record SimulationSettings(int Launches, TimeSpan FirstWarmup, TimeSpan CellWarmup, TimeSpan Window, int Rounds, int Connections)
{
    /// <summary>
    /// Under callgrind a Mono service answers about 250 to 550 requests a second on one connection: a 1.5 s window holds some 400 to 800
    /// requests. One connection, not several: on FixedWorkService at /api/time a window's count per request moved by 1.5-2% on four
    /// connections (spread over the runtime's locks, spinning and thread-pool growth, as contention varied) and by 0.5-1% on one, where
    /// each request takes the same path through the pool. The figure is the work of a request served alone, the way iai-callgrind counts a
    /// call: concurrency's own costs are left to the measured figures. Three windows a cell, so a launch's median leaves out a window that
    /// took in a burst of other work; three launches, the fewest with which Student's t (two degrees of freedom) puts an A/A pair inside the
    /// ±5% margin at this spread.
    /// </summary>
    public static readonly SimulationSettings Default = new(3, TimeSpan.FromSeconds(6), TimeSpan.FromSeconds(1.5), TimeSpan.FromSeconds(1.5), 3, 1);

    /// <summary>The most launches --simulated-launches takes: each costs about a minute and a half for the default pair.</summary>
    public const int MaxLaunches = 20;

    /// <summary>A simulated service starts 20 to 50 times slower: Mono's took 15-22 s to its ready line.</summary>
    public static readonly TimeSpan ReadyTimeout = TimeSpan.FromSeconds(180);

    /// <summary>How many times a target is started under the simulator in a launch before it is given up: valgrind's own crash is chance.</summary>
    public const int Starts = 3;

    /// <summary>How long a simulated service may take over one verifying request: its first one compiles the whole path on a simulated CPU.</summary>
    public static readonly TimeSpan CheckTimeout = TimeSpan.FromSeconds(120);
}
