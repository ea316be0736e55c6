using ScottPlot;

namespace Comparator.Reports.Plots;

/// <summary>Lines cut into dashes of a length in pixels: the size chart's endpoint patterns and the crossover marks.</summary>
internal static class DashedLines
{
    /// <summary>The axis limits and, roughly, the data area in pixels: dashes are measured in pixels.</summary>
    public sealed record Frame(double Left, double Right, double Bottom, double Top)
    {
        public double PxX => 760 / (Right - Left);
        public double PxY => 360 / (Top - Bottom);
    }

    /// <summary>On/off lengths in pixels per endpoint: solid, dashed, dotted, dash-dot-like. Drawn as segments (Skia's SVG output has no dash effect).</summary>
    public static readonly double[][] DashPatterns = { Array.Empty<double>(), new double[] { 9, 5 }, new double[] { 2.5, 4 }, new double[] { 14, 4, 3, 4 } };

    /// <summary>A line through the points, solid or cut into dashes by the pattern; every piece kept out of the legend.</summary>
    public static void Polyline(Plot plot, Frame frame, IReadOnlyList<double> xs, IReadOnlyList<double> ys, Color color, float width, int pattern)
    {
        var dashes = DashPatterns[pattern];
        if (dashes.Length == 0)
        {
            var solid = plot.Add.ScatterLine(xs.ToArray(), ys.ToArray());
            solid.Color = color;
            solid.LineWidth = width;
            return;
        }
        int k = 0;
        double left = dashes[0];
        bool on = true;
        for (var i = 0; i + 1 < xs.Count; i++)
        {
            var dx = (xs[i + 1] - xs[i]) * frame.PxX;
            var dy = (ys[i + 1] - ys[i]) * frame.PxY;
            var length = Math.Sqrt(dx * dx + dy * dy);
            double at = 0;
            while (at < length)
            {
                var step = Math.Min(left, length - at);
                if (on)
                {
                    double X(double t) => xs[i] + (xs[i + 1] - xs[i]) * t / length;
                    double Yy(double t) => ys[i] + (ys[i + 1] - ys[i]) * t / length;
                    var dash = plot.Add.Line(X(at), Yy(at), X(at + step), Yy(at + step));
                    dash.Color = color;
                    dash.LineWidth = width;
                    dash.LegendText = "";
                }
                at += step;
                left -= step;
                if (left <= 1e-9)
                {
                    k = (k + 1) % dashes.Length;
                    left = dashes[k];
                    on = k % 2 == 0;
                }
            }
        }
    }
}
