using System.Text;
using Comparator.Reports.Sections;
using Comparator.Reports.Text;

namespace Comparator.Reports.Exporters;

/// <summary>report.md: the first screen (headline and table), the answer, the verdict, then every section of the report (<see cref="ReportSections"/>) but the charts.</summary>
public sealed class MarkdownReport : IExporter
{
    public string Name => "md";
    public string? FileName => "report.md";

    public string Render(RunReport report)
    {
        var md = new StringBuilder();
        md.AppendLine("# Comparator run" + (report.Run.Partial ? " (PARTIAL: stopped before the end)" : ""));
        md.AppendLine();
        md.Append(FirstScreen.ToMarkdown(report.Headline, report.Tables));
        foreach (var paragraph in report.AnswerParagraphs) md.AppendLine(string.Join(" ", paragraph)).AppendLine();
        md.Append(VerdictRenderer.ToMarkdown(report.Verdict));
        md.AppendLine();
        foreach (var section in report.Sections)
        {
            if (section.HoldsCharts) continue;
            md.AppendLine("## " + section.Title).AppendLine();
            foreach (var hint in section.Hints) md.AppendLine("**In this run:** " + hint + ".");
            if (section.Hints.Count > 0) md.AppendLine();
            if (section.Explanation is string explanation) md.AppendLine(explanation).AppendLine();
            if (section.Table is TextTable table) md.Append(table.ToMarkdown()).AppendLine();
            foreach (var line in section.Lines) md.AppendLine("- " + line);
            if (section.Lines.Count > 0) md.AppendLine();
        }
        return md.ToString().TrimEnd() + "\n";
    }
}
