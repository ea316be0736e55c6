using System.Text;

namespace Comparator.Reports.Sections;

/// <summary>A table of strings, written as aligned text or as Markdown. Numbers are right-aligned.</summary>
public sealed record TextTable(IReadOnlyList<string> Header, IReadOnlyList<IReadOnlyList<string>> Rows)
{
    public string ToText()
    {
        var widths = Header.Select((h, i) => Math.Max(h.Length, Rows.Select(r => r[i].Length).DefaultIfEmpty(0).Max())).ToArray();
        var text = new StringBuilder();
        void Line(IReadOnlyList<string> cells) =>
            text.AppendLine(string.Join("  ", cells.Select((c, i) => IsNumeric(c) ? c.PadLeft(widths[i]) : c.PadRight(widths[i]))).TrimEnd());
        Line(Header);
        text.AppendLine(string.Join("  ", widths.Select(w => new string('-', w))));
        foreach (var row in Rows) Line(row);
        return text.ToString();
    }

    public string ToMarkdown()
    {
        var md = new StringBuilder();
        md.AppendLine("| " + string.Join(" | ", Header.Select(Escape)) + " |");
        md.AppendLine("|" + string.Join("|", Header.Select((_, i) => Rows.Count > 0 && IsNumeric(Rows[0][i]) ? " ---: " : " --- ")) + "|");
        foreach (var row in Rows) md.AppendLine("| " + string.Join(" | ", row.Select(Escape)) + " |");
        return md.ToString();
    }

    /// <summary>An HTML table; cells whose text names a flag get class "flag" so they stand out.</summary>
    public string ToHtml()
    {
        var html = new StringBuilder("<table><thead><tr>");
        foreach (var h in Header) html.Append("<th>").Append(System.Net.WebUtility.HtmlEncode(h)).Append("</th>");
        html.Append("</tr></thead><tbody>");
        foreach (var row in Rows)
        {
            html.Append("<tr>");
            foreach (var cell in row)
            {
                var cls = IsNumeric(cell) ? " class=\"num\"" : FlagWords.Any(cell.Contains) ? " class=\"flag\"" : "";
                html.Append("<td").Append(cls).Append('>').Append(System.Net.WebUtility.HtmlEncode(cell)).Append("</td>");
            }
            html.Append("</tr>");
        }
        return html.Append("</tbody></table>").ToString();
    }

    private static readonly string[] FlagWords = { "failed", "client-bound", "machine-bound", "noisy", "drivers-disagree", "not-measured", "DISAGREE", "REGRESSION" };

    private static string Escape(string cell) => cell.Replace("|", "\\|");

    private static bool IsNumeric(string cell) =>
        cell.Length > 0 && (char.IsDigit(cell[0]) || (cell[0] is '-' or '+' && cell.Length > 1 && char.IsDigit(cell[1])));
}
