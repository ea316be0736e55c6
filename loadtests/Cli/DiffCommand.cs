using System.CommandLine;
using System.IO;
using Comparator.Comparing;
using Comparator.Errors;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Reports.Exporters;

namespace Comparator.Cli;

/// <summary>
/// diff BASE.json NEW.json [--threshold 5%] | diff RUN.json --from A --to B: cell-by-cell change
/// in req/s, p90, server CPU per request and bytes per request, as Markdown, judged by the runs' rule.
/// Exit 0 no regression and every cell's deciding figure settled, 1 regression, 2 the files cannot be compared,
/// 3 too little evidence to judge (a gate never passes what it cannot judge).
/// </summary>
public static class DiffCommand
{
    public const string ExitCodesText = "Exit 0: no regression, and every cell's req/s settled (improved, or equivalent within the margin); " +
        "1: a regression (with --threshold and one launch on a side: a median beyond it the bad way); 2: the files cannot be compared; " +
        "3: too little evidence: a side has fewer than two launches (no interval), or some cell's req/s is not settled.";

    public static Command Define()
    {
        var diff = new Command("diff",
            "Cell-by-cell change in req/s, p90, server CPU and bytes per request, as Markdown: between two runs (diff BASE.json NEW.json) " +
            "or between two targets of one run (diff RUN.json --from A --to B), each judged by the runs' rule. " + ExitCodesText)
        {
            new Argument<string[]>("FILES") { Description = "BASE.json NEW.json, or one RUN.json with --from and --to.", Arity = ArgumentArity.ZeroOrMore },
            CommandLine.One("--threshold", "PERCENT", "The change that counts as a regression: the interval must lie wholly beyond it (5% or 5; a bare number below 1 is refused as ambiguous: 0.5%). " +
                "Default: the runs' recorded minimum effect (3% unless run with --min-effect). Given explicitly, a side with one launch is gated on its medians instead, and the report says so."),
            CommandLine.One("--confidence", "PERCENT", "Confidence of each figure's interval (above 50 to 99.99). Default: 99%."),
            CommandLine.One("--from", "TARGET", "With one results file: the target compared from."),
            CommandLine.One("--to", "TARGET", "With one results file: the target compared to."),
            CommandLine.One("--out", "FILE.md", "Also write the Markdown to this file."),
        };
        foreach (var option in CiOutputs.Options()) diff.Options.Add(option);
        diff.SetAction(parse => Run(new ArgumentReader(parse)));
        return diff;
    }

    public static int Run(ArgumentReader options)
    {
        var files = options.Arguments("FILES");
        var explicitThreshold = options.Value("--threshold") is string t ? OptionValues.Percent("diff", "--threshold", t, 0, 100, example: "5%") : (double?)null;
        var confidence = options.Value("--confidence") is string c
            ? OptionValues.Percent("diff", "--confidence", c, 50, 99.99)
            : Statistics.LeadRule.DefaultConfidence;

        RunDiff diff;
        if (options.Value("--from") is string from)
        {
            var to = options.Value("--to") ?? throw new UsageException("diff: --from needs --to");
            if (files.Count != 1) throw new UsageException("diff: --from/--to compare two targets of one results file: diff RUN.json --from A --to B");
            var run = Load(files[0]);
            foreach (var name in new[] { from, to })
                if (run.Cells.All(c => c.Key.Target != name))
                    throw new IncomparableException($"diff: {files[0]} has no cells of target '{name}'");
            diff = RunDiff.BetweenTargets(run, from, to, explicitThreshold ?? PairVerdicts.RuleOf(run.Spec).MinEffect, confidence, explicitThreshold is not null);
        }
        else
        {
            if (files.Count != 2) throw new UsageException("diff: needs BASE.json NEW.json, or RUN.json --from A --to B");
            if (CapacityDiffOf(files, explicitThreshold, confidence) is int exit) return exit;
            var (baseRun, newRun) = (Load(files[0]), Load(files[1]));
            diff = RunDiff.BetweenRuns(baseRun, newRun, explicitThreshold ?? RecordedMinEffect(baseRun, newRun), "base", "new", confidence, explicitThreshold is not null);
        }
        if (diff.Cells.Count == 0) throw new IncomparableException("diff: no measured cell in common");

        var markdown = DiffReport.Render(diff);
        if (options.Value("--out") is string outFile)
        {
            File.WriteAllText(outFile, markdown);
            // The short summary alone (verdict line and what moved beyond noise), to paste where the table would not fit.
            var summary = string.Join('\n', new[] { markdown.Split('\n')[0], "" }.Concat(DiffReport.Summary(diff))) + "\n";
            File.WriteAllText(Path.Combine(Path.GetDirectoryName(Path.GetFullPath(outFile))!, Path.GetFileNameWithoutExtension(outFile) + ".summary.md"), summary);
        }
        Console.Write(markdown);
        CiOutputs.Write(options, diff, markdown, ExitCode(diff));
        return ExitCode(diff);
    }

