namespace Comparator.Results;

/// <summary>
/// The catalogue of every figure a measured window can carry, in results.json's order. A source fills
/// the stored ones (the driver's window, the server's process, the machine); the derived ones are
/// computed from those; the grouped ones live in a group a source writes whole. results.json, the CSV,
/// the verdicts and `diff` all read this list.
/// </summary>
public static class Metrics
{
    private const string Driver = "the load driver's window";
    private const string Server = "the server process over the window (Process API; /proc on Linux)";
    private const string Machine = "the machine's busy time over the window (/proc/stat; GetSystemTimes on Windows)";
    private const string Procfs = "the server's threads (/proc/PID/task/*/status), Linux only";
    private const string EventPipe = "the .NET runtime's counters (EventPipe), .NET targets only";
    private const string Pmu = "the CPU's counters of the server process, every thread, inherited by threads it starts (perf_event_open), Linux with a PMU";
    private const string Steal = "the hypervisor's steal time over the window (/proc/stat)";
    private const string Syscalls = "the kernel's raw_syscalls:sys_enter tracepoint on the server process, every thread, inherited by threads it starts (perf_event_open), Linux, no PMU needed";
    private const string GcEvents = "the .NET runtime's GC events (EventPipe: an AllocationTick each time a heap has allocated about 100 KB, a GCStart each collection), .NET targets only";
    private const string Callgrind = "valgrind's callgrind: the server run on a simulated CPU in a pass of its own (--counters simulated), its threads' user-mode " +
                                     "instructions counted from its first, zeroed before each window and dumped after it";

    // The catalogue in declaration order: static initializers run in textual order, so each factory below adds its
    // descriptor as it is made, and no list of the figures is kept by hand. Declared before every descriptor.
    private static readonly List<MetricDescriptor> Catalogue = new();

    /// <summary>Figures a test adds for the length of a scope (<see cref="Adding"/>), on its own async flow only.</summary>
    private static readonly System.Threading.AsyncLocal<IReadOnlyList<MetricDescriptor>?> Added = new();

    private static MetricDescriptor Add(MetricDescriptor descriptor)
    {
        Catalogue.Add(descriptor);
        return descriptor;
    }

    // A source that only some machines have: its figures are shown only where some cell has them.
    private static bool OptionalSource(string source) => source is Pmu or Steal or Callgrind or Syscalls or GcEvents;

    // The simulated pass's own windows hold the figures of its source; every other source's are the measured windows'.
    private static MetricPass PassOf(string source) => source is Callgrind ? MetricPass.Simulated : MetricPass.Measured;

    private static MetricDescriptor Stored(string id, string label, string unit, Better better, string source, string description, string? column = null,
        Judging? judging = null, bool gated = false, JudgedAt reported = JudgedAt.Never) =>
        Add(new(id, label, unit, better, MetricStorage.Stored, source, description, column, judging, gated, Optional: OptionalSource(source), Pass: PassOf(source),
            ReportedAt: reported));

    private static MetricDescriptor Derived(string id, string label, string unit, Better better, string source, string description, Func<Measurement, double?> compute,
        string? column = null, bool written = true, Judging? judging = null, bool gated = false, JudgedAt reported = JudgedAt.Never) =>
        Add(new(id, label, unit, better, MetricStorage.Derived, source, description, column, judging, gated, written, OptionalSource(source), PassOf(source), reported)
            { Compute = compute });

    private static MetricDescriptor Grouped(string id, string label, string unit, Better better, string source, string description, Func<Measurement, double?> compute, string column) =>
        Add(new(id, label, unit, better, MetricStorage.Grouped, source, description, column, Optional: OptionalSource(source)) { Compute = compute });

