using System.IO;
using System.Text.Json;
using System.Text.RegularExpressions;
using Comparator.Results;

namespace Comparator.Measuring;

/// <summary>
/// The layers a reviewer reads a profile by (profile-layers.json, data a user can extend): each sample counts for the
/// layer of its leaf-most frame that a rule claims, so time spent in the serializer called by the controller is
/// serialization's, and a frame of the runtime called by the listener is the runtime's. A frame is matched by the type
/// that declares its method, never by its arguments' types: Mono's perf map names "Ns.Type:Method (args)", .NET's
/// "instance ret [Assembly] Ns.Type::Method(args)[Tier]", Mono's AOT symbols "Ns_Type_Method".
/// </summary>
public static partial class StackLayers
{
    public const string Unattributed = "unattributed";

    /// <summary>The name of the project's own rules, at the repository's root (beside the tool when installed).</summary>
    public const string FileName = "profile-layers.json";

    /// <summary>
    /// The rules of one file: {"layers": [{"layer": NAME, "types": [PREFIX...], "files": [NAME...]}...]}. A file that cannot be
    /// read or is not of this shape is an <see cref="InvalidDataException"/> with one line naming it.
    /// </summary>
    public static IReadOnlyList<LayerRule> Load(string path)
    {
        try
        {
            using var doc = JsonDocument.Parse(File.ReadAllText(path));
            if (!doc.RootElement.TryGetProperty("layers", out var layers) || layers.ValueKind != JsonValueKind.Array)
                throw new InvalidDataException($"{path}: no \"layers\" array");
            return layers.EnumerateArray().Select(e => new LayerRule(
                e.TryGetProperty("layer", out var name) && name.GetString() is { Length: > 0 } n ? n : throw new InvalidDataException($"{path}: a layer without a \"layer\" name"),
                Strings(e, "types"), Strings(e, "files"), Strings(e, "symbols"))).ToList();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or JsonException or InvalidOperationException)
        {
            throw new InvalidDataException($"{path}: {e.Message}");
        }
    }

    private static IReadOnlyList<string> Strings(JsonElement layer, string property) =>
        layer.TryGetProperty(property, out var list) ? list.EnumerateArray().Select(x => x.GetString() ?? "").Where(x => x.Length > 0).ToList() : new List<string>();

    /// <summary>A user's rules before the project's: the first rule that claims a frame wins, so a user's namespace in "service" is the service's.</summary>
    public static IReadOnlyList<LayerRule> Extend(IReadOnlyList<LayerRule> user, IReadOnlyList<LayerRule> project) => user.Concat(project).ToList();

    // .NET: the last "[Assembly] Type::" before the argument list.
    [GeneratedRegex(@"\]\s*(?<type>[^\s\[\]:()]+)::[^:(]*\(")]
    private static partial Regex DotNetType();

    /// <summary>The namespace-qualified type that declares a frame's method; null for native code with no such name.</summary>
    public static string? DeclaringType(string symbol)
    {
        if (DotNetType().Matches(symbol) is { Count: > 0 } m) return m[^1].Groups["type"].Value;
        var args = symbol.IndexOf(" (", StringComparison.Ordinal);
        var head = args > 0 ? symbol[..args] : symbol;
        if (head.StartsWith("(wrapper", StringComparison.Ordinal)) return null;
        var colon = head.LastIndexOf(':');
        if (colon > 0) return head[..colon];
        // Mono's AOT code: System_Threading_Tasks_Task_FinishContinuations; a prefix match needs dots.
        return head.Contains('_') && char.IsUpper(head[0]) ? head.Replace('_', '.') : null;
    }

    /// <summary>The layer of one frame, or null where no rule claims it.</summary>
    public static string? Of(StackFrame frame, IReadOnlyList<LayerRule> rules)
    {
        var type = frame.Symbol == "[unknown]" ? null : DeclaringType(frame.Symbol);
        var file = Path.GetFileName(frame.Dso);
        foreach (var rule in rules)
        {
            if (type is not null && rule.Types.Any(p => type == p || type.StartsWith(p + ".", StringComparison.Ordinal) || type.StartsWith(p + "/", StringComparison.Ordinal)))
                return rule.Layer;
            if (rule.Symbols is { } symbols && symbols.Any(p => frame.Symbol.StartsWith(p, StringComparison.Ordinal))) return rule.Layer;
            if (rule.Files.Any(f => frame.Dso == f || file.StartsWith(f, StringComparison.Ordinal))) return rule.Layer;
        }
        return null;
    }

