using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Xml.Linq;
using Comparator.Measuring;
using Comparator.Reports;
using Xunit;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;

namespace Comparator.Tests;

/// <summary>Samples merged into a flame tree, and the tree drawn as a standalone SVG read back as XML.</summary>
public sealed class FlameGraphTests
{
    private static readonly XNamespace Svg = "http://www.w3.org/2000/svg";
    private static readonly Dictionary<string, string> Colors = new() { ["framework"] = "#e45756", ["runtime"] = "#4c78a8" };

    /// <summary>A sample of the given thread and period whose frames (root first) are named by their symbols, in no file.</summary>
    private static StackSample S(string thread, long period, params string[] frames) =>
        new(thread, 1, period, frames.Select(f => new StackFrame(f, "/tmp/perf-1.map")).ToList());

    /// <summary>Frames whose name begins with "Fw" are the framework's, "Rt" the runtime's; the rest no layer's.</summary>
    private static string? Layer(StackFrame frame) =>
        frame.Symbol.StartsWith("Fw") ? "framework" : frame.Symbol.StartsWith("Rt") ? "runtime" : null;

    private static XDocument Draw(params StackSample[] samples) =>
        XDocument.Parse(FlameGraph.Svg(FlameTree.Build(samples, Layer), Colors, "webapi-selfhost echo-post"));

    /// <summary>The group drawn for the frame of that name: its title begins with the name, then its layer or the share.</summary>
    private static XElement Frame(XDocument doc, string name) =>
        doc.Descendants(Svg + "g").Single(g => g.Element(Svg + "title") is { } t && (t.Value.StartsWith(name + " (") || t.Value.StartsWith(name + ":")));

    private static double Width(XElement frame) => double.Parse(frame.Element(Svg + "rect")!.Attribute("width")!.Value, CultureInfo.InvariantCulture);

    private static string Heading(XDocument doc) => doc.Descendants(Svg + "text").First().Value;

    [Fact]
    public void Equal_stacks_merge_under_their_thread_weighted_by_period_and_children_are_ordered_by_ordinal_name()
    {
        var root = FlameTree.Build(new[]
        {
            S("worker", 10, "Main", "b"), S("worker", 30, "Main", "b"), S("worker", 5, "Main", "a"), S("worker", 1, "Main", "B"),
            S("io", 7, "Poll"),
        }, Layer);

        Assert.Equal("all", root.Name);
        Assert.Equal(53, root.Weight);
        Assert.Equal(5, root.Samples);
        Assert.Equal(new[] { "io", "worker" }, root.Children.Select(c => c.Name));
        var worker = root.Children[1];
        Assert.Null(worker.Layer);
        Assert.Equal(46, worker.Weight);
        var main = Assert.Single(worker.Children);
        Assert.Equal(("Main", 46.0), (main.Name, main.Weight));
        Assert.Equal(new[] { ("B", 1.0), ("a", 5.0), ("b", 40.0) }, main.Children.Select(c => (c.Name, c.Weight))); // ordinal: upper case first
        Assert.Equal(2, main.Children[2].Samples);
    }

    [Fact]
    public void A_frame_takes_its_layer_from_the_rule_and_a_thread_has_none()
    {
        var root = FlameTree.Build(new[] { S("FwThread", 1, "FwController", "RtAlloc", "native") }, Layer);

        var thread = Assert.Single(root.Children);
        Assert.Null(thread.Layer); // even though its name would match the framework's rule
        var controller = Assert.Single(thread.Children);
        Assert.Equal("framework", controller.Layer);
        Assert.Equal("runtime", controller.Children[0].Layer);
        Assert.Null(controller.Children[0].Children[0].Layer);
    }