    // The driver's window.
    public static readonly MetricDescriptor Requests = Stored("requests", "requests", "", Better.Neither, Driver,
        "ab: Complete requests, less any ab wrote on a connection the server had closed (see limitations) (median repeat)", "requests");
    public static readonly MetricDescriptor Failed = Stored("failed", "failed", "", Better.Lower, Driver, "requests that failed a check: non-2xx, errors, timeouts, wrong bodies");
    public static readonly MetricDescriptor Non2xx = Stored("non2xx", "non-2xx", "", Better.Lower, Driver, "answers with a status outside 2xx");
    public static readonly MetricDescriptor Errors = Stored("errors", "errors", "", Better.Lower, Driver, "connection or protocol errors (median repeat)", "errors");
    public static readonly MetricDescriptor Timeouts = Stored("timeouts", "timeouts", "", Better.Lower, Driver, "requests that timed out (median repeat)", "timeouts");
    public static readonly MetricDescriptor ElapsedSeconds = Stored("elapsedSeconds", "window s", "s", Better.Neither, Driver, "the window's length");
    public static readonly MetricDescriptor RequestsPerSecond = Stored("requestsPerSecond", "req/s", "1/s", Better.Higher, Driver,
        "ab: Requests per second, successful only (median repeat)", "rps",
        new Judging("rps", JudgedAt.ClosedLoop, "req/s", "requests a second", "serves more requests a second than", "faster", DecidesAt: JudgedAt.ClosedLoop), gated: true);
    public static readonly MetricDescriptor LatencyMeanMs = Stored("latencyMeanMs", "mean ms", "ms", Better.Lower, Driver, "mean latency of successful requests", "latency_mean_ms");
    // The cores a server kept busy: reported beside the costs at a fixed rate (the same asked load), first among what is not judged there.
    public static readonly MetricDescriptor ServerCores = Derived("serverCores", "cores", "cores", Better.Neither, Server,
        "CPU seconds per second the server used (user+system): how many cores it kept busy over the window",
        m => m.ServerCpuSeconds is double s && m.ElapsedSeconds > 0 ? s / m.ElapsedSeconds : null, written: false, reported: JudgedAt.FixedRate);
    public static readonly MetricDescriptor LatencyP50Ms = Stored("latencyP50Ms", "p50 ms", "ms", Better.Lower, Driver, "latency percentile 50", "latency_p50_ms",
        reported: JudgedAt.FixedRate);
    public static readonly MetricDescriptor LatencyP90Ms = Stored("latencyP90Ms", "p90 ms", "ms", Better.Lower, Driver, "latency percentile 90", "latency_p90_ms",
        new Judging("p90_ms", JudgedAt.FixedRate, "p90", "p90 latency at the same fixed rate", "answers with a shorter p90 latency than", "quicker at p90"),
        gated: true);
    // Judged at a fixed rate in files saved before p90 was (a window holds too few requests above p99): read as written, judged anew never.
    public static readonly MetricDescriptor LatencyP99Ms = Stored("latencyP99Ms", "p99 ms", "ms", Better.Lower, Driver, "latency percentile 99", "latency_p99_ms",
        new Judging("p99_ms", JudgedAt.Never, "p99", "p99 latency at the same fixed rate", "answers with a shorter p99 latency than", "quicker at p99"),
        reported: JudgedAt.Everywhere);
    public static readonly MetricDescriptor LatencyMaxMs = Stored("latencyMaxMs", "max ms", "ms", Better.Lower, Driver, "highest latency of any repeat", "latency_max_ms");
    public static readonly MetricDescriptor BytesReceived = Stored("bytesReceived", "bytes received", "B", Better.Lower, Driver,
        "ab: Total transferred: bytes read from the sockets, heads and chunk framing included", "bytes_received");
    public static readonly MetricDescriptor BytesSent = Stored("bytesSent", "bytes sent", "B", Better.Neither, Driver, "ab: Total sent: bytes written to the sockets", "bytes_sent");
    public static readonly MetricDescriptor BodyBytesReceived = Stored("bodyBytesReceived", "body bytes", "B", Better.Neither, Driver,
        "ab: HTML transferred: response body bytes after de-framing", "body_bytes_received");
    public static readonly MetricDescriptor ConnectionsOpened = Stored("connectionsOpened", "connections", "", Better.Neither, Driver,
        "connections the driver opened in the window (keep-alive on: more than concurrency means the server closed some)", "connections_opened");

    // The server's process, the driver's own CPU and the machine.
    public static readonly MetricDescriptor ServerCpuSeconds = Stored("serverCpuSeconds", "server cpu s", "s", Better.Lower, Server, "server process CPU (user+system) over the window");
    public static readonly MetricDescriptor ServerPeakRssMb = Stored("serverPeakRssMb", "server peak MiB", "MiB", Better.Lower, Server,
        "server peak resident set (VmHWM) at the end of the window", "server_peak_rss_mb");
    public static readonly MetricDescriptor ClientCpuSeconds = Stored("clientCpuSeconds", "driver cpu s", "s", Better.Neither, "the driver's process over the window",
        "driver process CPU over the window", "client_cpu_seconds");
    public static readonly MetricDescriptor MachineCpuSeconds = Stored("machineCpuSeconds", "machine cpu s", "s", Better.Neither, Machine, "every core's busy time over the window, whoever used it");

