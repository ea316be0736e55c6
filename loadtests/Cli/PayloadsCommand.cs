using System.CommandLine;
using System.IO;
using Comparator.Contracts;
using Comparator.Errors;
using Comparator.Targets;

namespace Comparator.Cli;

/// <summary>
/// payloads [--write-standard]: lists the request bodies in payloads/; --write-standard
/// (re)writes the four standard files from the deterministic generator.
/// </summary>
public static class PayloadsCommand
{
    public static Command Define()
    {
        var payloads = new Command("payloads", "List the request bodies in payloads/.")
        {
            CommandLine.Flag("--write-standard", "First (re)write the four standard files from the deterministic generator."),
        };
        payloads.SetAction(parse => Run(new ArgumentReader(parse)));
        return payloads;
    }

    public static int Run(ArgumentReader options)
    {
        var directory = BuildLayout.Discover().PayloadDirectory;
        if (options.Flag("--write-standard"))
        {
            Directory.CreateDirectory(directory);
            foreach (var size in PayloadCatalogue.StandardSizes)
                File.WriteAllBytes(Path.Combine(directory, PayloadCatalogue.FileName(size)), PayloadCatalogue.Generate(size));
        }
        foreach (var file in PayloadCatalogue.ListFiles(directory))
            Console.WriteLine($"{file.Name,-24} {file.Length,10} bytes  ({PayloadCatalogue.SizeLabel(file.Length)})");
        return ExitCodes.Success;
    }
}
