using System.IO;
using Comparator.Contracts;
using Comparator.Running;
using Comparator.Statistics;
using Comparator.Targets;
using static Comparator.Cli.OptionValues;

namespace Comparator.Cli;

/// <summary>Turns `run` arguments into <see cref="RunOptions"/>; every mistake is a UsageException with one line.</summary>
public static class RunOptionsParser
{
    public const string DefaultSizes = "500,4KB,64KB";
    /// <summary>The Web API targets that serve as the ratio's denominator, best first (the design's baseline is webapi).</summary>
    public static readonly string[] BaselineCandidates = { "webapi", "webapi-selfhost" };

    /// <summary>`run`'s arguments alone, as the command line defines them (<see cref="RunCommand.Define"/>).</summary>
    public static RunOptions Parse(IReadOnlyList<string> args, BuildLayout layout) =>
        Parse(new ArgumentReader(CommandLine.ParseOrThrow(RunCommand.Define(), args)), layout);

    public static RunOptions Parse(ArgumentReader a, BuildLayout layout)
    {
        try
        {
            return ParseRun(a, layout);
        }
        catch (UsageException e) when (a.CommandName != "run" && e.Message.StartsWith("run: ", StringComparison.Ordinal))
        {
            // calibrate shares run's options and their checks; its mistakes carry its own name.
            throw new UsageException(a.CommandName + e.Message[3..]);
        }
    }

    private static RunOptions ParseRun(ArgumentReader a, BuildLayout layout)
    {
        var quick = a.Flag("--quick");
        var targets = TargetSetOf(a, layout);
        var options = new RunOptions(targets, CellGridOf(a, layout, targets, quick), WindowOf(a, quick), JudgingOf(a, quick), OutputOf(a, layout, quick));
        return options.Judging.Rule.Design is SequentialDesign design ? WithHorizonOfTheBudget(options, design) : options;
    }

    /// <summary>--targets, --target, --baseline-target and how every target is started.</summary>
    private static TargetSet TargetSetOf(ArgumentReader a, BuildLayout layout)
    {
        var (targets, unavailable) = Targets(a, layout);
        // The baseline is the Web API side of the best pair in the run (webapi, else webapi-selfhost);
        // where neither is in the run, the first target is, and the spec says so.
        var baseline = Optional(a, "--baseline-target") ?? BaselineCandidates.FirstOrDefault(b => targets.Any(t => t.Name == b)) ?? targets.FirstOrDefault()?.Name ?? "";
        return new TargetSet(targets, unavailable, baseline,
            Ports: a.Defines("--ports") ? a.Ports() : null,
            Insecure: a.Defines("--insecure") && a.Flag("--insecure"),
            ServerHeader: a.OnOff("--server-header"),
            TcpNoDelay: a.OnOff("--tcp-nodelay", absent: true),
            Revisions: a.Defines("--revision") ? Revisions(a.Values("--revision"), targets, a.CommandName) : null).Validate().OrUsage();
    }

    /// <summary>The cells: --endpoints and --sizes (or --scenario), --concurrency, --json-items, --driver, --rate, and where they run (--pin, --server-cores).</summary>
    private static CellGrid CellGridOf(ArgumentReader a, BuildLayout layout, TargetSet targets, bool quick)
    {
        var endpoints = List(a.Value("--endpoints") ?? string.Join(',', Endpoints.All.Select(e => e.Name)))
            .Select(name => Endpoints.Find(name) ?? throw new UsageException(
                $"run: unknown endpoint '{name}'; endpoints: {string.Join(", ", Endpoints.All.Select(e => e.Name))}"))
            .Distinct().ToList();
        var sizes = List(ExpandSweep(a.Value("--sizes") ?? DefaultSizes)).Select(s => ReadPayload(s, layout.PayloadDirectory)).ToList();
        var concurrency = List(a.Value("--concurrency") ?? "100").Select(c => PositiveInt("--concurrency", c, 10_000)).Distinct().ToList();
        var jsonItems = a.Value("--json-items") is string j
            ? (JsonSample.TryParseItems(j, out var n) ? n : throw new UsageException($"run: --json-items takes 0 to {JsonSample.MaxItems}, not '{j}'"))
            : JsonSample.DefaultItems;
        var scenario = Scenario(a, layout, targets.Plans);
        // Commands that share run's options without --rate (calibrate) measure the closed loop only.
        var rates = Rates(Optional(a, "--rate"), quick || !a.Defines("--rate"));
        var drivers = Drivers.DriverCatalog.Resolve(a.Value("--driver")).OrUsage();
        if (Optional(a, "--rate") is not null && rates.Count > 0 && !drivers.Contains(Drivers.SocketDriver.DriverName))
            throw new UsageException($"run: --rate needs the socket driver (it alone sends at a constant rate); add --driver {Drivers.SocketDriver.DriverName}");
        var pin = CpuPin.Parse(a.Value("--pin")).OrUsage();
        var serverCores = ServerCores(Optional(a, "--server-cores"), a.Value("--pin"), targets.Plans);
        return new CellGrid(endpoints, sizes, concurrency, drivers, rates, scenario, jsonItems, pin, serverCores,
            CellGrid.AllotmentsOf(serverCores, pin, targets.AllExternal, Environment.ProcessorCount)).Validate().OrUsage();
    }

