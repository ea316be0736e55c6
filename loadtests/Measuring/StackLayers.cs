using System.IO;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace Comparator.Measuring;

/// <summary>One layer's rule: the type prefixes and the files whose frames belong to it.</summary>
public sealed record LayerRule(string Layer, IReadOnlyList<string> Types, IReadOnlyList<string> Files);

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

    public static IReadOnlyList<LayerRule> Load(string path)
    {
        using var doc = JsonDocument.Parse(File.ReadAllText(path));
        return doc.RootElement.GetProperty("layers").EnumerateArray().Select(e => new LayerRule(
            e.GetProperty("layer").GetString()!,
            e.TryGetProperty("types", out var t) ? t.EnumerateArray().Select(x => x.GetString()!).ToList() : new List<string>(),
            e.TryGetProperty("files", out var f) ? f.EnumerateArray().Select(x => x.GetString()!).ToList() : new List<string>())).ToList();
    }

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

    /// <summary>Each layer's share of the samples (weighted by their periods), largest first.</summary>
    public static IReadOnlyList<(string Layer, double Share)> Shares(IReadOnlyList<StackSample> samples, IReadOnlyList<LayerRule> rules)
    {
        var total = samples.Sum(s => (double)s.Period);
        return total <= 0 ? new List<(string, double)>()
            : samples.GroupBy(s => Of(s, rules)).Select(g => (g.Key, g.Sum(s => (double)s.Period) / total)).OrderByDescending(x => x.Item2).ToList();
    }
}
