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
/// What the simulated pass runs: its launches (each target started afresh under the simulator in each), per closed-loop cell a warm-up on
/// valgrind's bare translation before counting is turned on (<paramref name="Warmup"/>, <paramref name="FirstWarmup"/> for a launch's first
/// cell, which compiles the common path), then <paramref name="DiscardRequests"/> counted and not read, then rounds of windows of
/// <paramref name="WindowRequests"/> requests each, and how many connections carry a simulated window's load.
/// </summary>
/// <param name="Launches">the launches of the first look; with <see cref="Sequential"/> off, the fixed count (--simulated-launches)</param>
/// <param name="WindowTime">a window's least time besides its requests: a fast service counts more requests in it, as many as its collections need</param>
public sealed record SimulationSettings(int Launches, TimeSpan FirstWarmup, TimeSpan Warmup, int DiscardRequests, int WindowRequests, TimeSpan WindowTime, int Rounds,
    int Connections)
{
    // Before Default: static fields are set in the order written, and Default's initializers read these.
    public static readonly TimeSpan DefaultBudget = TimeSpan.FromSeconds(270);
    public const int DefaultMaxLaunches = 10;

    /// <summary>
    /// A window is a count of requests, not a time: a slower machine then counts the same requests more slowly, not fewer of them. With
    /// windows of 1.5 s a contended run's windows held 19-139 requests (a quiet machine's 400-800), and at so few one collection inside a window
    /// moved it by up to 15% (docs/method.md). At least 100 requests and 1 s a window, and where the driver stops at an exact count (the socket
    /// driver), whole multiples of the server's requests per connection: Mono's HttpListener closes a kept-alive connection after 101, and
    /// windows of 120-150 requests held one reconnect or two (docs/method.md). The 30 requests before the windows put every window's edges a third of
    /// the way into a connection's life, away from its close. The default pair served 40-110 requests a second under callgrind on a quiet
    /// machine, side by side, so 101 requests are its window (with 200 the pass took 6 minutes for its three launches of the eight default
    /// cells, past a default run's 10 in all); a fast service counts more in its second, as many as its collections need. One connection, not
    /// several: on FixedWorkService at /api/time a window's count per request moved by 1.5-2% on four connections (spread over the runtime's
    /// locks, spinning and thread-pool growth, as contention varied) and by 0.5-1% on one, where each request takes the same path through the
    /// pool. The figure is the work of a request served alone, the way iai-callgrind counts a call: concurrency's own costs are left to the
    /// measured figures. Four windows a cell, their median the launch's figure (<see cref="CellResult.PerLaunch"/>), so a window that took in a
    /// burst of other work is left out and a collection every other window counted at its rate. Every launch counts all four: stopping at
    /// two windows that agreed within 0.5% saved a default run almost nothing (a cell waits for its slower side) and biased a cell whose
    /// collections come every few windows (webapi-selfhost's echo-post 64KB: 1011k and 1017k a request in two launches stopped at two light
    /// windows, 1057k and 1060k in two that counted four; docs/method.md). At least 1 s a window (at 1.5 s, with the
    /// fourth window, three launches of the default pair took 353 s). Three launches before the first look, then launches added to the cells
    /// not yet settled (<see cref="Sequential"/>), within <see cref="Budget"/>.
    /// </summary>
    public static readonly SimulationSettings Default = new(3, TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(0.5), 30, 100,
        TimeSpan.FromSeconds(1), 4, 1);

    /// <summary>How a .NET target runs under the simulator (--simulated-dotnet); Mono targets run with their own settings alike.</summary>
    public DotNetUnderSimulation DotNet { get; init; } = DotNetUnderSimulation.Default;

    /// <summary>The longest a window may take to reach its requests: a window stopped by it counts the requests it had, and says how many.</summary>
    public static readonly TimeSpan WindowLimit = TimeSpan.FromSeconds(30);

    /// <summary>How long the driver runs between two looks at a window's request count: a window overshoots its count by at most this much load.</summary>
    public static readonly TimeSpan Slice = TimeSpan.FromMilliseconds(200);

    /// <summary>Launches are added to the cells whose simulated judgment is not settled, looked at after each from <see cref="Launches"/> on; false: a fixed count, looked at once.</summary>
    public bool Sequential { get; init; } = true;

    /// <summary>The horizon of the sequential design: the launch count its α spending reaches the whole α at.</summary>
    public int MaxLaunches { get; init; } = DefaultMaxLaunches;

    /// <summary>
    /// The pass's own time, starts included, beyond which no launch is added (--simulated-budget): its first look's launches always run. Chosen
    /// so a default run from a fresh machine stays within 10 minutes (docs/method.md, "Simulated instructions").
    /// </summary>
    public TimeSpan Budget { get; init; } = DefaultBudget;

    /// <summary>The most launches --simulated-launches takes: each costs about a minute for the default pair.</summary>
    public const int MaxFixedLaunches = 20;

    /// <summary>A simulated service starts 5 to 50 times slower: Mono's took 6-9 s to its ready line uncounted, 15-33 s counted from its start.</summary>
    public static readonly TimeSpan ReadyTimeout = TimeSpan.FromSeconds(180);

    /// <summary>
    /// The wait after each answer before the next request, in a pass with a .NET target (every target of it alike): each request then reaches a
    /// server at rest. Back to back, whether a .NET worker had gone to sleep before the next request came depended on timing: kestrel at /api/time
    /// counted 46-47k a request in some launches and 52k in others, and 47.3-50.0k in windows beside two busy cores where it counted 49.3k beside
    /// idle ones. With 2 ms between requests (its one worker thread asleep each time) it counted 51.3k in six windows of six, busy cores or not;
    /// with 10 ms 52.0k (the runtime's timers add a little per second). kestrel and aspnetcore at the eight default cells, three launches: launches
    /// 0.1-1.5% apart (median 0.6%), against 0.2-11.9% (median 1.3-1.8%) back to back (docs/method.md, "A .NET service under the simulator").
    /// A pass of Mono targets only keeps the back-to-back loop it was measured with.
    /// </summary>
    public static readonly TimeSpan DotNetPause = TimeSpan.FromMilliseconds(2);

    /// <summary>How many times a target is started under the simulator in a launch before it is given up: valgrind's own crash is chance.</summary>
    public const int Starts = 3;

    /// <summary>How long a simulated service may take over one verifying request: its first one compiles the whole path on a simulated CPU.</summary>
    public static readonly TimeSpan CheckTimeout = TimeSpan.FromSeconds(120);
}