    /// <summary>Each cell's windows: --keep-alive, --warmup, --first-warmup, --duration, the rounds, --timeout, --steady-bound, --duet, --counters.</summary>
    private static WindowSettings WindowOf(ArgumentReader a, bool quick)
    {
        var keepAlive = (a.Value("--keep-alive") ?? "true") switch
        {
            "true" => true,
            "false" => false,
            var other => throw new UsageException($"run: --keep-alive takes true or false, not '{other}'"),
        };
        var warmup = Duration("--warmup", a.Value("--warmup") ?? (quick ? QuickWarmup : DefaultWarmup), allowZero: true);
        // The cold cell's warm-up: measured JIT time; an explicit --warmup alone sets both.
        var firstWarmup = a.Value("--first-warmup") is string fw ? Duration("--first-warmup", fw, allowZero: true)
            : a.Value("--warmup") is not null ? warmup
            : Duration("--first-warmup", quick ? QuickFirstWarmup : DefaultFirstWarmup, allowZero: true);
        var duration = Duration("--duration", Optional(a, "--duration") ?? (quick ? "1s" : DefaultDuration), allowZero: false);
        var timeout = Duration("--timeout", a.Value("--timeout") ?? "30s", allowZero: false);
        return new WindowSettings(warmup, firstWarmup, duration, Repeats(a, quick), keepAlive, timeout)
        {
            // --quick is a smoke test: no lead is claimed, so its targets are not held until their JIT stops either.
            SteadyBound = a.Defines("--steady-bound") && a.Value("--steady-bound") is string steady ? Duration("--steady-bound", steady, allowZero: true)
                : quick ? TimeSpan.Zero : WindowSettings.DefaultSteadyBound,
            Duet = a.Defines("--duet") && a.Flag("--duet"),
            // The machine is asked here, once: every part after reads the outcome.
            CpuCounting = CpuCounting.Resolve(Counters(a).Hardware, systemCalls: CountersAsked(a) is not "off"),
        }.Validate().OrUsage();
    }

    /// <summary>
    /// The judging: the lead rule (--confidence, --min-effect, --equivalence), a fixed --launches or the design that adds them
    /// until cells settle (--max-launches, --budget), and the gate against an earlier run (--compare-to, --threshold).
    /// </summary>
    private static JudgingPlan JudgingOf(ArgumentReader a, bool quick)
    {
        var fixedLaunches = Optional(a, "--launches") is string l ? PositiveInt("--launches", l, 50) : quick ? 1 : (int?)null;
        if (fixedLaunches is not null && (Optional(a, "--budget") is not null || Optional(a, "--max-launches") is not null))
            throw new UsageException("run: --launches N is a fixed count; --budget and --max-launches shape the launches added until cells settle: use one or the other");
        // --max-launches caps the horizon; the budget plans it (WithHorizonOfTheBudget).
        var maxLaunches = Optional(a, "--max-launches") is string ml ? PositiveInt("--max-launches", ml, 50) : SequentialDesign.DefaultMaxLaunches;
        if (maxLaunches < SequentialDesign.DefaultFirstLook)
            throw new UsageException($"run: --max-launches takes {SequentialDesign.DefaultFirstLook} to 50 (the first judgment is at {SequentialDesign.DefaultFirstLook} launches), not '{maxLaunches}'");
        var design = fixedLaunches is null ? new SequentialDesign(SequentialDesign.DefaultFirstLook, maxLaunches) : null;
        var budget = design is null ? (TimeSpan?)null : Duration("--budget", Optional(a, "--budget") ?? DefaultBudget, allowZero: false);
        var rule = new LeadRule(
            Optional(a, "--confidence") is string c ? Percent("run", "--confidence", c, 50, 99.99) : LeadRule.DefaultConfidence,
            Optional(a, "--min-effect") is string m ? Percent("run", "--min-effect", m, 0, 50, allowZero: true) : LeadRule.DefaultMinEffect,
            Optional(a, "--equivalence") is string e ? Percent("run", "--equivalence", e, 0, 50, example: "5%") : LeadRule.DefaultEquivalence,
            design);
        return new JudgingPlan(rule, fixedLaunches ?? maxLaunches, budget, Optional(a, "--compare-to"),
            Optional(a, "--threshold") is string threshold ? Percent("run", "--threshold", threshold, 0, 100, example: "5%") : null).Validate().OrUsage();
    }