    // The driver's window, figures added later (socket driver's histogram, the open model, TLS).
    public static readonly MetricDescriptor LatencyP999Ms = Stored("latencyP999Ms", "p99.9 ms", "ms", Better.Lower, Driver,
        "latency percentile 99.9 (socket driver: from its HDR histogram)", "latency_p999_ms", reported: JudgedAt.FixedRate);
    public static readonly MetricDescriptor LateRequests = Stored("lateRequests", "late", "", Better.Lower, Driver,
        "fixed-rate cells: requests whose intended send time came while their connection still waited for the previous answer (the server did not keep up)", "late_requests");
    public static readonly MetricDescriptor DroppedRequests = Stored("droppedRequests", "dropped", "", Better.Lower, Driver,
        "fixed-rate cells: requests due in the window that could not be sent before it ended", "dropped_requests");
    public static readonly MetricDescriptor TlsHandshakes = Stored("tlsHandshakes", "TLS handshakes", "", Better.Neither, Driver,
        "https targets: TLS handshakes in the window, one per connection opened (the byte columns then count TLS records); empty over plain HTTP", "tls_handshakes");

    // The CPU's own counters (every thread of the server, counted from its first instruction) and the hypervisor.
    public static readonly MetricDescriptor InstructionsUser = Stored("instructionsUser", "user instructions", "", Better.Lower, Pmu,
        "instructions the server retired in user mode over the window");
    public static readonly MetricDescriptor InstructionsKernel = Stored("instructionsKernel", "kernel instructions", "", Better.Lower, Pmu,
        "instructions retired in kernel mode on the server's behalf (its system calls, its sockets' work on its threads) over the window");
    public static readonly MetricDescriptor Cycles = Stored("cycles", "cycles", "", Better.Lower, Pmu, "CPU cycles of the server's threads, user and kernel, over the window");
    public static readonly MetricDescriptor BranchMisses = Stored("branchMisses", "branch misses", "", Better.Lower, Pmu, "mispredicted branches of the server's threads over the window");
    public static readonly MetricDescriptor CacheMisses = Stored("cacheMisses", "cache misses", "", Better.Lower, Pmu,
        "last-level cache misses of the server's threads over the window (where the PMU counts them)");
    public static readonly MetricDescriptor SystemCalls = Stored("systemCalls", "system calls", "", Better.Lower, Syscalls,
        "system calls the server entered over the window, every thread (futex, epoll, reads and writes, sched_getaffinity ...)");
    public static readonly MetricDescriptor AllocatedBytes = Stored("allocatedBytes", "bytes allocated", "B", Better.Lower, GcEvents,
        "managed bytes the server allocated over the window, the sum of the AllocationTicks inside its edges (so within about 100 KB a heap of the true figure at each edge)");
    public static readonly MetricDescriptor Collections = Stored("collections", "collections", "", Better.Lower, GcEvents,
        "garbage collections the server started over the window, every generation");
    public static readonly MetricDescriptor DriverInstructions = Stored("driverInstructions", "driver instructions", "", Better.Neither,
        "the comparator's own process over the window, every thread and the tools it starts in it (ab, wrk), by the CPU's counters",
        "instructions the load driver retired over the window, user and kernel (in a duet window, every side's driver together)");
    public static readonly MetricDescriptor StealSeconds = Stored("stealSeconds", "steal s", "s", Better.Neither, Steal,
        "CPU time the hypervisor gave to other guests while this machine's cores wanted to run, over the window");

