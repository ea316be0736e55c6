using System.CommandLine;
using Comparator.Errors;
using Comparator.Targets;

namespace Comparator.Cli;

/// <summary>targets: what the comparator knows, and why a target cannot run here.</summary>
public static class TargetsCommand
{
    public static Command Define()
    {
        var targets = new Command("targets", "List every target, its stack, runtime and server, whether it runs here, and run's default pair.");
        targets.SetAction(_ => Run());
        return targets;
    }

    public static int Run()
    {
        foreach (var t in TargetCatalog.All)
        {
            Console.WriteLine($"{t.Name,-18} {t.Describe()}");
            if (!t.IsAvailable) Console.WriteLine($"{"",-18} NOT AVAILABLE: {t.UnavailableReason}");
        }
        Console.WriteLine();
        if (TargetCatalog.Pair is DefaultPair pair)
        {
            Console.WriteLine($"default pair of run: {pair.Wcf.Name} against {pair.Baseline.Name} (baseline of the ratios): {pair.Why}");
            var better = TargetCatalog.MissingFromBetterPairs().Select(t => t.Name).ToList();
            if (better.Count > 0) Console.WriteLine($"  not the named twins because {string.Join(" and ", better)} cannot run here (see above)");
        }
        else
        {
            Console.WriteLine("default of run: every target above that runs here (no WCF/Web API pair can run on this machine)");
        }
        Console.WriteLine("run --targets all measures every target that runs here");
        return ExitCodes.Success;
    }
}
