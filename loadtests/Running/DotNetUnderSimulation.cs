using Comparator.Targets;

namespace Comparator.Running;

/// <summary>
/// How a .NET service runs under the simulator (--simulated-dotnet): which of the runtime's compilers make its code. The runtime's default,
/// tiered compilation, promotes a method after 30 calls and a 100 ms delay, both counted on the wall clock, which the simulator slows some
/// 50 times; its dynamic PGO builds the final code from a sampled profile; so a window's count depends on when, and from which samples,
/// tiering compiled what. Each setting is named by what it does, and the report's spec line gives its variables. The default: of the
/// settings whose launches agree in the A/A of each in docs/method.md ("A .NET service under the simulator"; tiered ones moved by a third),
/// the one that runs the optimized JIT code a warm service runs, not the framework's ahead-of-time code.
/// </summary>
/// <param name="Name">what --simulated-dotnet takes</param>
/// <param name="Meaning">what the code counted is, in a reader's words</param>
/// <param name="Variables">the runtime's environment variables that make it so</param>
public sealed record DotNetUnderSimulation(string Name, string Meaning, IReadOnlyDictionary<string, string> Variables)
{
    /// <summary>Tiering off, ReadyToRun code unused: one full-optimization compile per method at its first call, no PGO (Mono's JIT works so too).</summary>
    public static readonly DotNetUnderSimulation OneCompile = new("one-compile",
        "every method compiled once, fully optimized, at its first call, without PGO (ReadyToRun code unused)",
        new Dictionary<string, string> { ["DOTNET_TieredCompilation"] = "0", ["DOTNET_ReadyToRun"] = "0" });

    /// <summary>Tiering off, ReadyToRun code kept: the framework's precompiled code as shipped, the rest compiled once fully optimized.</summary>
    public static readonly DotNetUnderSimulation NoTiering = new("no-tiering",
        "tiered compilation off: the framework's precompiled (ReadyToRun) code as shipped, every other method compiled once, fully optimized",
        new Dictionary<string, string> { ["DOTNET_TieredCompilation"] = "0" });

    /// <summary>The runtime's defaults: tiered compilation with dynamic PGO.</summary>
    public static readonly DotNetUnderSimulation Tiered = new("tiered",
        "the runtime's defaults: tiered compilation with dynamic PGO, promoted on the simulator's slowed clock",
        new Dictionary<string, string>());

    /// <summary>Tiered compilation without dynamic PGO.</summary>
    public static readonly DotNetUnderSimulation TieredNoPgo = new("tiered-no-pgo",
        "tiered compilation without dynamic PGO, promoted on the simulator's slowed clock",
        new Dictionary<string, string> { ["DOTNET_TieredPGO"] = "0" });

    /// <summary>
    /// What a .NET runtime needs under the simulator, whatever --simulated-dotnet chose (the spec line names it):
    /// DOTNET_EnableWriteXorExecute=0: a .NET JIT otherwise writes code through a second mapping of pages never both writable and
    ///   executable, which valgrind does not follow;
    /// DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=0: a thread-pool worker with no work spins before it sleeps. On the real CPU that is
    ///   microseconds; on the simulator's clock, 50 times slower, it was most of a slow window's count: kestrel at /api/time counted 52k
    ///   instructions a request back to back and 110k with 20 ms between requests, some 2.5M instructions a second of waiting. Without the
    ///   spin, 53-55k and 63-70k (docs/method.md, "A .NET service under the simulator"). The count is then of the work, not of the wait;
    /// DOTNET_PROCESSOR_COUNT=1: valgrind runs one thread at a time, so the simulated process has one processor whatever the machine has.
    ///   Told so, the runtime stops spin-waiting for a thread that cannot run meanwhile and sizes its thread pool for one: a request's
    ///   work stays on fewer threads instead of hopping across a pool grown on the slowed clock, each hop a wake-up whose cost depends on
    ///   timing. kestrel and aspnetcore at /api/time and echo-post 500 B, three launches: launch-to-launch spread 0.6-3.7% (median 1.3%),
    ///   against 2.0-4.3% (median 3.3%) without it, and no thread started mid-window (docs/method.md);
    /// DOTNET_ThreadPool_ForceMinWorkerThreads=1, DOTNET_ThreadPool_ForceMaxWorkerThreads=1: one pool worker, so a request's work runs on the
    ///   same thread every time. With the pool free to grow (its starvation check runs on the wall clock, which the simulator slows), each
    ///   launch grew its own number of workers, and the hand-offs among them set the count: kestrel at echo-post 4 KB counted 78-89k a request
    ///   over five launches (13.8% apart); with one worker 77.6-78.5k (1.2%). A service that blocks a pool thread waiting for other pool work
    ///   deadlocks with one worker: CoreWCF's streamed echo-put (synchronous I/O over Kestrel) at 64 KB never answered, with or without the
    ///   simulator, and answered with two. Such a target names its own count (<see cref="Targets.TargetDefinition.SimulatedWorkers"/>).
    /// </summary>
    public static readonly IReadOnlyDictionary<string, string> DotNetVariables = new Dictionary<string, string>
    {
        ["DOTNET_EnableWriteXorExecute"] = "0",
        ["DOTNET_ThreadPool_UnfairSemaphoreSpinLimit"] = "0",
        ["DOTNET_PROCESSOR_COUNT"] = "1",
        ["DOTNET_ThreadPool_ForceMinWorkerThreads"] = "1",
        ["DOTNET_ThreadPool_ForceMaxWorkerThreads"] = "1",
    };

