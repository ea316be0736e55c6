using System;
using System.Collections.Generic;
using Comparator.Targets;

namespace Comparator.Cli;

/// <summary>targets: what the comparator knows, and why a target cannot run here.</summary>
public static class TargetsCommand
{
    public static int Run(IReadOnlyList<string> args)
    {
        _ = new ArgumentReader("targets", args, Array.Empty<string>(), Array.Empty<string>());
        foreach (var t in TargetCatalog.All)
        {
            Console.WriteLine($"{t.Name,-15} {t.Describe()}");
            if (!t.IsAvailable) Console.WriteLine($"{"",-15} NOT AVAILABLE: {t.UnavailableReason}");
        }
        return ExitCodes.Success;
    }
}
