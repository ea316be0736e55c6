using System;
using System.Collections.Generic;
using System.IO;
using Comparator.Contracts;
using Comparator.Targets;

namespace Comparator.Cli;

/// <summary>
/// payloads [--write-standard]: lists the request bodies in payloads/; --write-standard
/// (re)writes the four standard files from the deterministic generator.
/// </summary>
public static class PayloadsCommand
{
    public const string Usage = "payloads [--write-standard]     list the request bodies in payloads/ (or rewrite the standard ones)";

    public static int Run(IReadOnlyList<string> args)
    {
        var options = new ArgumentReader("payloads", args, Array.Empty<string>(), new[] { "--write-standard" });
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
