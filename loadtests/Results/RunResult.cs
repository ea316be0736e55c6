namespace Comparator.Results;

/// <summary>
/// One run, immutable: the settings it ran with (kept inside the result, as bombardier does),
/// the targets, the verification, and one record per cell. Renderers only read this.
/// </summary>
public sealed record RunResult(
    int SchemaVersion,
    RunSpec Spec,
    DateTimeOffset StartedAt,
    DateTimeOffset FinishedAt,
    bool Partial,
    IReadOnlyList<TargetInfo> Targets,
    IReadOnlyList<Check> Verification,
    IReadOnlyList<CellResult> Cells,
    IReadOnlyList<CellVerdict>? Verdicts = null)
{
    /// <summary>
    /// Bumped whenever a field changes meaning or goes away. 2: launches (Measurement.Launch and
    /// Round, RunSpec.Launches), the lead rule's settings and the verdicts array. 3: three outcomes
    /// (CellVerdict.Outcome, the equivalence interval, launches per verdict), RunSpec.EquivalencePercent
    /// and Sequential, fixed-rate latency judged on p90 (p90_ms) instead of p99. Readers take 1 to 3;
    /// the verdicts of a file before 3 are judged again on reading, by the rule it recorded.
    /// </summary>
    /// 4: a verdict keyed by its cell (CellVerdict.Key, the driver included) with the flag that paced it
    /// (PacedBy); files before 4 are judged again on reading too.
    public const int CurrentSchemaVersion = 4;

    /// <summary>Where each target's work went (run --profile): sampled in a pass of its own after the measured windows; null when not asked.</summary>
    public ProfileResult? Profile { get; init; }

    /// <summary>
    /// Each target's cost a request against the body's size, fixed + per KB × size, fitted per launch over the run's sizes, and the pairs'
    /// parts judged (Comparing's SizeModelFit); null in files saved before it was written, where readers fit it on reading.
    /// </summary>
    public SizeModelSet? SizeModels { get; init; }
    public const int OldestReadableSchemaVersion = 1;
}

/// <summary>
/// The decision on one compared cell, as the lead rule made it: the ratio other/baseline of the
/// metric with its interval, and the leader, or null with the reason no lead is claimed.
/// </summary>
/// <param name="Key">the compared cell, as the other target's key (its target is the other side); the baseline's cell is the same key with the baseline's name</param>
/// <param name="Metric">the figure judged: its descriptor's <see cref="MetricDescriptor.VerdictId"/></param>
public sealed record CellVerdict(
    CellKey Key,
    string Baseline,
    string Metric,
    double? Ratio,
    double? RatioLow,
    double? RatioHigh,
    double Confidence,
    string? Leader,
    string? Reason,
    string? Outcome = null,
    double? EquivalenceLow = null,
    double? EquivalenceHigh = null,
    int? Launches = null,
    bool WithinMargin = false)
{
    // Outcome: higher, lower (other against baseline, beyond the minimum effect), equivalent (within the
    // margin) or unsettled; null where nothing could be judged. EquivalenceLow/High: the interval of the
    // two one-sided tests (90%). Launches: the units the interval is over. WithinMargin: a lead whose
    // equivalence interval also lies within the margin ("faster, by less than 5%").
    public const string Higher = "higher";
    public const string Lower = "lower";
    public const string Equivalent = "equivalent";
    public const string Unsettled = "unsettled";

    /// <summary>
    /// The flag that set a closed-loop cell's pace (starved, wait-bound) so that no leader is named
    /// whatever the interval; null where none did.
    /// </summary>
    public string? PacedBy { get; init; }

    // The key's parts, by the names the renderers use.
    [System.Text.Json.Serialization.JsonIgnore] public string Other => Key.Target;
    [System.Text.Json.Serialization.JsonIgnore] public string Endpoint => Key.Endpoint;
    [System.Text.Json.Serialization.JsonIgnore] public long SizeBytes => Key.SizeBytes;
    [System.Text.Json.Serialization.JsonIgnore] public int Concurrency => Key.Concurrency;
    /// <summary>The asked rate of a fixed-rate cell, whose metrics are costs; null for the closed loop.</summary>
    [System.Text.Json.Serialization.JsonIgnore] public double? Rate => Key.Rate;
    [System.Text.Json.Serialization.JsonIgnore] public string? Cores => Key.Cores;

    /// <summary>Whether the rule settled this figure: a lead either way, or equivalence.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool Settled => Outcome is Higher or Lower or Equivalent || (Outcome is null && Leader is not null);

    /// <summary>The descriptor of the figure judged; null for a name this comparator has no figure of.</summary>
    [System.Text.Json.Serialization.JsonIgnore] public MetricDescriptor? Figure => Metrics.ByVerdictId(Metric);
}

