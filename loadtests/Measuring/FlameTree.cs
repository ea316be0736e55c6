using System.Collections.ObjectModel;

namespace Comparator.Measuring;

/// <summary>
/// A node of a flame graph: a frame's name, its layer (null where no rule claims it), the weight of the samples through
/// it (the sum of their periods), how many samples those are, and its children.
/// </summary>
public sealed class FlameNode
{
    // Sorted by name (ordinal), as FlameGraph.pl sorts, so the same samples always draw the same picture.
    private readonly SortedList<string, FlameNode> children = new(StringComparer.Ordinal);

    internal FlameNode(string name, string? layer)
    {
        Name = name;
        Layer = layer;
        Children = new ReadOnlyCollection<FlameNode>(children.Values); // a live view: no copy to keep in step
    }

    public string Name { get; }
    public string? Layer { get; }
    public double Weight { get; internal set; }
    public int Samples { get; internal set; }
    public IReadOnlyList<FlameNode> Children { get; }

    internal FlameNode? Find(string name) => children.GetValueOrDefault(name);

    internal FlameNode Add(string name, string? layer)
    {
        var child = new FlameNode(name, layer);
        children.Add(name, child);
        return child;
    }

    internal void Count(StackSample sample)
    {
        Weight += sample.Period;
        Samples++;
    }
}

/// <summary>Samples merged into the tree a flame graph draws.</summary>
public static class FlameTree
{
    /// <summary>
    /// The root is "all"; below it one node per thread name (no layer: a thread is not code), then the frames root
    /// first. Frames of one name under one parent merge, whatever their file: the picture names frames, not addresses.
    /// </summary>
    public static FlameNode Build(IEnumerable<StackSample> samples, Func<StackFrame, string?> layerOf)
    {
        var root = new FlameNode("all", null);
        foreach (var sample in samples)
        {
            root.Count(sample);
            var node = root.Find(sample.Thread) ?? root.Add(sample.Thread, null);
            node.Count(sample);
            foreach (var frame in sample.Frames)
            {
                // layerOf is asked once per node, not once per sample: a rule's match runs a regex.
                var name = frame.Folded;
                node = node.Find(name) ?? node.Add(name, layerOf(frame));
                node.Count(sample);
            }
        }
        return root;
    }
}