    // The simulated pass (its own windows, CellResult.Simulated): user mode only, on a simulated CPU.
    public static readonly MetricDescriptor SimulatedInstructions = Stored("simulatedInstructions", "simulated instructions", "", Better.Lower, Callgrind,
        "user-mode instructions the server's threads executed over a simulated window, but those of threads that spent most of it compiling " +
        "(the JIT's background tiering, which a slowed-down clock keeps busy): every other thread, the collector's included");
    // Stored per request by the pass itself (its windows' counts over their own requests), so a cell's summary can carry the median of its
    // simulated windows beside the measured figures without dividing one pass's count by the other's requests.
    public static readonly MetricDescriptor SimulatedInstructionsPerRequest = Stored("simulatedInstructionsPerRequest", "sim instr/req", "", Better.Lower, Callgrind,
        "user-mode instructions per successful request on valgrind's simulated CPU, the JIT's compiling threads left out (the kernel's work, waits and cache " +
        "misses are not counted): how much work, not how long", "simulated_instructions_per_request",
        new Judging("simulated_instructions", JudgedAt.ClosedLoop, "sim instr", "simulated instructions per request (user mode)",
            "executes fewer instructions per request (simulated, user mode) than", "leaner in simulated instructions", WhereRead: true, Counted: true,
            Includes: WorkKinds.Collector), gated: true);
    public static readonly MetricDescriptor SimulatedCompilerInstructions = Stored("simulatedCompilerInstructions", "simulated JIT instructions", "", Better.Neither, Callgrind,
        "user-mode instructions of the threads that spent most of a simulated window in the JIT compiler: reported apart, not judged");

    // Derived from the stored figures.
    public static readonly MetricDescriptor OtherCores = Derived("otherCores", "other cores", "cores", Better.Neither, Machine,
        "CPU seconds per second used by processes other than the server and the driver (another tenant, a build, the kernel's threads)",
        m => m.MachineCpuSeconds is double c && m.ServerCpuSeconds is double s && m.ElapsedSeconds > 0 ? Math.Max(0, c - s - m.ClientCpuSeconds) / m.ElapsedSeconds : null);
    public static readonly MetricDescriptor Succeeded = Derived("succeeded", "succeeded", "", Better.Neither, Driver, "requests that completed and passed every check",
        m => m.Requests - m.Failed);
    public static readonly MetricDescriptor SwitchesPerRequest = Derived("switchesPerRequest", "switches/req", "1/req", Better.Lower, Procfs,
        "the server's context switches (voluntary + involuntary, every thread, /proc/PID/task/*/status) per successful request",
        m => m.Threads is { } t && m.Succeeded > 0 ? (double)(t.VoluntarySwitches + t.InvoluntarySwitches) / m.Succeeded : null, "switches_per_request");
    public static readonly MetricDescriptor ServerCpuUsPerRequest = Derived("serverCpuUsPerRequest", "server cpu µs/req", "µs", Better.Lower, Server,
            "server process CPU (user+system) over the window / successful requests",
            m => m.ServerCpuSeconds is double s && m.Succeeded > 0 ? s * 1e6 / m.Succeeded : null, "server_cpu_us_per_request",
            judging: new Judging("server_cpu_us", JudgedAt.FixedRate, "cpu", "server CPU time per request", "takes less server CPU time per request than", "cheaper in CPU time",
                DecidesAt: JudgedAt.FixedRate, Includes: WorkKinds.Kernel | WorkKinds.Collector), gated: true, reported: JudgedAt.ClosedLoop);
    public static readonly MetricDescriptor TimePerRequestAcrossMs = Derived("timePerRequestAcrossMs", "ms/req across", "ms", Better.Lower, Driver,
        "ab: Time per request (mean, across all concurrent requests): elapsed / requests",
        m => m.Succeeded > 0 ? m.ElapsedSeconds * 1000 / m.Succeeded : 0);
    public static readonly MetricDescriptor TransferKBpsReceived = Derived("transferKBpsReceived", "KiB/s received", "KiB/s", Better.Neither, Driver, "ab: Transfer rate, received",
        m => m.ElapsedSeconds > 0 ? m.BytesReceived / 1024.0 / m.ElapsedSeconds : 0, "transfer_kbps_received");
    public static readonly MetricDescriptor TransferKBpsSent = Derived("transferKBpsSent", "KiB/s sent", "KiB/s", Better.Neither, Driver, "ab: Transfer rate, sent",
        m => m.ElapsedSeconds > 0 && m.BytesSent is long sent ? sent / 1024.0 / m.ElapsedSeconds : null, "transfer_kbps_sent");
    public static readonly MetricDescriptor BytesPerRequest = Derived("bytesPerRequest", "bytes/req", "B", Better.Lower, Driver, "wire bytes received per request",
            m => m.Requests > 0 ? (double)m.BytesReceived / m.Requests : null, "bytes_received_per_request", written: false, gated: true);