/// <summary>What was asked for, and where it ran.</summary>
/// <remarks>
/// What every run recorded is positional; what was added later (null or false in files saved before it)
/// is an init property. results.json writes them in this order, positional first.
/// </remarks>
public sealed record RunSpec(
    IReadOnlyList<string> Targets,
    IReadOnlyList<string> Endpoints,
    IReadOnlyList<PayloadSpec> Sizes,
    IReadOnlyList<int> Concurrency,
    bool KeepAlive,
    double WarmupSeconds,
    double DurationSeconds,
    int Repeat,
    int JsonItems,
    string BaselineTarget,
    IReadOnlyList<DriverInfo> Drivers,
    string? Pin,
    MachineInfo Machine)
{
    public bool ServerHeader { get; init; }

    /// <summary>How this comparator orders the windows (<see cref="Duet"/>, <see cref="Interleaved"/>); runs saved before it was recorded ran one target after another.</summary>
    public string? Schedule { get; init; }

    // Repeat is the fewest repeats a cell got (all of them for a fixed --repeat); MaxRepeat the cap,
    // PrecisionPercent the asked CV of requests/s that stops the rounds; FirstWarmupSeconds the
    // warm-up of each target's first (cold) cell. All null in runs saved before they were recorded.
    public double? PrecisionPercent { get; init; }
    public int? MaxRepeat { get; init; }
    public double? FirstWarmupSeconds { get; init; }

    // Launches: fresh starts of every target, each measuring every cell; Confidence and
    // MinEffectPercent: the lead rule the verdicts were decided with. Null in files of schema 1.
    public int? Launches { get; init; }
    public double? Confidence { get; init; }
    public double? MinEffectPercent { get; init; }

    /// <summary>What --tcp-nodelay asked of every target (each target's answer is in TargetInfo); null before it existed.</summary>
    public bool? TcpNoDelay { get; init; }

    /// <summary>The scenario file whose operations were the cells (Endpoints then holds their names); null for the contract's endpoints.</summary>
    public ScenarioSpec? Scenario { get; init; }

    /// <summary>The fixed-rate passes each cell had after its closed loop (open model, socket driver), as asked; null or empty for none.</summary>
    public IReadOnlyList<string>? Rates { get; init; }

    /// <summary>Where a run measured through crank ran (the agents' machines, whether the server shared the driver's cores); null for a local run.</summary>
    public CrankSpec? Crank { get; init; }

    /// <summary>The margin within which two figures are called equivalent; null before it existed (5% is assumed).</summary>
    public double? EquivalencePercent { get; init; }

    /// <summary>How launches were added until cells settled; null when every cell had the same fixed launch count.</summary>
    public SequentialSpec? Sequential { get; init; }

    /// <summary>Every allotment of cores the cells were measured under (--server-cores), in order; null in files saved before it was recorded.</summary>
    public IReadOnlyList<CoresSpec>? Cores { get; init; }

    /// <summary>What the simulated pass counted (valgrind's version and settings), or the one line that says why it did not; null where it was not asked.</summary>
    public string? SimulatedCounters { get; init; }

    /// <summary>How the simulated pass added launches until its cells settled (its own looks, budget and stop); null where it ran a fixed count or none.</summary>
    public SequentialSpec? SimulatedSequential { get; init; }

    /// <summary>
    /// What each simulated target's runtime ran with under the simulator, by target: "Mono 6.8.0.105 (net472) with MONO_DEBUG=explicit-null-checks",
    /// ".NET 10 with DOTNET_EnableWriteXorExecute=0 DOTNET_TieredCompilation=0 DOTNET_ReadyToRun=0 (one-compile: ...)"; null where no pass ran or in files saved before.
    /// </summary>
    public IReadOnlyDictionary<string, string>? SimulatedRuntimes { get; init; }

    /// <summary>What the CPU's counters counted in this run, or the one line that says why they were not (and how to allow them); null in files saved before they were read.</summary>
    public string? CpuCounters { get; init; }

    /// <summary>Whether each target's system calls were counted (the raw_syscalls tracepoint), or the one line that says why not; null in files saved before they were.</summary>
    public string? SystemCalls { get; init; }

    /// <summary>How much longer a .NET target's warm-up could go on while its JIT still compiled (--steady-bound), in seconds; null in files saved before it existed.</summary>
    public double? SteadyBoundSeconds { get; init; }

    /// <summary>What the user called this run (--label): a build, a configuration; null when not given.</summary>
    public string? Label { get; init; }

    /// <summary>The revision of what was measured (--revision: a commit, a build number); each target's own is on its TargetInfo.</summary>
    public string? Revision { get; init; }

    /// <summary>Seconds each target was sampled per cell in the profile pass after the measured windows (--profile); null when not profiled.</summary>
    public double? ProfileSeconds { get; init; }

    /// <summary>The server's machine's cores where it ran apart from the driver (crank, separate agents); null when they shared one machine.</summary>
    public int? SeparateServerCores => Crank is { SharedCores: false } c ? c.ServerCores : null;

    /// <summary>How a duet run (--duet) orders the windows: every target of a cell in the same window.</summary>
    public const string Duet = "duet: per cell, every round runs every target's window at the same time, side by side; " +
                               "every launch starts the targets afresh";

    public const string Interleaved = "interleaved: per cell, every round runs each target in turn, in alternating order (A B C, C B A...); " +
                                      "every launch starts the targets afresh and measures them in the opposite order to the launch before";
}

