using System.CommandLine;
using System.IO;
using Comparator.Errors;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Reports.Exporters;
using Comparator.Reports.Plots;

namespace Comparator.Cli;

/// <summary>
/// report RESULTS.json [--format FORMAT] [--out FILE]: renders a saved run again; a run directory
/// without results.json whose journal.jsonl survived (the run was killed) is rebuilt from the journal first.
/// </summary>
public static class ReportCommand
{
    public static Command Define()
    {
        var report = new Command("report", "Render a saved run (results.json) again, as any of its outputs: HTML, Markdown, CSV, JSON, the summary or the terminal's tables.")
        {
            new Argument<string?>("RESULTS.json") { Description = "A results.json a run wrote, or its run directory. A run directory with journal.jsonl and no results.json " +
                "(the run was killed) is rebuilt from the journal, marked partial, and its results.json and reports are written there.", Arity = ArgumentArity.ZeroOrOne },
            CommandLine.One("--format", string.Join("|", Exporters.All.Select(e => e.Name)), "The output format: a run directory's file, the charts' list, or the terminal's tables. Default: html."),
            CommandLine.One("--out", "FILE", "Write to this file instead of standard output."),
            CommandLine.One("--charts", "DIR", "Also write every chart into this directory, as SVG and PNG (as a run directory's charts/)."),
        };
        report.SetAction(parse => Run(new ArgumentReader(parse)));
        return report;
    }

    public static int Run(ArgumentReader options)
    {
        var file = options.Arguments("RESULTS.json").FirstOrDefault()
            ?? throw new UsageException("report: needs a results.json file: report RESULTS.json [--format html|md|csv|json|summary|console|charts] [--out FILE]");
        if (CapacityReportFile(file, options) is int done) return done;
        // A run directory whose run died (a journal, no results.json) is rebuilt first, its files written there.
        var run = JournaledRun.RebuildIfDied(file) ?? DiffCommand.Load(file);
        var format = options.Value("--format") ?? "html";
        var exporter = Exporters.Named(format)
            ?? throw new UsageException($"report: --format takes {string.Join(", ", Exporters.All.Select(e => e.Name))}, not '{format}'");
        var report = new RunReport(run);
        var text = exporter.Render(report);
        if (options.Value("--charts") is string chartDirectory) ChartFiles.WriteInto(report.Charts, chartDirectory);
        if (options.Value("--out") is string path) File.WriteAllText(path, text);
        else Console.Write(text);
        return ExitCodes.Success;
    }

    /// <summary>A capacity run (capacity.json, or its directory) rendered again; null when the file is not one.</summary>
    private static int? CapacityReportFile(string file, ArgumentReader options)
    {
        CapacityResult? capacity;
        try { capacity = CapacityReport.TryLoad(file); }
        catch (InvalidDataException e) { throw new IncomparableException(e.Message); }
        if (capacity is null) return null;
        var format = options.Value("--format") ?? "html";
        var text = CapacityReport.Render(capacity, format) ?? throw new UsageException($"report: a capacity run renders as html, md, json or console, not '{format}'");
        if (options.Value("--charts") is string chartDirectory) ChartFiles.WriteInto(CapacityChart.Build(capacity).ToList(), chartDirectory);
        if (options.Value("--out") is string path) File.WriteAllText(path, text);
        else Console.Write(text);
        return ExitCodes.Success;
    }
}
