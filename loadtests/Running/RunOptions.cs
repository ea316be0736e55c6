using Comparator.Contracts;
using Comparator.Results;
using Comparator.Statistics;
using Comparator.Targets;

namespace Comparator.Running;

/// <summary>A payload as the run uses it: its label and source for the results, its bytes for the driver.</summary>
public sealed record Payload(PayloadSpec Spec, byte[] Bytes);

/// <summary>Where a target comes from: started by us from the catalogue, or already running at a URL.</summary>
/// <param name="ExternalPid">the process of an external service whose CPU is read (given, or found listening on its loopback port), or null</param>
public sealed record TargetPlan(string Name, TargetDefinition? Definition, Uri? ExternalUrl, int? ExternalPid = null)
{
    public bool IsExternal => ExternalUrl is not null;

    /// <summary>An https target's TLS as first negotiated ("TLS 1.3, TLS_AES_256_GCM_SHA384, certificate validated"); null over plain HTTP.</summary>
    public string? Tls { get; init; }
}

/// <summary>
/// A fixed-rate pass of every cell (open model): an absolute rate in requests/s, or a share of the
/// lower closed-loop capacity of the compared targets in that cell (taken from the first launch).
/// </summary>
public sealed record RateSpec(double? PerSecond, double? ShareOfCapacity)
{
    public string Describe() => PerSecond is double r
        ? r.ToString("0.#", System.Globalization.CultureInfo.InvariantCulture) + " req/s"
        : (ShareOfCapacity!.Value * 100).ToString("0.#", System.Globalization.CultureInfo.InvariantCulture) + "% of the lower closed-loop capacity of the compared targets";
}

/// <summary>
/// What a profile pass samples: each target under each closed-loop cell's load for <paramref name="Duration"/>, its frames read by
/// <paramref name="Layers"/> (a user's --layers file, then the project's profile-layers.json), with perf at <paramref name="Perf"/> (null: on PATH).
/// </summary>
public sealed record ProfileSettings(TimeSpan Duration, IReadOnlyList<LayerRule> Layers, string LayersFile, string? Perf)
{
    public static readonly TimeSpan DefaultDuration = TimeSpan.FromSeconds(5);
}

