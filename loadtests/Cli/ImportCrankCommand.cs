using System.CommandLine;
using System.IO;
using Comparator.Crank;
using Comparator.Errors;
using Comparator.Reports;
using Comparator.Reports.Exporters;

namespace Comparator.Cli;

/// <summary>
/// import-crank CRANK.json [RUN] [--job TARGET=JOB] [--out DIR]: a run the comparator measured as crank's
/// load job, with the server figures crank's agents measured of the target jobs, written as a new
/// run directory (results.json, reports, charts) that every other command reads like a local run.
/// The run comes from the crank file itself (what `run --crank` printed), or from RUN where given.
/// </summary>
public static class ImportCrankCommand
{
    public static Command Define()
    {
        var import = new Command("import-crank",
            "Add what crank's agents measured of the service processes (CPU, working set) to a run the comparator measured as crank's load job, " +
            "decide its flags and verdicts again with them, and write it as a new run directory.")
        {
            new Argument<string[]>("FILES") { Description = "CRANK.json (crank's --json output), and RUN (the comparator's run directory or its results.json) where the crank file does not hold the run (`run --crank` puts it there).", Arity = ArgumentArity.ZeroOrMore },
            CommandLine.Many("--job", "TARGET=JOB", "The crank job that served a target, where its name is not the target's."),
            CommandLine.One("--out", "DIR", "Where the new run directory is made. Default: results."),
        };
        import.SetAction(parse => Run(new ArgumentReader(parse)));
        return import;
    }

    public const string Usage = "import-crank CRANK.json [RUN] [--job TARGET=JOB] [--out DIR]";

    public static int Run(ArgumentReader options)
    {
        var files = options.Arguments("FILES");
        if (files.Count is < 1 or > 2) throw new UsageException($"import-crank: needs crank's result file, and the comparator's run where that file does not hold it: {Usage}");
        var jobs = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var spec in options.Values("--job"))
        {
            var eq = spec.IndexOf('=');
            if (eq <= 0 || eq == spec.Length - 1) throw new UsageException($"import-crank: --job takes TARGET=JOB, not '{spec}'");
            jobs[spec[..eq]] = spec[(eq + 1)..];
        }

        CrankResultFile crank;
        try { crank = CrankResultFile.Load(files[0]); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
        { throw new IncomparableException($"import-crank: cannot read {files[0]}: {e.Message}"); }
        Results.RunResult run;
        if (files.Count == 2) run = DiffCommand.Load(files[1]);
        else
        {
            try
            {
                run = CrankStatistics.ReadRun(crank, out _) ?? throw new IncomparableException(
                    $"import-crank: {files[0]} holds no comparator run (no job printed {CrankStatistics.ResultsMeasurement}): run the load job with `run --crank`, or give the run directory: {Usage}");
            }
            catch (InvalidDataException e) { throw new IncomparableException("import-crank: " + e.Message); }
        }

        Results.RunResult imported;
        try { imported = CrankImport.Apply(run, crank, jobs); }
        catch (InvalidDataException e) { throw new IncomparableException("import-crank: " + e.Message); }

        var directory = RunDirectory.Write(imported, options.Value("--out") ?? "results");
        Console.WriteLine($"server figures from crank: {imported.Spec.Crank!.Placement}");
        foreach (var j in imported.Spec.Crank.Jobs.Where(j => j.Target is not null))
            Console.WriteLine($"  {j.Target}: job '{j.Job}', {j.CpuSamples} CPU samples" + (j.Cores is int n ? $", agent with {n} logical cores" : ""));
        Console.WriteLine($"wrote {directory} (report.html, report.md, summary.md, results.json)");
        return ExitCodes.Success;
    }
}
