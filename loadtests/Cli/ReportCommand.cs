using System;
using System.Collections.Generic;
using System.IO;
using Comparator.Reports;

namespace Comparator.Cli;

/// <summary>report RESULTS.json [--format html|md|csv|json] [--out FILE]: renders a saved run again.</summary>
public static class ReportCommand
{
    public const string Usage = "report RESULTS.json [--format html|md|csv|json] [--out FILE]";

    public static int Run(IReadOnlyList<string> args)
    {
        if (args.Count == 0 || args[0].StartsWith("--", StringComparison.Ordinal)) throw new UsageException("report: needs a results.json file; " + Usage);
        var options = new ArgumentReader("report", System.Linq.Enumerable.ToList(System.Linq.Enumerable.Skip(args, 1)), new[] { "--format", "--out" }, Array.Empty<string>());
        var run = DiffCommand.Load(args[0]);
        var text = (options.Value("--format") ?? "html") switch
        {
            "html" => HtmlReport.Render(run, Charts.Build(run)),
            "md" => MarkdownReport.Render(run),
            "csv" => CsvReport.Render(run),
            "json" => ResultStore.Serialize(run),
            var other => throw new UsageException($"report: --format takes html, md, csv or json, not '{other}'"),
        };
        if (options.Value("--out") is string path) File.WriteAllText(path, text);
        else Console.Write(text);
        return ExitCodes.Success;
    }
}
