using System.Net;
using System.Text;

namespace Comparator.Reports.Text;

/// <summary>
/// The first screen of every output, written three ways from the same headline and tables: the terminal's last lines (within
/// <see cref="JudgedTable.TerminalWidth"/> columns), the top of summary.md and report.md (Markdown that renders in a pull request),
/// and the top of report.html. Everything else (the answer in full, intervals, launches, cautions) follows below it.
/// </summary>
public static class FirstScreen
{
    public static string ToText(IReadOnlyList<string> headline, IReadOnlyList<JudgedTable> tables)
    {
        var text = new StringBuilder();
        foreach (var sentence in headline) text.Append(Wrap("answer: " + sentence, JudgedTable.TerminalWidth, "  "));
        foreach (var table in tables)
        {
            text.Append('\n').Append(Wrap(table.Caption + ":", JudgedTable.TerminalWidth, "  "));
            text.Append(table.ToText());
        }
        return text.ToString();
    }

    public static string ToMarkdown(IReadOnlyList<string> headline, IReadOnlyList<JudgedTable> tables)
    {
        var md = new StringBuilder();
        foreach (var sentence in headline) md.Append("**").Append(sentence).Append("**\n\n");
        foreach (var table in tables) md.Append(table.Caption).Append(":\n\n").Append(table.ToMarkdown()).Append('\n');
        return md.ToString();
    }

    public static string ToHtml(IReadOnlyList<string> headline, IReadOnlyList<JudgedTable> tables)
    {
        var html = new StringBuilder();
        foreach (var sentence in headline) html.Append("<p class=\"headline\">").Append(WebUtility.HtmlEncode(sentence)).Append("</p>");
        foreach (var table in tables)
            html.Append("<p class=\"caption\">").Append(WebUtility.HtmlEncode(table.Caption)).Append(" (hover an entry for its interval):</p>").Append(table.ToHtml());
        return html.ToString();
    }

    public const string Css = ".headline{font-size:19px;font-weight:bold;line-height:1.4;max-width:60em;margin:.4em 0}.caption{margin:.8em 0 0}" + JudgedTable.Css;

    /// <summary>Words wrapped at <paramref name="width"/> columns, lines after the first indented; each line ends with a newline.</summary>
    public static string Wrap(string text, int width, string indent)
    {
        var lines = new StringBuilder();
        var line = new StringBuilder();
        foreach (var word in text.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.Length > 0 && line.Length + 1 + word.Length > width)
            {
                lines.Append(line).Append('\n');
                line.Clear().Append(indent);
            }
            if (line.Length > 0 && line.ToString() != indent) line.Append(' ');
            line.Append(word);
        }
        if (line.Length > 0) lines.Append(line).Append('\n');
        return lines.ToString();
    }
}
