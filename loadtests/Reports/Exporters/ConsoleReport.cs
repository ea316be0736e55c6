using System.Text;
using Comparator.Reports.Sections;

namespace Comparator.Reports.Exporters;

/// <summary>
/// What a run prints of its report on the terminal: the sections that have a terminal form, each
/// under its caption, then the hints of this run. The verdict comes last, after what the command
/// itself prints (<see cref="VerdictRenderer.ToText"/>).
/// </summary>
public sealed class ConsoleReport : IExporter
{
    public string Name => "console";
    public string? FileName => null;

    public string Render(RunReport report)
    {
        var text = new StringBuilder();
        foreach (var view in report.Sections.Select(s => s.Terminal).OfType<TerminalView>())
        {
            if (view.Caption.Length > 0) text.AppendLine(view.Caption);
            text.Append(view.Table.ToText()).AppendLine();
        }
        foreach (var hint in report.Sections.SelectMany(s => s.Hints)) text.AppendLine("hint: " + hint);
        return text.ToString();
    }
}
