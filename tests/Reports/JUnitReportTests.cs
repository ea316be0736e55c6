using System;
using System.IO;
using System.Linq;
using System.Xml;
using System.Xml.Linq;
using System.Xml.Schema;
using Comparator.Comparing;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Statistics;
using Xunit;
using Comparator.Reports.Exporters;

namespace Comparator.Tests;

/// <summary>
/// A diff as JUnit XML, on injected judgments: one regressed, one improved and one unjudged cell give a failure with the ratio and
/// its interval, a pass and a skip with the reason, in a document the JUnit format's schema (tests/Fixtures/junit-ant.xsd) accepts.
/// </summary>
public sealed class JUnitReportTests
{
    private static readonly LeadRule Rule = new(0.99, 0.03);

    private static Comparison Judged(double ratio, double low, double high, Outcome outcome)
    {
        var interval = new RatioInterval(ratio, low, high, 0.99, 5);
        return new Comparison(Metrics.RequestsPerSecond, 1000, 1000 * ratio, interval, null, new Judgment(outcome, interval, false), Rule);
    }

    private static RunDiff Diff() => new("base", "new", Rule, Paired: false, new[]
    {
        new CellDiff("kestrel time c=100 socket", new[] { Judged(0.80, 0.75, 0.86, Outcome.Lower) }, RunDiff.Regression),
        new CellDiff("kestrel json c=100 socket", new[] { Judged(1.20, 1.12, 1.29, Outcome.Higher) }, RunDiff.Improvement),
        new CellDiff("kestrel echo-post 4KB c=100 socket", new[] { new Comparison(Metrics.RequestsPerSecond, 1000, 950, null, "one launch on a side", null, Rule) },
            RunDiff.OneLaunch, OneLaunch: true),
    }, Array.Empty<string>(), Array.Empty<string>());

    [Fact]
    public void A_regression_fails_with_its_interval_an_improvement_passes_and_what_cannot_be_judged_is_skipped_with_its_reason()
    {
        var xml = XDocument.Parse(JUnitReport.Render(Diff(), new DateTimeOffset(2026, 11, 27, 18, 0, 0, TimeSpan.Zero)));
        var suite = xml.Root!.Element("testsuite")!;
        var cases = suite.Elements("testcase").ToList();

        Assert.Equal(("3", "1", "1", "0"), (suite.Attribute("tests")!.Value, suite.Attribute("failures")!.Value, suite.Attribute("skipped")!.Value, suite.Attribute("errors")!.Value));
        var failure = cases[0].Element("failure")!;
        Assert.Equal("kestrel time c=100 socket", cases[0].Attribute("classname")!.Value);
        Assert.Contains("0.80x (99% interval 0.75x–0.86x)", failure.Attribute("message")!.Value);
        Assert.Empty(cases[1].Elements());
        Assert.Equal(RunDiff.OneLaunch, cases[2].Element("skipped")!.Attribute("message")!.Value);
        Assert.Equal("2026-11-27T18:00:00", suite.Attribute("timestamp")!.Value);
    }

    [Fact]
    public void The_report_is_valid_against_the_junit_schema_that_ci_servers_read()
    {
        var schemas = new XmlSchemaSet();
        schemas.Add(null, Path.Combine(AppContext.BaseDirectory, "Fixtures", "junit-ant.xsd"));
        var errors = new System.Collections.Generic.List<string>();

        XDocument.Parse(JUnitReport.Render(Diff(), DateTimeOffset.UtcNow)).Validate(schemas, (_, e) => errors.Add(e.Message));

        Assert.Empty(errors);
        // And the schema is no formality: a test case without its class name is refused.
        var broken = XDocument.Parse(JUnitReport.Render(Diff(), DateTimeOffset.UtcNow));
        broken.Descendants("testcase").First().Attribute("classname")!.Remove();
        broken.Validate(schemas, (_, e) => errors.Add(e.Message));
        Assert.Single(errors);
    }
}