    [Fact]
    public void The_svg_is_xml_with_no_script_and_no_address_but_its_namespace()
    {
        var text = FlameGraph.Svg(FlameTree.Build(new[] { S("worker", 1, "FwController", "RtAlloc") }, Layer), Colors, "t");

        var doc = XDocument.Parse(text);
        Assert.Equal(Svg + "svg", doc.Root!.Name);
        Assert.DoesNotContain("<script", text, System.StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("https://", text);
        Assert.Equal(1, text.Split("http://").Length - 1);
        Assert.Contains("http://www.w3.org/2000/svg\"", text);
    }

    [Fact]
    public void A_frame_of_twice_the_weight_is_twice_as_wide_and_the_root_spans_the_plot()
    {
        // 590 in all over 1180 px: 2 px a unit, so every width is exact.
        var doc = Draw(S("worker", 200, "Main", "Heavy"), S("worker", 100, "Main", "Light"), S("worker", 290, "Main", "Rest"));

        Assert.Equal(400, Width(Frame(doc, "Heavy")));
        Assert.Equal(2 * Width(Frame(doc, "Light")), Width(Frame(doc, "Heavy")));
        Assert.Equal(1180, Width(Frame(doc, "all")));
        Assert.Equal("Heavy: 33.9% of samples", Frame(doc, "Heavy").Element(Svg + "title")!.Value);
    }

    [Fact]
    public void The_root_is_at_the_top_and_a_child_hangs_one_frame_below_its_parent()
    {
        var doc = Draw(S("worker", 1, "Main"));
        double Y(string name) => double.Parse(Frame(doc, name).Element(Svg + "rect")!.Attribute("y")!.Value, CultureInfo.InvariantCulture);

        Assert.Equal(Y("all") + 16, Y("worker"));
        Assert.Equal(Y("worker") + 16, Y("Main"));
    }

    [Fact]
    public void A_name_with_markup_characters_is_escaped_and_shown_whole_in_its_title()
    {
        const string name = "System.Collections.Generic.List`1<T>::Add(!0)[OptimizedTier1] & \"more\"";
        var text = FlameGraph.Svg(FlameTree.Build(new[] { S("worker", 1, name) }, Layer), Colors, "<title> & co");

        Assert.DoesNotContain("<T>", text);
        Assert.Contains("&lt;T&gt;", text);
        var doc = XDocument.Parse(text);
        Assert.Equal(name + ": 100.0% of samples", Frame(doc, name).Element(Svg + "title")!.Value);
        Assert.StartsWith("<title> & co: 1 samples", Heading(doc));
    }

    [Fact]
    public void A_frame_is_filled_with_its_layers_colour_a_thread_and_an_unclaimed_frame_grey_and_the_legend_lists_each_layer()
    {
        var doc = Draw(S("worker", 1, "FwController", "RtAlloc", "native"));
        string Fill(string name) => Frame(doc, name).Element(Svg + "rect")!.Attribute("fill")!.Value;

        Assert.Equal("#e45756", Fill("FwController"));
        Assert.Equal("#4c78a8", Fill("RtAlloc"));
        Assert.Equal("#c8c8c8", Fill("worker"));
        Assert.Equal("#c8c8c8", Fill("native"));
        Assert.Equal("FwController (framework): 100.0% of samples", Frame(doc, "FwController").Element(Svg + "title")!.Value);
        foreach (var (layer, color) in Colors)
        {
            var label = doc.Descendants(Svg + "text").Single(t => t.Value == layer);
            Assert.Equal(color, ((XElement)label.PreviousNode!).Attribute("fill")!.Value); // its swatch
        }
    }

    [Fact]
    public void Frames_under_a_thousandth_of_the_width_are_not_drawn_and_the_heading_counts_them()
    {
        // 1 of 1001 is 0.0999%: the frame and the one above it are left out; its thread, drawn, keeps their weight.
        var doc = Draw(S("worker", 1000, "Main"), S("worker", 1, "Sliver", "Above"));

        var titles = doc.Descendants(Svg + "title").Select(t => t.Value).ToList();
        Assert.Equal(3, titles.Count); // all, worker, Main
        Assert.DoesNotContain(titles, t => t.StartsWith("Sliver") || t.StartsWith("Above"));
        Assert.Equal("webapi-selfhost echo-post: 2 samples, 2 frames too narrow to draw (under 0.1% of the width)", Heading(doc));
    }

    [Fact]
    public void A_label_is_cut_with_two_dots_to_what_fits_and_left_out_where_three_characters_do_not()
    {
        // 1180 px wide: the long name gets 60% (708 px, 108 characters), "Tiny" 0.2% (2.4 px, none).
        var long_ = new string('x', 200);
        var doc = Draw(S("worker", 600, long_), S("worker", 398, "Short"), S("worker", 2, "Tiny"));

        Assert.Equal(new string('x', 106) + "..", Frame(doc, long_).Element(Svg + "text")!.Value);
        Assert.Equal("Short", Frame(doc, "Short").Element(Svg + "text")!.Value);
        Assert.Null(Frame(doc, "Tiny").Element(Svg + "text"));
    }

    [Fact]
    public void Numbers_are_written_in_the_invariant_culture_whatever_the_current_one()
    {
        var previous = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = new CultureInfo("de-DE"); // decimal comma, dot for thousands
        try
        {
            var doc = Draw(S("worker", 2, "A"), S("worker", 1, "B"));
            Assert.Equal("786.667", Frame(doc, "A").Element(Svg + "rect")!.Attribute("width")!.Value);
            Assert.Equal("A: 66.7% of samples", Frame(doc, "A").Element(Svg + "title")!.Value);
        }
        finally
        {
            CultureInfo.CurrentCulture = previous;
        }
    }
}