    public static readonly MetricDescriptor InstructionsPerRequest = Derived("instructionsPerRequest", "instructions/req", "", Better.Lower, Pmu,
            "instructions the server retired per successful request, user and kernel mode: the work a request takes, whatever else the machine did",
            m => m.Figures.TryGetValue(InstructionsUser.Id, out var u) && m.Figures.TryGetValue(InstructionsKernel.Id, out var k) && m.Succeeded > 0 ? (u + k) / m.Succeeded : null,
            "instructions_per_request",
            judging: new Judging("instructions", JudgedAt.Everywhere, "instr", "instructions per request", "executes fewer instructions per request than", "leaner in instructions",
                WhereRead: true, Counted: true, Includes: WorkKinds.Kernel | WorkKinds.Collector), gated: true);
    public static readonly MetricDescriptor UserInstructionsPerRequest = Derived("userInstructionsPerRequest", "user instr/req", "", Better.Lower, Pmu,
        "user-mode instructions per successful request: the runtime's, the framework's and the service's own code",
        m => PerRequest(m, InstructionsUser), "user_instructions_per_request");
    public static readonly MetricDescriptor KernelInstructionsPerRequest = Derived("kernelInstructionsPerRequest", "kernel instr/req", "", Better.Lower, Pmu,
        "kernel-mode instructions per successful request: system calls, the sockets' work, page faults",
        m => PerRequest(m, InstructionsKernel), "kernel_instructions_per_request");
    public static readonly MetricDescriptor CyclesPerRequest = Derived("cyclesPerRequest", "cycles/req", "", Better.Lower, Pmu,
            "CPU cycles of the server per successful request: the time its work took on a core, in the core's own clock",
            m => PerRequest(m, Cycles), "cycles_per_request",
            judging: new Judging("cycles", JudgedAt.FixedRate, "cycles", "CPU cycles per request", "takes fewer CPU cycles per request than", "cheaper in cycles", WhereRead: true,
                Includes: WorkKinds.Kernel | WorkKinds.Collector));
    public static readonly MetricDescriptor SystemCallsPerRequest = Derived("systemCallsPerRequest", "syscalls/req", "", Better.Lower, Syscalls,
        "system calls the server entered per successful request, every thread: the kernel's share of the work counted by entries, not by time " +
        "(what a call costs in the kernel, and work the kernel does outside a call, such as a socket's receive path, are not in it)",
        m => PerRequest(m, SystemCalls), "system_calls_per_request",
        judging: new Judging("system_calls", JudgedAt.Everywhere, "syscalls", "system calls per request", "makes fewer system calls per request than",
            "leaner in system calls", WhereRead: true, StandsFor: WorkKinds.Kernel), gated: true);
    public static readonly MetricDescriptor AllocatedBytesPerRequest = Derived("allocatedBytesPerRequest", "alloc B/req", "B", Better.Lower, GcEvents,
        "managed bytes the server allocated per successful request: the collector's work in the making, counted in bytes rather than in its time " +
        "(what a collection then costs, and native memory, are not in it)",
        m => PerRequest(m, AllocatedBytes), "allocated_bytes_per_request",
        judging: new Judging("allocated_bytes", JudgedAt.Everywhere, "alloc", "bytes allocated per request", "allocates fewer bytes per request than",
            "leaner in allocation", WhereRead: true, StandsFor: WorkKinds.Collector), gated: true);
    public static readonly MetricDescriptor CollectionsPerThousandRequests = Derived("collectionsPerThousandRequests", "GCs/1k req", "", Better.Lower, GcEvents,
        "garbage collections started per thousand successful requests, every generation: how often the allocation above became a collection",
        m => m.Figures.TryGetValue(Collections.Id, out var c) && m.Succeeded > 0 ? c * 1000 / m.Succeeded : null, "collections_per_1k_requests");
    public static readonly MetricDescriptor InstructionsPerCycle = Derived("instructionsPerCycle", "IPC", "", Better.Neither, Pmu,
        "instructions per cycle, user and kernel: the same work at a lower IPC waited more on memory, branches or another thread on the core",
        m => m.Figures.TryGetValue(Cycles.Id, out var c) && c > 0 && m.Figures.TryGetValue(InstructionsUser.Id, out var u) && m.Figures.TryGetValue(InstructionsKernel.Id, out var k) ? (u + k) / c : null,
        "ipc");
    public static readonly MetricDescriptor BranchMissesPerRequest = Derived("branchMissesPerRequest", "branch misses/req", "", Better.Lower, Pmu,
        "mispredicted branches per successful request", m => PerRequest(m, BranchMisses), "branch_misses_per_request");
    public static readonly MetricDescriptor CacheMissesPerRequest = Derived("cacheMissesPerRequest", "cache misses/req", "", Better.Lower, Pmu,
        "last-level cache misses per successful request", m => PerRequest(m, CacheMisses), "cache_misses_per_request");
    public static readonly MetricDescriptor DriverInstructionsPerRequest = Derived("driverInstructionsPerRequest", "driver instr/req", "", Better.Neither, Pmu,
        "the load driver's instructions per successful request: what generating and checking the load cost, beside the server's",
        m => PerRequest(m, DriverInstructions), "driver_instructions_per_request");
    public static readonly MetricDescriptor StolenCores = Derived("stolenCores", "stolen cores", "cores", Better.Neither, Steal,
        "cores' worth of CPU the hypervisor took from this machine over the window (steal time per second)",
        m => m.Figures.TryGetValue(StealSeconds.Id, out var s) && m.ElapsedSeconds > 0 ? s / m.ElapsedSeconds : null, "stolen_cores");
    private static double? PerRequest(Measurement m, MetricDescriptor count) =>
        m.Figures.TryGetValue(count.Id, out var v) && m.Succeeded > 0 ? v / m.Succeeded : null;