/// <summary>
/// Launches added until every cell settled or the budget ran out: the design's looks (every launch
/// from FirstLook to MaxLaunches, Lan–DeMets Pocock-type α spending), the load budget, the load spent,
/// how many launches ran and why the run stopped adding them; and each look's count of settled cells
/// against the load spent by then, so one run shows what a smaller budget would have settled.
/// </summary>
public sealed record SequentialSpec(int FirstLook, int MaxLaunches, double BudgetSeconds, double LoadSeconds, int LaunchesRun, string Stopped,
    IReadOnlyList<LookSpec>? Looks = null);

/// <summary>One look of the launch loop: after this many launches and this much load, how many cells the rule had judged and settled.</summary>
public sealed record LookSpec(int Launches, double LoadSeconds, int Cells, int Settled);

/// <summary>A scenario run's operations as they were asked of each target, kept with the results so a report explains its cells.</summary>
public sealed record ScenarioSpec(string File, IReadOnlyList<OperationSpec> Operations);

/// <param name="Size">the size label of this copy of the operation, or null</param>
public sealed record OperationSpec(string Name, string? Size, IReadOnlyList<OperationRequestSpec> Requests);

/// <param name="Expect">the rule a correct answer met, in words ("200, same as webapi's answer")</param>
/// <param name="PathAndQuery">and <paramref name="Headers"/>: as written, placeholders and all ({env:NAME} never as its value)</param>
/// <param name="Varies">what changed from request to request and where ("{seq} in the path; {uuid} in the body"); null when every request was the same</param>
public sealed record OperationRequestSpec(string Target, string Method, string PathAndQuery, IReadOnlyList<string> Headers, string? BodyFile, long? BodyBytes, string Expect,
    string? Varies = null);

