using System.Threading.Tasks;
using Spectre.Console;

namespace Comparator.Running;

/// <summary>
/// Live progress on an interactive terminal (Spectre.Console): the cell being measured, a bar over
/// all cells and the time left; finished cells scroll above it. Non-interactive output (CI logs,
/// pipes) gets <see cref="LineProgress"/> instead.
/// </summary>
public sealed class SpectreProgress : IRunProgress
{
    private readonly ProgressTask _task;

    private SpectreProgress(ProgressTask task) => _task = task;

    public static bool Usable => !Console.IsOutputRedirected && AnsiConsole.Profile.Capabilities.Interactive;

    /// <summary>Runs the work inside a live progress display that counts <paramref name="cells"/> steps.</summary>
    public static Task<T> RunAsync<T>(int cells, Func<IRunProgress, Task<T>> work) =>
        AnsiConsole.Progress()
            .AutoClear(true)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new RemainingTimeColumn())
            .StartAsync(async context => await work(new SpectreProgress(context.AddTask("starting", maxValue: Math.Max(cells, 1)))));

    public void Message(string line) => AnsiConsole.MarkupLine(Markup.Escape(line));

    private string _cell = "";

    public void CellStarted(int index, int total, string label, double secondsLeft) =>
        _task.Description = Markup.Escape(_cell = $"[{index}/{total}] {label}");

    public void RoundFinished(string label, int repeats, string detail) =>
        _task.Description = Markup.Escape($"{_cell} repeat {repeats}: {detail}");

    public void CellFinished(string label, string outcome)
    {
        AnsiConsole.MarkupLine(Markup.Escape($"{label}: {outcome}"));
        _task.Increment(1);
    }
}