    // Grouped: written whole by their source (thread activity from /proc, runtime counters from EventPipe).
    public static readonly MetricDescriptor VoluntarySwitches = Grouped("voluntarySwitches", "voluntary switches", "", Better.Lower, Procfs,
        "the server's voluntary context switches over the window (a thread waited: socket, lock, another thread)", m => m.Threads?.VoluntarySwitches, "voluntary_switches");
    public static readonly MetricDescriptor InvoluntarySwitches = Grouped("involuntarySwitches", "involuntary switches", "", Better.Lower, Procfs,
        "the server's involuntary context switches over the window (the scheduler took the core away)", m => m.Threads?.InvoluntarySwitches, "involuntary_switches");
    public static readonly MetricDescriptor ServerThreads = Grouped("serverThreads", "threads", "threads", Better.Neither, Procfs,
        "threads of the server process at the window's end (/proc/PID/task)", m => m.Threads?.ThreadsAtEnd, "server_threads");
    public static readonly MetricDescriptor ThreadPoolThreads = Grouped("threadPoolThreads", "pool threads", "threads", Better.Neither, EventPipe,
        ".NET targets: thread-pool threads at the window's end (runtime counters)", m => m.RuntimeCounters?.ThreadPoolThreadsAtEnd, "threadpool_threads");
    public static readonly MetricDescriptor ThreadPoolQueue = Grouped("threadPoolQueue", "pool queue", "items", Better.Lower, EventPipe,
        ".NET targets: work items waiting for a pool thread, median sample", m => m.RuntimeCounters?.ThreadPoolQueueLengthMedian, "threadpool_queue");
    public static readonly MetricDescriptor TimeInGcPercent = Grouped("timeInGcPercent", "time in GC %", "%", Better.Lower, EventPipe,
        ".NET targets: time in GC, mean sample", m => m.RuntimeCounters?.TimeInGcPercent, "time_in_gc_pct");
    public static readonly MetricDescriptor JitMsPerSecond = Grouped("jitMsPerSecond", "JIT ms/s", "ms/s", Better.Lower, EventPipe,
        ".NET targets: time the runtime spent compiling methods, per second of the window (a steady process compiles nothing)", m => m.RuntimeCounters?.JitMsPerSecond, "jit_ms_per_s");
    public static readonly MetricDescriptor AllocatedMbPerSecond = Grouped("allocatedMbPerSecond", "alloc MiB/s", "MiB/s", Better.Lower, EventPipe,
        ".NET targets: bytes allocated per second", m => m.RuntimeCounters is { } k ? k.AllocatedBytesPerSecond / (1024 * 1024) : null, "alloc_mb_per_s");