    /// <summary>Where the run goes and what it adds: --out, --label, --profile, --crank, and the simulated pass of --counters.</summary>
    private static RunOutput OutputOf(ArgumentReader a, BuildLayout layout, bool quick) => new RunOutput(a.Value("--out") ?? layout.ResultsDirectory,
        Label: Optional(a, "--label") is { } label ? (label.Trim().Length > 0 ? label.Trim() : throw new UsageException($"{a.CommandName}: --label needs a text, not an empty one")) : null,
        Profile: a.Defines("--profile") && a.Flag("--profile") ? Profile(a, layout) : null,
        Crank: a.Defines("--crank") && a.Flag("--crank"))
    {
        Simulation = Simulation(a, quick),
    }.Validate().OrUsage();

    /// <summary>
    /// The simulated pass's settings when the run has it (--counters): by default three launches, then launches added to the cells not yet
    /// settled within --simulated-budget; --simulated-launches N a fixed count instead, looked at once. Either given for a run without the
    /// pass is refused, and so are both together.
    /// </summary>
    private static SimulationSettings? Simulation(ArgumentReader a, bool quick)
    {
        var on = Counters(a).Simulated || AutoSimulates(a, quick);
        var (dotnetRaw, warmupRaw) = (Optional(a, "--simulated-dotnet"), Optional(a, "--simulated-warmup"));
        if (!on && (dotnetRaw ?? warmupRaw) is not null)
            throw new UsageException($"{a.CommandName}: {(dotnetRaw is not null ? "--simulated-dotnet" : "--simulated-warmup")} shapes the simulated pass, and this run has " +
                "no simulated pass (--counters hardware or off, or auto on a CPU that counts, --quick or --launches 1); add --counters simulated");
        var settings = Launches(a, on);
        if (settings is null) return null;
        if (dotnetRaw is not null)
            settings = settings with
            {
                DotNet = DotNetUnderSimulation.Find(dotnetRaw) ?? throw new UsageException(
                    $"{a.CommandName}: --simulated-dotnet takes {string.Join(", ", DotNetUnderSimulation.All.Select(s => s.Name))}, not '{dotnetRaw}'"),
            };
        if (warmupRaw is not null)
        {
            // A launch's first cell keeps its extra time over the others: it compiles the path every cell shares.
            var warmup = Duration("--simulated-warmup", warmupRaw, allowZero: true, a.CommandName);
            settings = settings with { Warmup = warmup, FirstWarmup = warmup + (SimulationSettings.Default.FirstWarmup - SimulationSettings.Default.Warmup) };
        }
        return settings;
    }

    /// <summary>The pass's launches: the default's, --simulated-budget's or --simulated-launches'; null for a run without the pass.</summary>
    private static SimulationSettings? Launches(ArgumentReader a, bool on)
    {
        var (fixedRaw, budgetRaw) = (Optional(a, "--simulated-launches"), Optional(a, "--simulated-budget"));
        if (fixedRaw is null && budgetRaw is null) return on ? SimulationSettings.Default : null;
        var given = fixedRaw is not null ? "--simulated-launches" : "--simulated-budget";
        if (!on)
            throw new UsageException($"{a.CommandName}: {given} shapes the simulated pass, and this run has no simulated pass " +
                "(--counters hardware or off, or auto on a CPU that counts, --quick or --launches 1); add --counters simulated");
        if (fixedRaw is not null && budgetRaw is not null)
            throw new UsageException($"{a.CommandName}: --simulated-launches N is a fixed count; --simulated-budget shapes the launches added until cells settle: use one or the other");
        if (budgetRaw is not null)
            return SimulationSettings.Default with { Budget = Duration("--simulated-budget", budgetRaw, allowZero: true, a.CommandName) };
        var launches = PositiveInt("--simulated-launches", fixedRaw!, SimulationSettings.MaxFixedLaunches, a.CommandName);
        return launches >= 2 ? SimulationSettings.Default with { Launches = launches, Sequential = false }
            : throw new UsageException($"{a.CommandName}: --simulated-launches takes 2 to {SimulationSettings.MaxFixedLaunches}: one launch gives no spread to judge, not '{fixedRaw}'");
    }

