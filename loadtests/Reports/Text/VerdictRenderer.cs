using System.Net;
using System.Text;

namespace Comparator.Reports.Text;

/// <summary>The verdict's lines (<see cref="Verdict.Build"/>) written three ways: Markdown for report.md and summary.md, text for the terminal, HTML for report.html.</summary>
public static class VerdictRenderer
{
    public static string ToMarkdown(IReadOnlyList<VerdictLine> lines)
    {
        var md = new StringBuilder();
        foreach (var line in lines)
        {
            switch (line.Kind)
            {
                case VerdictLineKind.Pair:
                    // A list ends before the next pair's heading (several pairs, or several allotments of cores).
                    if (md.Length > 0 && !md.ToString().EndsWith(Environment.NewLine + Environment.NewLine, StringComparison.Ordinal)) md.AppendLine();
                    md.AppendLine($"## Verdict: {line.Text}").AppendLine();
                    break;
                case VerdictLineKind.Note: md.AppendLine(line.Text).AppendLine(); break;
                case VerdictLineKind.Table: md.Append(line.Table!.ToMarkdown()).AppendLine(); break;
                case VerdictLineKind.Endpoint: md.AppendLine($"- **{Label(line.Text)}**{line.Text[Label(line.Text).Length..]}"); break;
                case VerdictLineKind.Size: md.AppendLine($"  - {line.Text}"); break;
                case VerdictLineKind.CautionHeading: md.AppendLine().AppendLine($"**{line.Text}**").AppendLine(); break;
                default: md.AppendLine($"- {line.Text}"); break;
            }
        }
        return md.ToString();
    }

    public static string ToText(IReadOnlyList<VerdictLine> lines)
    {
        var text = new StringBuilder();
        foreach (var line in lines)
        {
            if (line.Kind == VerdictLineKind.Table)
            {
                foreach (var row in line.Table!.ToText().TrimEnd().Split('\n')) text.Append("  ").AppendLine(row.TrimEnd('\r'));
                continue;
            }
            text.AppendLine(line.Kind switch
            {
                VerdictLineKind.Pair => "verdict: " + line.Text,
                VerdictLineKind.CautionHeading => line.Text.ToLowerInvariant() + ":",
                VerdictLineKind.Endpoint => "  " + line.Text,
                VerdictLineKind.Size => "    " + line.Text,
                VerdictLineKind.Caution => "  - " + line.Text,
                _ => "  " + line.Text,
            });
        }
        return text.ToString();
    }

    /// <summary>
    /// The verdict as HTML: each pair's heading, table and cell lines open; the method (the rule, the cores, the noise floor, the family
    /// of judgments) and the cautions (the flags' meanings, what was not measured) folded into "How this was judged" blocks a click away,
    /// and each cell's flags a link to them.
    /// </summary>
    public static string ToHtml(IReadOnlyList<VerdictLine> lines)
    {
        string E(string s) => WebUtility.HtmlEncode(s);
        var html = new StringBuilder("<section id=\"verdict\">");
        var inList = false;
        var inSizes = false;
        var inMethod = false;
        var inCautions = false;
        var cautions = 0;
        void CloseSizes() { if (inSizes) { html.Append("</ul></li>"); inSizes = false; } }
        void CloseList() { CloseSizes(); if (inList) { html.Append("</ul>"); inList = false; } }
        void CloseMethod() { if (inMethod) { html.Append("</details>"); inMethod = false; } }
        void Close() { CloseList(); CloseMethod(); if (inCautions) { html.Append("</details>"); inCautions = false; } }
        for (var i = 0; i < lines.Count; i++)
        {
            var line = lines[i];
            switch (line.Kind)
            {
                case VerdictLineKind.Pair: Close(); html.Append("<h2>Verdict: ").Append(E(line.Text)).Append("</h2>"); break;
                case VerdictLineKind.Note:
                    CloseList();
                    if (!inMethod) { html.Append("<details class=\"how\"><summary>How this was judged</summary>"); inMethod = true; }
                    html.Append("<p class=\"note\">").Append(E(line.Text)).Append("</p>");
                    break;
                case VerdictLineKind.CautionHeading:
                    Close();
                    html.Append("<details class=\"how\" id=\"cautions").Append(cautions++ == 0 ? "" : "-" + cautions).Append("\"><summary>").Append(E(line.Text)).Append("</summary>");
                    inCautions = true;
                    break;
                case VerdictLineKind.Table: CloseList(); CloseMethod(); html.Append(line.Table!.ToHtml()); break;
                case VerdictLineKind.Size:
                    if (!inSizes) { html.Append("<ul>"); inSizes = true; }
                    html.Append("<li>").Append(Flags(E(line.Text))).Append("</li>");
                    break;
                default:
                    CloseSizes();
                    if (line.Kind != VerdictLineKind.Caution) CloseMethod();
                    if (!inList) { html.Append("<ul>"); inList = true; }
                    var hasSizes = i + 1 < lines.Count && lines[i + 1].Kind == VerdictLineKind.Size;
                    html.Append("<li>").Append(line.Kind == VerdictLineKind.Endpoint ? Flags(Labelled(line.Text)) : E(line.Text));
                    if (!hasSizes) html.Append("</li>");
                    break;
            }
        }
        Close();
        return html.Append("</section>").ToString();
    }

    /// <summary>
    /// A cell's flags ("[noisy: both; machine-bound: wcf-classic]") as words, no code in brackets: "(moved from launch to launch: both;
    /// shared the CPU with the load generator: wcf-classic)", a link to what they mean among the cautions.
    /// </summary>
    private static string Flags(string html) =>
        System.Text.RegularExpressions.Regex.Replace(html, @" \[([^\]]+)\]", m =>
            " (<a class=\"flags\" href=\"#cautions\" title=\"what these flags mean\">" +
            string.Join("; ", m.Groups[1].Value.Split("; ").Select(f => f.IndexOf(": ", StringComparison.Ordinal) is var i and > 0
                ? WebUtility.HtmlEncode(Statistics.CellFlags.Words(WebUtility.HtmlDecode(f[..i]))) + f[i..] : f)) + "</a>)");

    /// <summary>The CSS of the verdict block in report.html.</summary>
    public const string Css =
        "#verdict{border:2px solid #2a6;background:#f4fbf6;padding:.2em 1em .6em;margin:0 0 1.5em;font-size:14px}" +
        "#verdict h2{margin:.4em 0 .2em}#verdict h3{margin:.6em 0 .2em}#verdict p.note{color:#555;margin:.2em 0}#verdict ul{margin:.2em 0;padding-left:1.4em}" +
        "#verdict details.how{margin:.3em 0}#verdict details.how>summary{cursor:pointer;color:#2a6;font-weight:bold}a.flags{color:#8a5a00}";

    /// <summary>A line as HTML, what it starts with before its first ": " in bold: "<b>echo-post 4KB</b>: ...", "<b>machine</b>: ...".</summary>
    internal static string Labelled(string text) => Label(text) is { Length: > 0 } label
        ? "<b>" + WebUtility.HtmlEncode(label) + "</b>" + WebUtility.HtmlEncode(text[label.Length..])
        : WebUtility.HtmlEncode(text);

    /// <summary>The endpoint (and size) an endpoint line starts with, before its first ": ".</summary>
    private static string Label(string text) => text.IndexOf(": ", StringComparison.Ordinal) is var i and > 0 ? text[..i] : "";
}
