using System.IO;

namespace Comparator.Running;

/// <summary>Progress as plain lines on stderr: readable in a CI log and never mixed into stdout's table.</summary>
public sealed class LineProgress : IRunProgress
{
    private readonly TextWriter _out;

    public LineProgress(TextWriter? output = null) => _out = output ?? Console.Error;

    public void Message(string line) => _out.WriteLine(line);

    public void CellStarted(int index, int total, string label, double secondsLeft) =>
        _out.WriteLine(string.Create(CultureInfo.InvariantCulture, $"[{index}/{total}] {label}: measuring (about {Format(secondsLeft)} of load left)"));

    public void CellFinished(string label, string outcome) => _out.WriteLine($"      {label}: {outcome}");

    public void RoundFinished(string label, int repeats, string detail) => _out.WriteLine($"      repeat {repeats}: {detail}");

    private static string Format(double seconds) =>
        seconds >= 60 ? $"{(int)(seconds / 60)}m{(int)(seconds % 60):00}s" : $"{Math.Ceiling(seconds):0}s";
}
