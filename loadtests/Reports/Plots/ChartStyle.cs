using Comparator.Results;
using ScottPlot;

namespace Comparator.Reports.Plots;

/// <summary>What every chart of a run shares: a target's colour, an endpoint's line pattern and marker.</summary>
internal static class ChartStyle
{
    public static readonly MarkerShape[] Markers = { MarkerShape.FilledCircle, MarkerShape.FilledSquare, MarkerShape.FilledTriangleUp, MarkerShape.FilledDiamond, MarkerShape.OpenCircle, MarkerShape.OpenSquare };
    public static readonly string[] PatternNames = { "solid", "dashed", "dotted", "dash-dot" };

    /// <summary>The endpoints on the size chart (those with a payload size), in the run's order: the first is drawn solid.</summary>
    public static IReadOnlyList<string> SizedEndpoints(RunResult run) =>
        run.Spec.Endpoints.Concat(run.Cells.Select(c => c.Key.Endpoint)).Distinct().Where(e => run.Cells.Any(c => c.Key.Endpoint == e && c.Key.SizeBytes > 0)).ToList();

    public static int Index(IReadOnlyList<string> list, string item) => Math.Max(0, list.ToList().IndexOf(item));
}

/// <summary>A target's colour in every chart of a run: by its place in the run's target list.</summary>
internal sealed class Palette
{
    private readonly List<string> targets;
    public Palette(RunResult run) =>
        targets = run.Spec.Targets.Concat(run.Targets.Select(t => t.Name)).Concat(run.Cells.Select(c => c.Key.Target)).Distinct().ToList();
    public int IndexOf(string target) => Math.Max(0, targets.IndexOf(target));
    public Color Of(string target) => new ScottPlot.Palettes.Category10().GetColor(IndexOf(target));
}
