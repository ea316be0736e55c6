using System.Security;
using System.Text;
using Comparator.Measuring;
using Comparator.Reports.Exporters;

namespace Comparator.Reports.Plots;

/// <summary>
/// A profile drawn as an icicle graph (a flame graph upside down: the root on top, a frame as wide as its share of the
/// samples, its callees under it), coloured by layer so a reviewer sees where the time goes at a glance. The root is on
/// top because a page opens at its top: the threads and the layers' widest frames are seen first, the deep leaves below. One standalone SVG document: no script and
/// nothing fetched, so it opens offline from a run's folder; hovering a frame shows its &lt;title&gt;.
/// </summary>
public static class FlameGraph
{
    private const int FrameHeight = 16, Pad = 10, Heading = 30;
    private const double CharWidth = 6.5;  // Verdana at 11 px averages about 0.59 em a character
    private const double MinShare = 0.001; // a frame under 0.1% of the width is a sliver nobody can read or hover
    private const string Grey = "#c8c8c8"; // threads and frames no layer claims: neutral, so the layers stand out
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    public static string Svg(FlameNode root, IReadOnlyDictionary<string, string> layerColors, string title, int width = 1200)
    {
        // Lay out first: the height depends on the deepest frame drawn, and the heading on how many were not.
        var plotWidth = width - 2.0 * Pad;
        var scale = root.Weight > 0 ? plotWidth / root.Weight : 0;
        var frames = new List<(FlameNode Node, double X, int Depth, double Width)>();
        var tooNarrow = 0;
        void Place(FlameNode node, double x, int depth)
        {
            var w = node.Weight * scale;
            if (w < plotWidth * MinShare) { tooNarrow += Count(node); return; } // its children are narrower still
            frames.Add((node, x, depth, w));
            foreach (var child in node.Children) { Place(child, x, depth + 1); x += child.Weight * scale; }
        }
        if (root.Weight > 0) Place(root, Pad, 0);

        // The legend wraps onto more rows when the layers do not fit in one.
        var legend = new List<(string Layer, string Color, double X, int Row)>();
        double lx = Pad;
        var rows = 1;
        foreach (var (layer, color) in layerColors)
        {
            var w = 16 + layer.Length * CharWidth + 16;
            if (lx > Pad && lx + w > width - Pad) { lx = Pad; rows++; }
            legend.Add((layer, color, lx, rows - 1));
            lx += w;
        }
        var top = Heading + rows * FrameHeight + 8;
        var levels = frames.Count == 0 ? 0 : frames.Max(f => f.Depth) + 1;
        var height = top + levels * FrameHeight + Pad;

        var svg = new StringBuilder();
        svg.Append(Inv, $"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n");
        svg.Append(Inv, $"<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n<g font-family=\"Verdana, sans-serif\" font-size=\"11\">\n");
        var narrow = tooNarrow > 0 ? string.Create(Inv, $", {tooNarrow:N0} frames too narrow to draw (under 0.1% of the width)") : "";
        svg.Append(Inv, $"<text x=\"{Pad}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{E(title)}: {root.Samples:N0} samples{narrow}</text>\n");
        foreach (var (layer, color, x, row) in legend)
        {
            var y = Heading + row * FrameHeight;
            svg.Append(Inv, $"<rect x=\"{x:0.##}\" y=\"{y}\" width=\"12\" height=\"12\" fill=\"{E(color)}\"/><text x=\"{x + 16:0.##}\" y=\"{y + 10}\">{E(layer)}</text>\n");
        }
        foreach (var (node, x, depth, w) in frames)
        {
            var y = top + depth * FrameHeight; // the root on the top row
            var layer = node.Layer is null ? "" : $" ({node.Layer})";
            var fill = node.Layer is not null && layerColors.TryGetValue(node.Layer, out var c) ? c : Grey;
            svg.Append(Inv, $"<g><title>{E(node.Name + layer)}: {node.Weight / root.Weight * 100:0.0}% of samples</title>");
            svg.Append(Inv, $"<rect x=\"{x:0.###}\" y=\"{y}\" width=\"{w:0.###}\" height=\"{FrameHeight - 1}\" rx=\"2\" fill=\"{E(fill)}\" stroke=\"#ffffff\" stroke-width=\"0.5\"/>");
            if (Label(node.Name, w) is { } label) svg.Append(Inv, $"<text x=\"{x + 3:0.###}\" y=\"{y + 11}\">{E(label)}</text>");
            svg.Append("</g>\n");
        }
        return svg.Append("</g>\n</svg>\n").ToString();
    }

    /// <summary>FlameGraph.pl's rule: the characters that fit, the last two replaced by ".." when cut; no label under three.</summary>
    private static string? Label(string name, double width)
    {
        var fit = (int)((width - 6) / CharWidth); // 3 px of padding each side
        if (fit < 3) return null;
        if (name.Length <= fit) return name;
        var cut = fit - 2;
        if (char.IsHighSurrogate(name[cut - 1])) cut--; // half a pair would make the document invalid
        return name[..cut] + "..";
    }

    private static int Count(FlameNode node) => 1 + node.Children.Sum(Count);

    private static string E(string text) => SecurityElement.Escape(text);
}