    /// <summary>
    /// --counters: which counts of work a run takes. hardware: the CPU's counters where it has them; simulated: a pass of valgrind's
    /// callgrind after the measured windows; both; off. auto (the default, and "on") takes the hardware's where the machine has them,
    /// and the simulated pass where it has none (<see cref="AutoSimulates"/>).
    /// </summary>
    private static (bool Hardware, bool Simulated) Counters(ArgumentReader a) =>
        CountersAsked(a) switch
        {
            null or "auto" or "on" or "hardware" => (true, false),
            "simulated" => (false, true),
            "both" => (true, true),
            "off" => (false, false),
            var other => throw new UsageException($"{a.CommandName}: --counters takes hardware, simulated, both, off or auto, not '{other}'"),
        };

    private static string? CountersAsked(ArgumentReader a) => a.Defines("--counters") ? a.Value("--counters") : null;

    /// <summary>
    /// Whether auto adds the simulated pass: on a machine whose CPU does not count (no PMU, as on most VMs and CI runners), for a run that
    /// judges. A --quick run or one launch claims nothing, so it is not worth the minutes the pass takes.
    /// </summary>
    private static bool AutoSimulates(ArgumentReader a, bool quick) =>
        CountersAsked(a) is null or "auto" or "on" && !quick && Optional(a, "--launches") is not "1" && !CpuCounting.Resolve(asked: true).Available;

    /// <summary>
    /// The profile pass's settings (--profile-duration, --layers, --perf), its layers read now: a user's file that cannot be read
    /// is refused before any target starts.
    /// </summary>
    public static ProfileSettings Profile(ArgumentReader a, BuildLayout layout)
    {
        var duration = a.Defines("--profile-duration") && a.Value("--profile-duration") is string d ? Duration("--profile-duration", d, allowZero: false, a.CommandName)
            : ProfileSettings.DefaultDuration;
        try
        {
            var project = Measuring.StackLayers.Load(layout.ProfileLayersFile);
            if (!a.Defines("--layers") || a.Value("--layers") is not string user) return new ProfileSettings(duration, project, layout.ProfileLayersFile, Perf(a));
            if (!System.IO.File.Exists(user)) throw new UsageException($"--layers: no file at {user}");
            return new ProfileSettings(duration, Measuring.StackLayers.Extend(Measuring.StackLayers.Load(user), project), $"{user}, then {layout.ProfileLayersFile}", Perf(a));
        }
        catch (System.IO.InvalidDataException e)
        {
            throw new UsageException($"--layers: {e.Message}");
        }
    }

    /// <summary>
    /// --revision's values: REV for the run (every target), NAME=REV for the target of that name. A value whose part before '=' names no
    /// target of the run is the run's own (a build tag may hold '='); two for the run, or two for one target, are an error.
    /// </summary>
    public static IReadOnlyDictionary<string, string>? Revisions(IReadOnlyList<string> values, IReadOnlyList<TargetPlan> targets, string command)
    {
        if (values.Count == 0) return null;
        var revisions = new Dictionary<string, string>();
        foreach (var value in values.Select(v => v.Trim()))
        {
            var eq = value.IndexOf('=');
            var (name, revision) = eq > 0 && targets.Any(t => t.Name == value[..eq]) ? (value[..eq], value[(eq + 1)..].Trim()) : ("", value);
            if (revision.Length == 0) throw new UsageException($"{command}: --revision '{value}' gives no revision");
            if (!revisions.TryAdd(name, revision))
                throw new UsageException($"{command}: --revision given twice for {(name.Length == 0 ? "the run" : name)} ('{revisions[name]}', '{revision}'); give it once");
        }
        return revisions;
    }

    private static string? Perf(ArgumentReader a) => a.Defines("--perf") ? a.Value("--perf") : null;

