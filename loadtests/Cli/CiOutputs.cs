using System.CommandLine;
using System.IO;
using Comparator.Comparing;
using Comparator.Errors;
using Comparator.Reports;
using Comparator.Reports.Exporters;

namespace Comparator.Cli;

/// <summary>
/// What a CI system reads of a judgment (diff, run --compare-to and history): `--junit FILE`, a JUnit XML report with one test case per cell and
/// figure, and `--summary FILE`, the diff's verdict and what moved beyond noise as Markdown, which GitHub's GITHUB_STEP_SUMMARY and
/// Azure DevOps' build summaries take as they are. Both are written whatever the exit code, so a failed gate still shows why.
/// </summary>
public static class CiOutputs
{
    public static IReadOnlyList<Option> Options() => new Option[]
    {
        CommandLine.One("--junit", "FILE.xml", "Also write the diff as JUnit XML (one test case per cell and figure: a regression fails with its ratio and interval, " +
            "a figure that cannot be judged is skipped with the reason), for Jenkins, Azure DevOps, GitLab and GitHub test reports."),
        CommandLine.One("--summary", "FILE.md", "Also write the verdict and what moved beyond noise as Markdown, for a CI job's page (GitHub: $GITHUB_STEP_SUMMARY)."),
    };

    /// <summary>The two files a reader asked for (none when it asked for none).</summary>
    public static void Write(ArgumentReader options, RunDiff diff, string markdown, int exitCode) =>
        Write(options, () => JUnitReport.Render(diff, DateTimeOffset.UtcNow), () => Summary(diff, markdown, exitCode));

    /// <summary>The two files of any judgment (a diff, a history), each rendered only when asked for.</summary>
    public static void Write(ArgumentReader options, Func<string> junit, Func<string> summary)
    {
        if (Optional(options, "--junit") is string junitFile) Save(junitFile, junit());
        if (Optional(options, "--summary") is string summaryFile) Save(summaryFile, summary());
    }

    /// <summary>The diff's first line (its verdict), what moved beyond noise, and what the exit code means.</summary>
    public static string Summary(RunDiff diff, string markdown, int exitCode) =>
        string.Join('\n', new[] { markdown.Split('\n')[0], "" }.Concat(DiffReport.Summary(diff)).Append("")
            .Append($"Exit {exitCode}: " + exitCode switch
            {
                ExitCodes.Success => "no regression, and every cell's lead figure settled.",
                ExitCodes.Failed => "a regression.",
                ExitCodes.CannotJudge => "too little evidence to pass the gate (a side with one launch, or a cell not settled).",
                _ => "see the diff.",
            })) + "\n";

    private static string? Optional(ArgumentReader options, string name) => options.Defines(name) ? options.Value(name) : null;

    private static void Save(string path, string text)
    {
        try
        {
            var directory = Path.GetDirectoryName(Path.GetFullPath(path));
            if (directory is not null) Directory.CreateDirectory(directory);
            File.WriteAllText(path, text);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new UsageException($"cannot write {path}: {e.Message}");
        }
    }
}