    /// <summary>Two capacity runs (capacity.json or their directories): their capacities compared; null when they are not both capacity runs.</summary>
    private static int? CapacityDiffOf(IReadOnlyList<string> files, double? threshold, double confidence)
    {
        CapacityResult? a, b;
        try { (a, b) = (CapacityReport.TryLoad(files[0]), CapacityReport.TryLoad(files[1])); }
        catch (InvalidDataException e) { throw new IncomparableException(e.Message); }
        if (a is null && b is null) return null;
        if (a is null || b is null) throw new IncomparableException("diff: a capacity run (capacity.json) compares with another capacity run only");
        CapacityDiff diff;
        try { diff = CapacityDiff.Between(a, b, threshold ?? Math.Max((a.Spec.MinEffectPercent ?? 3) / 100, (b.Spec.MinEffectPercent ?? 3) / 100), confidence); }
        catch (ArgumentException e) { throw new IncomparableException("diff: " + e.Message); }
        if (diff.Rows.Count == 0) throw new IncomparableException("diff: no target and cell in common");
        Console.Write(CapacityReport.Diff(diff));
        return diff.HasRegression ? ExitCodes.Failed : diff.CannotJudge ? ExitCodes.CannotJudge : ExitCodes.Success;
    }

    /// <summary>1 on a regression; 3 when the diff cannot judge (and did not gate on medians) or some req/s is not settled; else 0.</summary>
    public static int ExitCode(RunDiff diff) =>
        diff.HasRegression ? ExitCodes.Failed
        : diff.PointEstimates ? ExitCodes.Success
        : diff.CannotJudge || diff.Unsettled.Count > 0 ? ExitCodes.CannotJudge
        : ExitCodes.Success;

    /// <summary>The minimum effect both runs were judged by; the larger when they differ, so a diff never claims more than either run did.</summary>
    public static double RecordedMinEffect(RunResult a, RunResult b) =>
        Math.Max(PairVerdicts.RuleOf(a.Spec).MinEffect, PairVerdicts.RuleOf(b.Spec).MinEffect);

    /// <summary>A results.json, or a run directory holding one (as `run` prints it).</summary>
    public static RunResult Load(string path)
    {
        if (Directory.Exists(path))
        {
            var inside = Path.Combine(path, "results.json");
            if (!File.Exists(inside))
                throw new IncomparableException($"cannot read {path}: a directory without results.json (give a run directory or its results.json" +
                                                (File.Exists(Path.Combine(path, RunJournal.FileName)) ? $"; `report {path}` rebuilds it from its journal)" : ")"));
            path = inside;
        }
        string json;
        try { json = File.ReadAllText(path); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        { throw new IncomparableException($"cannot read {path}: {e.Message}"); }
        try { return SavedRun.Read(json, path); }
        catch (InvalidDataException e) { throw new IncomparableException(e.Message); }
    }
}

/// <summary>Two results cannot be compared (unreadable, another schema, nothing in common): exit 2 with one line.</summary>
public sealed class IncomparableException(string message) : ComparatorException(ExitCodes.Incomparable, message);