    /// <summary>A sample's layer: its leaf-most frame that a rule claims.</summary>
    public static string Of(StackSample sample, IReadOnlyList<LayerRule> rules)
    {
        for (var i = sample.Frames.Count - 1; i >= 0; i--)
            if (Of(sample.Frames[i], rules) is string layer) return layer;
        return Unattributed;
    }

    /// <summary>Whether a layer does work on others' behalf (the kernel, the runtime and its parts: "runtime: GC"), looked through by <see cref="Behalf"/>.</summary>
    public static bool Serves(string layer) => layer == "kernel" || layer == "runtime" || layer.StartsWith("runtime:", StringComparison.Ordinal);

    /// <summary>
    /// The layer a sample was spent on behalf of: its leaf-most frame whose layer is neither the kernel nor the runtime (a socket's send
    /// called by the listener is the listener's, an allocation's collection in the serializer the serializer's); the sample's own layer
    /// where no such frame is on its stack (a collector's own thread, an idle pool thread).
    /// </summary>
    public static string Behalf(StackSample sample, IReadOnlyList<LayerRule> rules)
    {
        for (var i = sample.Frames.Count - 1; i >= 0; i--)
            if (Of(sample.Frames[i], rules) is string layer && !Serves(layer)) return layer;
        return Of(sample, rules);
    }

    /// <summary>Each layer's share of the samples (weighted by their periods), largest first; by each sample's own layer, or by <paramref name="layerOf"/>.</summary>
    public static IReadOnlyList<LayerShare> Shares(IReadOnlyList<StackSample> samples, IReadOnlyList<LayerRule> rules, Func<StackSample, IReadOnlyList<LayerRule>, string>? layerOf = null)
    {
        var total = samples.Sum(s => (double)s.Period);
        layerOf ??= Of;
        return total <= 0 ? new List<LayerShare>()
            : samples.GroupBy(s => layerOf(s, rules)).Select(g => new LayerShare(g.Key, g.Sum(s => (double)s.Period) / total)).OrderByDescending(x => x.Share).ToList();
    }

    /// <summary>The frames that were the leaf of the most samples (their self time), with their layers, the largest first.</summary>
    public static IReadOnlyList<FrameShare> TopFrames(IReadOnlyList<StackSample> samples, IReadOnlyList<LayerRule> rules, int count)
    {
        var total = samples.Sum(s => (double)s.Period);
        if (total <= 0) return new List<FrameShare>();
        return samples.Where(s => s.Frames.Count > 0).GroupBy(s => s.Frames[^1].Folded)
            .Select(g => new FrameShare(g.Key, Of(g.First().Frames[^1], rules), g.Sum(s => (double)s.Period) / total))
            .OrderByDescending(f => f.Share).ThenBy(f => f.Frame, StringComparer.Ordinal).Take(count).ToList();
    }

    /// <summary>
    /// The share of sampled frames in JIT-compiled code that have a name: code perf found in a runtime's map (/tmp/perf-PID.map), or in a
    /// double mapping it cannot name (memfd:doublemapper, .NET's W^X); null where no frame was in such code.
    /// </summary>
    public static double? NamedShare(IReadOnlyList<StackSample> samples)
    {
        static bool Jitted(StackFrame f) => Path.GetFileName(f.Dso) is var file && (file.StartsWith("perf-", StringComparison.Ordinal) && file.EndsWith(".map", StringComparison.Ordinal)
            || f.Dso.StartsWith("memfd:", StringComparison.Ordinal) || f.Dso.StartsWith("//anon", StringComparison.Ordinal));
        var jitted = samples.SelectMany(s => s.Frames).Where(Jitted).ToList();
        return jitted.Count == 0 ? null : (double)jitted.Count(f => f.Symbol != "[unknown]") / jitted.Count;
    }
}