/// <summary>
/// A run whose targets crank ran as jobs on its agents: the controller's result file the server
/// figures came from, each job's agent, and whether the server's CPU ran on the driver's cores
/// (<paramref name="Placement"/> says how that was told, with the figures).
/// </summary>
public sealed record CrankSpec(string ResultFile, IReadOnlyList<CrankJobSpec> Jobs, bool SharedCores, string Placement)
{
    /// <summary>The cores of the agent the targets ran on (the first target job's).</summary>
    public int? ServerCores => System.Linq.Enumerable.FirstOrDefault(System.Linq.Enumerable.Where(Jobs, j => j.Target is not null && j.Cores is not null))?.Cores;
}

/// <param name="Target">the comparator's target this job served; null for a job that served none (the load job)</param>
/// <param name="Cores">the agent's logical cores (its /info)</param>
/// <param name="CpuSamples">how many CPU samples of the job's process the agent recorded</param>
public sealed record CrankJobSpec(string Job, string? Target, int? Cores, string? OperatingSystem, string? Hardware, string? AgentVersion, int CpuSamples);

public sealed record DriverInfo(string Name, string Description);

public sealed record PayloadSpec(string Label, long Bytes, string Source);

public sealed record MachineInfo(
    string MachineName,
    string OperatingSystem,
    string CpuModel,
    int LogicalCores,
    string DotNetRuntime,
    IReadOnlyDictionary<string, string> Packages)
{
    /// <summary>The machine's memory in GiB, as the kernel reports it; null in files saved before it was recorded.</summary>
    public double? MemoryGiB { get; init; }

    /// <summary>The kernel's release (uname -r); null off Linux and in older files.</summary>
    public string? Kernel { get; init; }

    /// <summary>Mono's version where it runs the net472 targets; null where there is none.</summary>
    public string? Mono { get; init; }

    /// <summary>Whether the CPU's own counters could be read (a PMU, and permission).</summary>
    public bool? CpuCounters { get; init; }

    /// <summary>
    /// What two runs must share to stand in one series: the CPU model, cores, memory, OS and kernel, runtimes and counters, hashed
    /// (the machine's name is left out: CI runners of one kind differ by name alone). Null in files saved before it was recorded.
    /// </summary>
    public string? Fingerprint { get; init; }

    /// <summary>The fingerprint of these facts: the first 12 hex digits of the SHA-256 of them, one a line.</summary>
    public string FingerprintOfFacts() => Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(string.Join("\n",
        CpuModel, LogicalCores.ToString(CultureInfo.InvariantCulture), MemoryGiB?.ToString("0", CultureInfo.InvariantCulture) ?? "", OperatingSystem, Kernel ?? "",
        DotNetRuntime, Mono ?? "", CpuCounters?.ToString() ?? ""))))[..12].ToLowerInvariant();
}

/// <summary>A target as it was in this run: what it is, where it listened, and whether it was measured.</summary>
public sealed record TargetInfo(
    string Name,
    string Stack,
    string Runtime,
    string Server,
    string? BaseUrl,
    bool External,
    bool Measured,
    string? NotMeasuredReason,
    IReadOnlyList<string>? LaunchFailures = null,
    string? TcpNoDelay = null,
    string? RuntimeCounters = null,
    string? Tls = null,
    string? CpuCounters = null,
    string? Revision = null);
// Revision: the revision of this target's build as the user named it (--revision NAME=REV, else the run's --revision); null when not given.
// CpuCounters: how the CPU's counters of the target were counted ("from its first instruction, every thread"), or why not; null where none were asked or in older files.
// Tls: an https target's TLS as first negotiated ("TLS 1.3, TLS_AES_256_GCM_SHA384, certificate validated"); null over plain HTTP and in older files.
// RuntimeCounters: whether the run read the target's runtime counters, and which (or why not).
// TcpNoDelay: what the target said it did with TCP_NODELAY ("on: read back on ...", "on: Kestrel's ..."), null when it said nothing.