    /// <summary>
    /// Mono's settings under the simulator, every Mono target alike (the spec line names them):
    /// MONO_DEBUG=explicit-null-checks: Mono tests for null in its JIT code instead of taking a SIGSEGV and turning it into a
    ///   NullReferenceException. With Mono's signal-based checks, valgrind 3.19 itself died at 5 of 35 starts of webapi-selfhost ("VALGRIND
    ///   INTERNAL ERROR ... SIGSEGV", si_code 2, at the guard page below a new thread's stack, counting off or on); with explicit checks at
    ///   none of the starts in docs/method.md's table. It adds a compare and a branch where a null could be met: the count is of that code.
    /// </summary>
    public static readonly IReadOnlyDictionary<string, string> MonoVariables = new Dictionary<string, string>
    {
        ["MONO_DEBUG"] = "explicit-null-checks",
    };

    public static readonly IReadOnlyList<DotNetUnderSimulation> All = new[] { OneCompile, NoTiering, Tiered, TieredNoPgo };

    /// <summary>The pass's default (docs/method.md, "A .NET service under the simulator").</summary>
    public static DotNetUnderSimulation Default => OneCompile;

    /// <summary>The setting named <paramref name="name"/>, or null.</summary>
    public static DotNetUnderSimulation? Find(string name) => All.FirstOrDefault(s => string.Equals(s.Name, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>"one-compile (DOTNET_TieredCompilation=0 DOTNET_ReadyToRun=0: every method ...)", as the spec line and the answer name it.</summary>
    public string Describe() => Variables.Count == 0 ? $"{Name} ({Meaning})" : $"{Name} ({Assignments(Variables)}: {Meaning})";

    /// <summary>
    /// Every variable a target on <paramref name="host"/> runs with under the simulator: the runtime's own needs there, and for .NET this
    /// setting's. Each side gets only its runtime's: a .NET variable means nothing to Mono, and the other way round.
    /// </summary>
    /// <param name="workers">the target's own thread-pool workers where one is not enough (<see cref="Targets.TargetDefinition.SimulatedWorkers"/>)</param>
    public IReadOnlyDictionary<string, string> EnvironmentFor(HostRuntime host, int? workers = null)
    {
        var all = new Dictionary<string, string>(host == HostRuntime.DotNet ? DotNetVariables : MonoVariables);
        if (host != HostRuntime.DotNet) return all;
        foreach (var (name, value) in Variables) all[name] = value;
        if (workers is int n)
            foreach (var name in WorkerVariables) all[name] = n.ToString(CultureInfo.InvariantCulture);
        return all;
    }

    /// <summary>The variables that fix the pool's workers, set to a target's own count where it names one.</summary>
    public static readonly IReadOnlyList<string> WorkerVariables = new[] { "DOTNET_ThreadPool_ForceMinWorkerThreads", "DOTNET_ThreadPool_ForceMaxWorkerThreads" };

    public static string Assignments(IReadOnlyDictionary<string, string> variables) => string.Join(" ", variables.Select(v => $"{v.Key}={v.Value}"));
}
