using System;
using System.Collections.Generic;
using System.Linq;
using Comparator.Results;
using ScottPlot;

namespace Comparator.Reports;

/// <summary>What every chart of a run shares: a target's colour, an endpoint's line pattern and marker.</summary>
public static partial class Charts
{
    private static readonly MarkerShape[] Markers = { MarkerShape.FilledCircle, MarkerShape.FilledSquare, MarkerShape.FilledTriangleUp, MarkerShape.FilledDiamond, MarkerShape.OpenCircle, MarkerShape.OpenSquare };
    private static readonly string[] PatternNames = { "solid", "dashed", "dotted", "dash-dot" };

    /// <summary>The colour of a target in every chart of this run: by its place in the run's target list.</summary>
    public static Color TargetColor(RunResult run, string target) => new Palette(run).Of(target);

    /// <summary>The line pattern of an endpoint on the size chart ("solid", "dashed"...): by its place among the run's endpoints that have a payload size.</summary>
    public static string EndpointPattern(RunResult run, string endpoint) => PatternNames[Index(SizedEndpoints(run), endpoint) % PatternNames.Length];

    /// <summary>The endpoints on the size chart (those with a payload size), in the run's order: the first is drawn solid.</summary>
    private static IReadOnlyList<string> SizedEndpoints(RunResult run) =>
        run.Spec.Endpoints.Concat(run.Cells.Select(c => c.Key.Endpoint)).Distinct().Where(e => run.Cells.Any(c => c.Key.Endpoint == e && c.Key.SizeBytes > 0)).ToList();

    private sealed class Palette
    {
        private readonly List<string> targets;
        public Palette(RunResult run) =>
            targets = run.Spec.Targets.Concat(run.Targets.Select(t => t.Name)).Concat(run.Cells.Select(c => c.Key.Target)).Distinct().ToList();
        public int IndexOf(string target) => Math.Max(0, targets.IndexOf(target));
        public Color Of(string target) => new ScottPlot.Palettes.Category10().GetColor(IndexOf(target));
    }

    private static int Index(IReadOnlyList<string> list, string item) => Math.Max(0, list.ToList().IndexOf(item));
}
