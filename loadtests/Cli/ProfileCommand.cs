using System.CommandLine;
using System.IO;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Profiling;
using Comparator.Reports;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;
using Comparator.Reports.Exporters;
using Comparator.Reports.Sections;

namespace Comparator.Cli;

/// <summary>
/// profile: where each target's work goes, without a measured run: every target started with its runtime's JIT map on, verified,
/// warmed and sampled under each closed-loop cell's load (<see cref="ProfilePass"/>); profile.html, profile.md and profile.json are
/// written into a new directory, with each cell's flame graphs and folded stacks under profiles/. `run --profile` takes the same
/// pass after its measured windows. Where sampling is not possible, one line says why and the command exits 0.
/// </summary>
public static class ProfileCommand
{
    /// <summary>run's options that shape a judgment or a measured window, which a profile has none of.</summary>
    private static readonly string[] NotTaken =
    {
        "--rate", "--duration", "--launches", "--budget", "--max-launches", "--repeat", "--max-repeat", "--precision", "--confidence", "--min-effect",
        "--equivalence", "--server-cores", "--duet", "--compare-to", "--threshold", "--crank", "--profile",
    };

    /// <summary>The options of a profile pass, taken by profile and by run (with --profile).</summary>
    public static IReadOnlyList<Option> PassOptions() => new Option[]
    {
        CommandLine.One("--profile-duration", "DURATION", $"How long each target is sampled under each cell's load. Default: {ProfileSettings.DefaultDuration.TotalSeconds:0}s."),
        CommandLine.One("--layers", "FILE", $"Your own layers (the shape of {Measuring.StackLayers.FileName}: a layer's name, its types' namespace prefixes, its files), " +
            "tried before the project's: put your service's namespaces in \"service\" or a layer of your own."),
        CommandLine.One("--perf", "FILE", "The perf program to sample with. Default: perf on PATH."),
    };

    public static Command Define()
    {
        var profile = new Command("profile",
            "Where each target's work goes: every target sampled (Linux perf, its runtime's JIT map on) under each closed-loop cell's load, the samples " +
            "folded into layers (host and listener, framework pipeline, serialization, the service, the project's glue, runtime, kernel) and scaled " +
            "into the cost of a request; writes profile.html, profile.md, profile.json and a flame graph per target and cell. No judged figure.");
        foreach (var option in RunCommand.Options().Where(o => !NotTaken.Contains(o.Name)).Concat(PassOptions())) profile.Options.Add(option);
        profile.SetAction(parse => RunAsync(parse));
        return profile;
    }

    public static async Task<int> RunAsync(ParseResult parse)
    {
        var layout = BuildLayout.Discover();
        var reader = new ArgumentReader(parse);
        var options = RunOptionsParser.Parse(reader, layout);
        var settings = RunOptionsParser.Profile(reader, layout);
        var targets = (await TargetCheck.WithTlsAsync(options.Targets)).OrUsage();
        using var stop = new StopSignals("profile", "stopping; what was sampled will be written");
        var drivers = DriverCatalog.Create(options.Cells.Drivers, options.Cells.Pin?.DriverCpus);
        options.Cells.Pin?.PinThisProcess();
        var directory = OutputFiles.CreateNewDirectory(options.Output.OutDirectory, "profile-", DateTimeOffset.UtcNow);
        var profile = await ProfilePass.RunAsync(targets, options.Cells, options.Window, settings, drivers, layout, directory, new LineProgress(), stop.Token);
        WriteInto(profile, directory);
        Console.WriteLine();
        Print(profile);
        Console.WriteLine($"profile: {directory}");
        return Errors.ExitCodes.Success;
    }

    /// <summary>profile.json, profile.md and profile.html of a profile alone.</summary>
    public static void WriteInto(ProfileResult profile, string directory)
    {
        OutputFiles.WriteAtomically(Path.Combine(directory, "profile.json"), ResultStore.Serialize(profile));
        OutputFiles.WriteAtomically(Path.Combine(directory, "profile.md"), ProfileReport.Markdown(profile));
        OutputFiles.WriteAtomically(Path.Combine(directory, "profile.html"), ProfileReport.Html(profile));
    }

    /// <summary>The terminal's part: each cell's difference in words, or the one line why nothing was sampled.</summary>
    public static void Print(ProfileResult profile)
    {
        if (profile.Unavailable is string why)
        {
            Console.WriteLine(why);
            return;
        }
        foreach (var section in ProfileReport.Sections(profile).Skip(1))
        {
            Console.WriteLine(section.Title);
            if (section.Table is TextTable table) Console.Write(table.ToText());
            foreach (var line in section.Lines.Where(l => !l.Contains("hottest frames", StringComparison.Ordinal))) Console.WriteLine("  " + line);
            Console.WriteLine();
        }
    }
}