    // Found across windows, not in one.
    public static readonly MetricDescriptor Capacity = Add(new("capacity", "capacity req/s", "1/s", Better.Higher, MetricStorage.Searched,
        "the capacity search (`comparator capacity`)", "the highest arrival rate at which every latency objective held without overload", Written: false));

    /// <summary>Every figure, in declaration order (results.json's and results.csv's), and any a test added for its scope.</summary>
    public static IReadOnlyList<MetricDescriptor> All => Added.Value is { } added ? Catalogue.Concat(added).ToList() : Catalogue;

    /// <summary>
    /// Adds figures to the catalogue for the caller's async flow until the scope is disposed: how a test sees a made-up figure,
    /// judged or not, go through every output as a real one would, without touching other tests running beside it.
    /// </summary>
    public static IDisposable Adding(params MetricDescriptor[] descriptors)
    {
        var before = Added.Value;
        Added.Value = (before ?? Array.Empty<MetricDescriptor>()).Concat(descriptors).ToList();
        return new Scope(() => Added.Value = before);
    }

    private sealed class Scope(Action end) : IDisposable
    {
        public void Dispose() => end();
    }

    /// <summary>The figures whose source only some machines have (the CPU's counters, a hypervisor's steal): the reports show their columns only where some cell has them.</summary>
    public static IReadOnlyList<MetricDescriptor> OptionalFigures => All.Where(m => m.Optional).ToList();

    /// <summary>The figures a window stores as values of its own.</summary>
    public static IReadOnlyList<MetricDescriptor> StoredFigures => All.Where(m => m.Storage == MetricStorage.Stored).ToList();

    /// <summary>
    /// The figures verdicts between targets judge, in the order the verdicts give them: throughput, then the counts of work (the
    /// steadiest costs), then the rest as declared. Figures judged only in older files (p99) are included: their verdicts are read and said like any other.
    /// </summary>
    public static IReadOnlyList<MetricDescriptor> Judged =>
        All.Where(m => m.Judging is not null).OrderBy(m => m.HigherIsBetter ? 0 : m.Judging!.Counted ? 1 : 2).ToList();

    /// <summary>The descriptor of a verdict's figure, by its <see cref="Judging.VerdictId"/>; null for a name no figure has.</summary>
    public static MetricDescriptor? ByVerdictId(string verdictId) => All.FirstOrDefault(m => m.VerdictId == verdictId);

    /// <summary>The descriptor a stored figure names by its <see cref="MetricDescriptor.Id"/> (a size model's, a history's); null for a name no figure has.</summary>
    public static MetricDescriptor? ById(string id) => All.FirstOrDefault(m => m.Id == id);

    /// <summary>The figures a verdict between two targets judges at a closed-loop or a fixed-rate cell.</summary>
    public static IEnumerable<MetricDescriptor> VerdictFigures(bool fixedRate) =>
        Judged.Where(m => m.Verdicts.HasFlag(fixedRate ? Results.JudgedAt.FixedRate : Results.JudgedAt.ClosedLoop));

    /// <summary>
    /// The figure the answer and the verdict's table lead with at the closed loop, and that the crossovers read: the first judged there
    /// that is no count (requests a second). Counts are read where a machine has them; the headline is read everywhere.
    /// </summary>
    public static MetricDescriptor Headline => VerdictFigures(fixedRate: false).First(m => m.Judging!.WhereRead == false);

    /// <summary>
    /// The figure that decides a cell among <paramref name="candidates"/> (a look's settled test, a diff's lead figure, a history's gate):
    /// a counted one where <paramref name="read"/> says the cell has it (the steadiest), else the first that decides at this load; null
    /// where none does. One rule for the run's looks, diff and history.
    /// </summary>
    public static MetricDescriptor? Deciding(IEnumerable<MetricDescriptor> candidates, bool fixedRate, Func<MetricDescriptor, bool> read)
    {
        var here = candidates.Where(m => m.Judging is not null).ToList();
        return here.FirstOrDefault(m => m.Judging!.Counted && read(m))
               ?? here.FirstOrDefault(m => m.Judging!.DecidesAt.HasFlag(fixedRate ? JudgedAt.FixedRate : JudgedAt.ClosedLoop));
    }

    /// <summary>The figures `diff`, `--compare-to` and a history judge between two sides, req/s first.</summary>
    public static IReadOnlyList<MetricDescriptor> Gated => All.Where(m => m.Gated).ToList();
}