    /// <summary>
    /// The design's horizon, planned before any data: the launches of every cell the budget is sure to
    /// buy (if nothing settles), at least the first look and at most --max-launches. All of α is spent by
    /// then, so a budget that ends the run is where the design meant to end, not a third of the way
    /// (a horizon of 13 under a budget that buys 5 launches would leave most of α unspent and every
    /// interval wider). Later launches get cheaper as cells settle, but none is added past the horizon.
    /// </summary>
    private static RunOptions WithHorizonOfTheBudget(RunOptions options, SequentialDesign design)
    {
        var full = options.LaunchLoadSeconds(options.CellsPerLaunch);
        var affordable = full > 0 ? (int)Math.Floor(options.Judging.BudgetSeconds / full) : design.MaxLaunches;
        var horizon = Math.Clamp(affordable, design.FirstLook, design.MaxLaunches);
        var planned = design with { MaxLaunches = horizon };
        return options with { Judging = options.Judging with { Launches = horizon, Rule = options.Judging.Rule with { Design = planned } } };
    }

    /// <summary>--server-cores: the allotments, checked against --pin, the targets and the machine; null when not given.</summary>
    private static IReadOnlyList<CoreAllotment>? ServerCores(string? raw, string? pin, IReadOnlyList<TargetPlan> targets)
    {
        if (raw is null) return null;
        if (pin is not null) throw new UsageException("run: --server-cores and --pin both place the targets: use one (--pin SERVER:DRIVER is one allotment of your own)");
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsWindows())
            throw new UsageException("run: --server-cores places the targets through taskset (Linux) or processor affinity (Windows); this OS has neither here");
        if (targets.FirstOrDefault(t => t.IsExternal) is TargetPlan external)
            throw new UsageException($"run: --server-cores cannot place {external.Name}: a service given by URL runs on the cores it was started with");
        return CoreAllotment.Parse(raw, Environment.ProcessorCount).OrUsage();
    }

    /// <summary>The default run's fixed-rate pass: half the pair's lower capacity, where both still answer promptly.</summary>
    public const string DefaultRate = "50%";

    /// <summary>
    /// --rate: requests/s ("2000", a list), shares of the lower closed-loop capacity ("50%"), auto
    /// (25%, 50% and 75%), or none. Default: one pass at 50% (none with --quick).
    /// </summary>
    public static IReadOnlyList<RateSpec> Rates(string? raw, bool quick)
    {
        var text = raw ?? (quick ? "none" : DefaultRate);
        if (text.Trim() is "none" or "off") return Array.Empty<RateSpec>();
        if (text.Trim() == "auto") return new[] { new RateSpec(null, 0.25), new RateSpec(null, 0.5), new RateSpec(null, 0.75) };
        return List(text).Select(item => item.EndsWith('%')
            ? new RateSpec(null, Percent("run", "--rate", item, 0, 100, example: "50%"))
            : double.TryParse(item, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var r) && r >= 1 && r <= 1_000_000
                ? new RateSpec(r, null)
                : throw new UsageException($"run: --rate takes requests/s (1 to 1000000, a list allowed), a share of capacity such as 50%, auto or none, not '{item}'"))
            .Distinct().ToList();
    }

    /// <summary>
    /// --scenario FILE: read and checked against this run's targets before any is started (a bad
    /// file is one line and exit 2). Its operations replace the contract's endpoints and sizes.
    /// </summary>
    private static Scenarios.Scenario? Scenario(ArgumentReader a, BuildLayout layout, IReadOnlyList<TargetPlan> targets)
    {
        if (Optional(a, "--scenario") is not string file) return null;
        foreach (var option in new[] { "--endpoints", "--sizes", "--json-items" })
            if (a.Value(option) is not null)
                throw new UsageException($"run: {option} is for the contract's endpoints; with --scenario the file's operations (and their sizes) are the cells");
        var scenario = Scenarios.ScenarioParser.Load(layout.Resolve(file), layout.PayloadDirectory);
        Scenarios.ScenarioParser.CheckTargets(scenario, targets.Select(t => t.Name).ToList());
        return scenario;
    }

    /// <summary>
    /// The load the added launches may spend by default: chosen from the settled share against the
    /// budget measured on a 2-core machine (docs/method.md).
    /// </summary>
    public const string DefaultBudget = "5m";

    /// <summary>Warm-up before every cell (the JIT has compiled the common path by then; this covers the endpoint's own code).</summary>
    public const string DefaultWarmup = "0.5s";
    /// <summary>Warm-up of a target's first, cold cell: measured time for requests/s to level off after a cold start.</summary>
    public const string DefaultFirstWarmup = "2s";
    public const string DefaultDuration = "1s";
    private const string QuickWarmup = "0.5s";
    private const string QuickFirstWarmup = "1s";

    /// <summary>
    /// --repeat N: exactly N rounds per launch. --max-repeat N: rounds until every target's CV of
    /// requests/s in the launch is at most --precision (default 5%), at least 3 and at most N.
    /// Otherwise <see cref="RepeatRule.DefaultRounds"/>; --quick: 1.
    /// </summary>
    private static RepeatRule Repeats(ArgumentReader a, bool quick)
    {
        var precision = Optional(a, "--precision") is string p ? Percent("run", "--precision", p, 0, 100, example: "5% or 2.5") : RepeatRule.DefaultPrecision;
        var fixedCount = Optional(a, "--repeat");
        var max = Optional(a, "--max-repeat");
        if (fixedCount is not null && max is not null)
            throw new UsageException("run: use --repeat N (a fixed count) or --max-repeat N (repeat until --precision), not both");
        if (fixedCount is not null)
        {
            var n = PositiveInt("--repeat", fixedCount, 100);
            return new RepeatRule(n, n, precision);
        }
        if (max is not null)
        {
            var cap = PositiveInt("--max-repeat", max, 100);
            return new RepeatRule(Math.Min(RepeatRule.DefaultMinRepeat, cap), cap, precision);
        }
        return quick ? new RepeatRule(1, 1, precision) : new RepeatRule(RepeatRule.DefaultRounds, RepeatRule.DefaultRounds, precision);
    }

    /// <summary>
    /// The targets we start (--targets, or the default when neither option is given) and then the
    /// services already running (every --target NAME=URL), measured side by side.
    /// </summary>
    /// <summary>--target-pid NAME=PID: each names a --target and a process that exists.</summary>
    private static Dictionary<string, int> ExternalPids(ArgumentReader a, IReadOnlyList<string> externalNames)
    {
        var pids = new Dictionary<string, int>();
        foreach (var spec in a.Defines("--target-pid") ? a.Values("--target-pid") : Array.Empty<string>())
        {
            var eq = spec.IndexOf('=');
            if (eq <= 0 || !int.TryParse(spec[(eq + 1)..], System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var pid) || pid < 1)
                throw new UsageException($"run: --target-pid needs NAME=PID, e.g. orders=4242, not '{spec}'");
            var name = spec[..eq];
            if (!externalNames.Contains(name))
                throw new UsageException($"run: --target-pid {spec}: no --target is named '{name}'");
            if (!Measuring.ProcessSampler.Exists(pid))
                throw new UsageException($"run: --target-pid {spec}: no process {pid} on this machine");
            pids[name] = pid;
        }
        return pids;
    }

    private static (List<TargetPlan>, List<TargetDefinition>) Targets(ArgumentReader a, BuildLayout layout)
    {
        var external = ExternalTarget.FromOptions(a).Select(t => new TargetPlan(t.Name, null, t.BaseUrl)).ToList();
        // Services started by command, each launch afresh as a built target is: --target NAME=cmd:... and every --targets-file entry.
        var commands = CommandTargetSpec.FromOptions(a).Select(d => new TargetPlan(d.Name, d, null)).ToList();
        var builtList = a.Value("--targets");
        var plans = new List<TargetPlan>();
        var unavailable = new List<TargetDefinition>();
        if (builtList is not null || external.Count + commands.Count == 0)
        {
            layout.RequireCheckout(a.CommandName);
            // No --targets: the default pair (WCF against Web API); --targets all: every target that runs here.
            var error = "";
            var resolved = builtList is not null ? TargetCatalog.Resolve(builtList, out error) : TargetCatalog.DefaultRunTargets;
            if (error.Length > 0) throw new UsageException("run: " + error);
            plans.AddRange(resolved.Select(t => new TargetPlan(t.Name, t, null)));
            if (builtList is null) unavailable.AddRange(TargetCatalog.All.Where(t => !t.IsAvailable));
        }
        plans.AddRange(commands);
        var pids = ExternalPids(a, external.Select(t => t.Name).ToList());
        // Two targets of one name are refused with the set (TargetSet.Validate).
        foreach (var t in external)
        {
            plans.Add(t with { ExternalPid = pids.TryGetValue(t.Name, out var pid) ? pid : t.ExternalUrl!.IsLoopback ? Measuring.ListeningProcess.Find(t.ExternalUrl.Port) : null });
        }
        return (plans, unavailable);
    }

    /// <summary>An option only some commands that share this parser define (run has them, calibrate not).</summary>
    private static string? Optional(ArgumentReader a, string name) => a.Defines(name) ? a.Value(name) : null;
}
