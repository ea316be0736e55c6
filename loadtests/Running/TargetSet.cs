using Comparator.Errors;
using Comparator.Targets;

namespace Comparator.Running;

/// <summary>
/// Who is measured and how each is started: the targets (<paramref name="Plans"/>, started by us or given by URL), the ones
/// this machine cannot run (<paramref name="Unavailable"/>, each said why), the one the others are compared against, and
/// what every start is given.
/// </summary>
/// <param name="Ports">--ports, the range the targets are started on; null: any free port</param>
/// <param name="Insecure">--insecure, an https target's certificate accepted though it does not validate (self-signed)</param>
/// <param name="ServerHeader">--server-header, whether the targets send their Server header</param>
/// <param name="TcpNoDelay">--tcp-nodelay, what every target is asked of Nagle's algorithm</param>
/// <param name="Revisions">--revision, the run's (key "") and each named target's; null when none was given</param>
public sealed record TargetSet(
    IReadOnlyList<TargetPlan> Plans,
    IReadOnlyList<TargetDefinition> Unavailable,
    string BaselineTarget,
    PortRange? Ports = null,
    bool Insecure = false,
    bool ServerHeader = false,
    bool TcpNoDelay = true,
    IReadOnlyDictionary<string, string>? Revisions = null)
{
    public bool AllExternal => Plans.Count > 0 && Plans.All(t => t.IsExternal);

    /// <summary>The revision a target's record carries: its own (--revision NAME=REV), else the run's; null when none was given.</summary>
    public string? RevisionOf(string target) => Revisions is null ? null : Revisions.TryGetValue(target, out var own) ? own : Revisions.GetValueOrDefault("");

    /// <summary>These targets alone, started as the set's are, compared against <paramref name="baseline"/>.</summary>
    public TargetSet Only(IReadOnlyList<TargetPlan> plans, string baseline) => this with { Plans = plans, Unavailable = Array.Empty<TargetDefinition>(), BaselineTarget = baseline };

    /// <summary>Two instances of one target, the first the baseline: an A/A pair, where any lead claimed is a false one.</summary>
    public TargetSet Pair(TargetPlan a, TargetPlan b) => Only(new[] { a, b }, a.Name);

    /// <summary>At least one target, each of its own name, the baseline one of them.</summary>
    public Validated<TargetSet> Validate()
    {
        if (Plans.Count == 0) return Validated<TargetSet>.Refused("run: no target to measure");
        if (Plans.GroupBy(t => t.Name).FirstOrDefault(g => g.Count() > 1) is { } twice)
            return Validated<TargetSet>.Refused($"run: two targets are named '{twice.Key}'; give each --target NAME=URL a name of its own");
        if (Plans.All(t => t.Name != BaselineTarget))
            return Validated<TargetSet>.Refused($"run: --baseline-target '{BaselineTarget}' is not one of the targets ({string.Join(", ", Plans.Select(t => t.Name))})");
        return Validated<TargetSet>.Valid(this);
    }
}

/// <summary>Where a target comes from: started by us from the catalogue, or already running at a URL.</summary>
/// <param name="ExternalPid">the process of an external service whose CPU is read (given, or found listening on its loopback port), or null</param>
public sealed record TargetPlan(string Name, TargetDefinition? Definition, Uri? ExternalUrl, int? ExternalPid = null)
{
    public bool IsExternal => ExternalUrl is not null;

    /// <summary>An https target's TLS as first negotiated ("TLS 1.3, TLS_AES_256_GCM_SHA384, certificate validated"); null over plain HTTP.</summary>
    public string? Tls { get; init; }
}
