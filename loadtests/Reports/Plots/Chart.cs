using ScottPlot;

namespace Comparator.Reports.Plots;

/// <summary>
/// One chart of a run: a file name, a title, and the plot (ScottPlot) that draws it. The title and
/// the subtitle (what was measured: endpoints, concurrency, driver, machine) are drawn on the image
/// itself, so a PNG pasted on its own still says what it shows.
/// </summary>
public sealed record Chart(string Name, string Title, Plot Plot)
{
    public const int Width = 900;
    public const int DefaultHeight = 600;

    /// <summary>The image's height: the default, or taller for a chart with a row per judgment.</summary>
    public int Height { get; init; } = DefaultHeight;

    /// <summary>What was measured, in one or two lines; drawn under the title on the image.</summary>
    public string Subtitle { get; init; } = "";

    public string Svg() => Plot.GetSvgXml(Width, Height);
}
