using System.Xml.Linq;
using Comparator.Comparing;

namespace Comparator.Reports.Exporters;

/// <summary>
/// A diff as a JUnit XML report (Apache Ant's format, which Jenkins, Azure DevOps, GitLab and GitHub's test reporters read): one
/// test suite, one test case per cell and judged figure. A regression is a failure whose message is the ratio and its interval; a
/// figure the rule could not judge (one launch, not settled, no figure) is skipped with its reason; an improvement or an
/// equivalence passes. The document keeps the format's required parts (a properties element, system-out and system-err, a
/// timestamp without its zone, a host name) so that a strict reader takes it.
/// </summary>
public static class JUnitReport
{
    public static string Render(RunDiff diff, DateTimeOffset at, string suite = "comparator diff")
    {
        // A figure neither side has (instructions where no machine counted them) is no test case.
        var cases = diff.Cells.SelectMany(cell => cell.Changes.Where(c => c.Base is not null || c.New is not null)
                .Select(change => Case(cell.Label, change.Metric.Label, change, diff, cell.OneLaunch, cell.Verdict)))
            .Concat(diff.Models.SelectMany(m => m.Parts.Select(p => Case("size model " + m.Label, p.Part, p.Change, diff, false, RunDiff.Regression))))
            .ToList();
        return Document(suite, at, new[]
        {
            ("base", diff.BaseLabel), ("new", diff.NewLabel),
            ("threshold", (diff.Threshold * 100).ToString("0.##", CultureInfo.InvariantCulture) + "%"),
            ("confidence", (diff.Rule.Confidence * 100).ToString("0.##", CultureInfo.InvariantCulture) + "%"),
        }, cases, "judgments");
    }

    /// <summary>
    /// A history: one test case per gating series (a target's cell and the figure that gates it). A change for the worse after the
    /// newest baseline fails with its size and the runs on either side; a series too short to find a change is skipped with the reason.
    /// </summary>
    public static string Render(HistoryResult history, DateTimeOffset at, string suite = "comparator history")
    {
        var cases = history.Gating.Select(s =>
        {
            var element = new XElement("testcase", new XAttribute("name", s.Descriptor.Label), new XAttribute("classname", $"{s.Target} {s.CellLabel}"), new XAttribute("time", "0"));
            if (s.Judgment == HistorySeries.Regression)
            {
                var change = s.Changes.Last(c => c.Current && c.Worse);
                element.Add(new XElement("failure", new XAttribute("type", "regression"),
                    new XAttribute("message", $"{s.Descriptor.Label} changed for the worse: {HistoryReport.Step(change)}"),
                    $"t = {change.T.ToString("0.0", CultureInfo.InvariantCulture)}; {history.RuleText}"));
            }
            else if (s.Judgment == HistorySeries.CannotJudge) element.Add(new XElement("skipped", new XAttribute("message", s.WhyNot ?? s.Judgment)));
            return element;
        }).ToList();
        return Document(suite, at, new[] { ("method", history.RuleText) }, cases, "series judged");
    }

    private static string Document(string suite, DateTimeOffset at, IEnumerable<(string Name, string Value)> properties, IReadOnlyList<XElement> cases, string what)
    {
        var failures = cases.Count(c => c.Element("failure") is not null);
        var skipped = cases.Count(c => c.Element("skipped") is not null);
        var testsuite = new XElement("testsuite",
            new XAttribute("package", "comparator"), new XAttribute("id", 0), new XAttribute("name", suite),
            new XAttribute("timestamp", at.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss", CultureInfo.InvariantCulture)),
            new XAttribute("hostname", "localhost"), new XAttribute("tests", cases.Count), new XAttribute("failures", failures),
            new XAttribute("errors", 0), new XAttribute("skipped", skipped), new XAttribute("time", "0"),
            new XElement("properties", properties.Select(p => new XElement("property", new XAttribute("name", p.Name), new XAttribute("value", p.Value)))),
            cases,
            new XElement("system-out", $"{cases.Count} {what}: {failures} regression(s), {skipped} not judged"),
            new XElement("system-err", ""));
        var document = new XDocument(new XDeclaration("1.0", "utf-8", null), new XElement("testsuites", testsuite));
        return document.Declaration + "\n" + document.Root + "\n";
    }

    /// <summary>One cell's figure (or a size model's part): the class name is the cell, the case the figure, so a CI page groups a cell's figures.</summary>
    private static XElement Case(string where, string what, Statistics.Comparison change, RunDiff diff, bool oneLaunch, string verdict)
    {
        var element = new XElement("testcase", new XAttribute("name", what), new XAttribute("classname", where), new XAttribute("time", "0"));
        var ratio = change.Interval?.Describe();
        switch (diff.OutcomeOf(change))
        {
            case FigureOutcome.Regression:
                element.Add(new XElement("failure", new XAttribute("type", "regression"),
                    new XAttribute("message", $"{what} regressed: new/base {ratio ?? PointChange(change) + " (medians, no interval)"}"), verdict));
                break;
            case FigureOutcome.NotSettled or FigureOutcome.NotJudged:
                element.Add(new XElement("skipped", new XAttribute("message",
                    oneLaunch ? RunDiff.OneLaunch : change.WhyNot ?? (ratio is null ? RunDiff.NotJudged : $"not settled: {ratio}"))));
                break;
        }
        return element;
    }

    private static string PointChange(Statistics.Comparison change) => change.Change is double c ? Statistics.Format.Signed(c) : "no figure";
}