/// <summary>Everything `run` was asked to do, validated.</summary>
public sealed record RunOptions(
    IReadOnlyList<TargetPlan> Targets,
    IReadOnlyList<TargetDefinition> Unavailable,
    IReadOnlyList<EndpointSpec> Endpoints,
    IReadOnlyList<Payload> Sizes,
    IReadOnlyList<int> Concurrency,
    bool KeepAlive,
    TimeSpan Warmup,
    TimeSpan Duration,
    RepeatRule Repeats,
    int JsonItems,
    string BaselineTarget,
    string OutDirectory,
    TimeSpan RequestTimeout,
    IReadOnlyList<string> Drivers,
    CpuPin? Pin,
    string? CompareTo,
    double? Threshold,
    bool ServerHeader,
    TimeSpan? FirstWarmup = null,
    int Launches = 1,
    LeadRule Rule = null!,
    bool TcpNoDelay = true,
    Scenarios.Scenario? Scenario = null,
    IReadOnlyList<RateSpec>? Rates = null,
    TimeSpan? Budget = null,
    IReadOnlyList<CoreAllotment>? ServerCores = null,
    bool Insecure = false,
    PortRange? Ports = null,
    bool Crank = false,
    bool Counters = true,
    TimeSpan? SteadyBound = null,
    bool Duet = false,
    ProfileSettings? Profile = null,
    string? Label = null,
    IReadOnlyDictionary<string, string>? Revisions = null)
{
    // Label: --label, what the user calls the run. Revisions: --revision, the run's (key "") and each named target's.
    // Profile: --profile (or the profile command), a sampling profile of every target per closed-loop cell, in a pass after the measured windows.
    // Duet: --duet, every target of a cell measured in the same windows (side by side) instead of in turn.
    // Counters: --counters, the CPU's instructions and cycles counted on every target where this machine allows (CpuCounting).
    // SteadyBound: --steady-bound, how much longer a .NET target's warm-up may go on while its runtime still compiles.
    // Threshold: --threshold, the change --compare-to gates on; null: the minimum effect the two runs recorded.
    // Crank: --crank, the run is crank's load job and also prints the results for crank's agent.
    // Ports: --ports, the range the targets are started on; null: any free port.
    // Insecure: --insecure, an https target's certificate accepted though it does not validate (self-signed).
    // ServerCores: --server-cores, each allotment its own set of cells; null: the one of --pin, or shared.

    /// <summary>The revision a target's record carries: its own (--revision NAME=REV), else the run's; null when none was given.</summary>
    public string? RevisionOf(string target) => Revisions is null ? null : Revisions.TryGetValue(target, out var own) ? own : Revisions.GetValueOrDefault("");

    /// <summary>The allotments of cores the cells are measured under, in order: --server-cores, else --pin's, else shared.</summary>
    public IReadOnlyList<CoreAllotment> Allotments => ServerCores ?? new[]
    {
        Pin is CpuPin pin ? CoreAllotment.FromPin(pin)
        : Targets.Count > 0 && Targets.All(t => t.IsExternal) ? CoreAllotment.External()
        : CoreAllotment.Shared(Environment.ProcessorCount),
    };

    // Budget: the load the added launches may spend when the rule's design adds launches until cells settle (Lead.Design).

    /// <summary>The budget in seconds of load; unlimited (the planned launches' own load) without a design.</summary>
    public double BudgetSeconds => Budget?.TotalSeconds ?? double.PositiveInfinity;

    /// <summary>
    /// Seconds of load one launch puts on when it measures the given share of the cells: their warm-ups and
    /// windows, and the longer cold warm-up of every target started (once per allotment of cores: at most).
    /// </summary>
    public double LaunchLoadSeconds(int cellsMeasured) => cellsMeasured * (Warmup.TotalSeconds + Repeats.MinRepeat * Duration.TotalSeconds)
        + (cellsMeasured > 0 ? Math.Min(cellsMeasured, Targets.Count * Allotments.Count) * (ColdWarmup - Warmup).TotalSeconds : 0);
    // Rates: the fixed-rate passes after each closed-loop cell, for drivers that hold a rate (socket).
    public IReadOnlyList<RateSpec> RatePasses => Rates ?? Array.Empty<RateSpec>();

    /// <summary>Cells per closed-loop cell for a driver: itself, and a fixed-rate pass per rate where the driver holds one.</summary>
    public int PassesFor(string driver) => 1 + (driver == Comparator.Drivers.SocketDriver.DriverName ? RatePasses.Count : 0);

    // Scenario: the operations of a scenario file are the cells instead of Endpoints x Sizes.

    /// <summary>What decides a lead: the interval's confidence, the smallest effect claimed, the margin and the design (the default where none was given).</summary>
    public LeadRule Rule { get; init; } = Rule ?? LeadRule.Default;

    /// <summary>What each cell's windows are: all the cell's measurer is told.</summary>
    public WindowSettings Window => new(Warmup, ColdWarmup, Duration, Repeats, KeepAlive, RequestTimeout) 
    {
        SteadyBound = SteadyBound ?? WindowSettings.DefaultSteadyBound,
        Duet = Duet,
        DriverCounters = CpuCounting.Resolve(Counters).Set is null ? null : Measuring.CounterSet.Driver,
    };

    /// <summary>The warm-up of a target's first cell: the cold one, where the JIT compiles the most.</summary>
    public TimeSpan ColdWarmup => FirstWarmup ?? Warmup;

    public int CellCount
    {
        get
        {
            var perTarget = Scenario is null ? 0 : Scenario.Operations.Count * Concurrency.Count;
            foreach (var e in Scenario is null ? Endpoints : Array.Empty<EndpointSpec>()) perTarget += (e.SendsBody ? Sizes.Count : 1) * Concurrency.Count;
            return perTarget * Targets.Count * Drivers.Sum(PassesFor) * Allotments.Count;
        }
    }

    /// <summary>Seconds of load the run will put on at the fewest repeats, over every launch, without start-up and verification.</summary>
    public double LoadSeconds => Launches * LaunchLoadSeconds(CellCount);

    /// <summary>Seconds of load if every cell went to the repeat cap.</summary>
    public double MaxLoadSeconds => LoadSeconds + Launches * CellCount * (Repeats.MaxRepeat - Repeats.MinRepeat) * Duration.TotalSeconds;
}
