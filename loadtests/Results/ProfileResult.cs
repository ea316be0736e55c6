using System.Text.Json.Serialization;

namespace Comparator.Results;

/// <summary>One layer's rule (profile-layers.json): the type prefixes, the files and the native symbols' prefixes whose frames belong to it.</summary>
public sealed record LayerRule(string Layer, IReadOnlyList<string> Types, IReadOnlyList<string> Files, IReadOnlyList<string>? Symbols = null);

/// <summary>
/// Where each target's work went: a sampling profile of the server under each closed-loop cell's load, taken in a pass of its
/// own after every measured window (its targets started afresh with their runtimes' JIT maps on), so that sampling never
/// touches a judged figure. <see cref="Unavailable"/> is the one line that says why nothing was sampled, where nothing was.
/// </summary>
/// <param name="Sampler">how the samples were taken: the program, its event and frequency, the seconds per cell, the runtimes' switches</param>
/// <param name="LayersFile">the layers' rules as read (the project's profile-layers.json, and a user's --layers file before it)</param>
public sealed record ProfileResult(string Sampler, string? Unavailable, string LayersFile, IReadOnlyList<LayerRule> Layers, IReadOnlyList<ProfiledCell> Cells)
{
    /// <summary>The target the differences are taken from (the run's baseline).</summary>
    public string? Baseline { get; init; }

    /// <summary>The cells profiled, each once (as the key of no target), in the profile's order.</summary>
    [JsonIgnore]
    public IReadOnlyList<CellKey> CellKeys => Cells.Select(c => c.Key with { Target = CellKey.AnyTarget }).Distinct().ToList();

    /// <summary>The targets profiled, the baseline first.</summary>
    [JsonIgnore]
    public IReadOnlyList<string> Targets => Cells.Select(c => c.Key.Target).Distinct().OrderBy(t => t == Baseline ? 0 : 1).ToList();

    public ProfiledCell? Of(CellKey cell, string target) => Cells.FirstOrDefault(c => c.Key == cell with { Target = target });
}

/// <summary>One system call's entries a request, and those of them that returned an error (EAGAIN from a drained socket is one).</summary>
public sealed record SystemCallCount(string Call, double PerRequest, double ErrorsPerRequest);

/// <summary>
/// One target's profile of one cell: its samples folded into layers (each sample counted for the leaf-most frame a rule claims)
/// and its hottest frames (self time), with the cost of a request over the same window to scale the shares by.
/// </summary>
/// <param name="NotProfiled">why this target has no profile of this cell (the sampler failed, the target did not start); null when it has one</param>
/// <param name="Folded">the folded stacks' file in the run directory ("thread;root;...;leaf COUNT", as speedscope and FlameGraph read them)</param>
/// <param name="FlameGraph">the flame graph's SVG in the run directory, coloured by layer</param>
/// <param name="NamedShare">the share of sampled frames in JIT-compiled code that its runtime's map named (null where no frame was in such code)</param>
public sealed record ProfiledCell(CellKey Key, string? NotProfiled)
{
    public int Samples { get; init; }
    public double Seconds { get; init; }
    public long Requests { get; init; }
    /// <summary>The server's CPU time a request over the profile's own window: under sampling, with the JIT map and frame pointers on (not a measured figure).</summary>
    public double? CpuUsPerRequest { get; init; }
    /// <summary>Instructions a request over the profile's own window, under sampling, where the CPU's counters were read.</summary>
    public double? InstructionsPerRequest { get; init; }

    /// <summary>The same figures as the run measured them (run --profile): the cell's median window, as its verdict quotes it; null for a profile alone.</summary>
    public double? MeasuredCpuUsPerRequest { get; init; }
    public double? MeasuredInstructionsPerRequest { get; init; }
    /// <summary>How many measured windows the median window is the median of.</summary>
    public int MeasuredWindows { get; init; }
    public double? NamedShare { get; init; }
    public IReadOnlyList<LayerShare> Layers { get; init; } = Array.Empty<LayerShare>();

    /// <summary>The same samples by the layer they were spent on behalf of: the nearest frame outside the runtime and the kernel (<see cref="Layers"/> where none).</summary>
    public IReadOnlyList<LayerShare> Behalf { get; init; } = Array.Empty<LayerShare>();
    public IReadOnlyList<FrameShare> Frames { get; init; } = Array.Empty<FrameShare>();
    public string? Folded { get; init; }
    public string? FlameGraph { get; init; }

    /// <summary>The most frequent system calls a request, by call, over the tracing window of the pass (perf trace -s); empty where none was traced.</summary>
    public IReadOnlyList<SystemCallCount> SystemCalls { get; init; } = Array.Empty<SystemCallCount>();
    /// <summary>Requests served in the tracing window the <see cref="SystemCalls"/> are divided by.</summary>
    public long SystemCallRequests { get; init; }
    /// <summary>Why this cell has no calls by name (the tracer is missing or failed); null where it has them or none was asked.</summary>
    public string? SystemCallsNotTraced { get; init; }

    /// <summary>
    /// The figure a layer's share scales into: the run's measured one where there is one (instructions per request where counted, else
    /// server CPU µs per request), else the profile window's own; null for none.
    /// </summary>
    [JsonIgnore]
    public (double PerRequest, string Unit, bool Measured)? Cost =>
        MeasuredInstructionsPerRequest is double mi ? (mi, InstructionsUnit, true) : MeasuredCpuUsPerRequest is double mc ? (mc, CpuUnit, true)
        : InstructionsPerRequest is double i ? (i, InstructionsUnit, false) : CpuUsPerRequest is double c ? (c, CpuUnit, false) : null;

    /// <summary>The units of <see cref="Cost"/>: instructions counted, or microseconds of CPU time.</summary>
    public const string InstructionsUnit = "instructions";
    public const string CpuUnit = "µs CPU";

    public double ShareOf(string layer) => Layers.FirstOrDefault(l => l.Layer == layer)?.Share ?? 0;

    public double BehalfOf(string layer) => Behalf.FirstOrDefault(l => l.Layer == layer)?.Share ?? 0;
}

/// <summary>A layer's share of a profile's samples, weighted by their periods.</summary>
public sealed record LayerShare(string Layer, double Share);

/// <summary>A frame's share of the samples it was the leaf of (its self time), with its layer (null where no rule claims it).</summary>
public sealed record FrameShare(string Frame, string? Layer, double Share);
