using System;
using System.Collections.Generic;
using System.CommandLine;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Targets;
using Comparator.Verification;

namespace Comparator.Cli;

/// <summary>
/// verify [--targets a,b | --target NAME=URL]: starts the targets (or uses the running one),
/// checks every endpoint, prints one row per check. Exit 0 when all pass, 1 otherwise.
/// </summary>
public static class VerifyCommand
{
    public static Command Define()
    {
        var verify = new Command("verify",
            "Start the targets (or use running services), check every endpoint's answer and framing, and print one row per check. " +
            "Exit 0 when all pass, 1 otherwise.")
        {
            CommandLine.Many("--targets", "all|NAME", "Targets to start and verify, by name. Default: all that run here (none when only --target is given)."),
            CommandLine.Many("--target", "NAME=URL", "A service already running at http://HOST:PORT, verified as it is, after the --targets ones."),
        };
        verify.SetAction(parse => RunAsync(new ArgumentReader(parse)));
        return verify;
    }

    public static async Task<int> RunAsync(ArgumentReader options)
    {
        var checks = new List<Check>();
        var failures = new List<string>();
        var external = options.Values("--target").Select(ExternalTarget.Parse).ToList();

        if (options.Value("--targets") is not null || external.Count == 0)
        {
            var targets = TargetCatalog.Resolve(options.Value("--targets"), out var error);
            if (error.Length > 0) throw new UsageException("verify: " + error);
            if (options.Value("--targets") is null)
                foreach (var missing in TargetCatalog.All.Where(t => !t.IsAvailable))
                    failures.Add($"{missing.Name}: not verified: {missing.UnavailableReason}");
            var launcher = new TargetLauncher(BuildLayout.Discover());
            foreach (var target in targets)
            {
                try
                {
                    await using var running = await launcher.StartAsync(target, ServiceSwitches.Default);
                    checks.AddRange(await EndpointVerifier.VerifyAsync(target.Name, running.BaseUrl));
                }
                catch (LaunchException e)
                {
                    failures.Add(e.Message);
                }
            }
        }
        foreach (var (name, url) in external)
            checks.AddRange(await EndpointVerifier.VerifyAsync(name, url));

        Print(checks);
        foreach (var f in failures) Console.WriteLine("note: " + f);
        var passed = checks.Count > 0 && checks.All(c => c.Passed) && failures.All(f => f.Contains("not verified"));
        Console.WriteLine(passed ? $"verify: all {checks.Count} checks passed" : $"verify: {checks.Count(c => !c.Passed)} of {checks.Count} checks failed");
        return passed ? ExitCodes.Success : ExitCodes.Failed;
    }

    private static void Print(IReadOnlyList<Check> checks)
    {
        Console.WriteLine($"{"target",-15} {"endpoint",-10} {"result",-6} {"status",6} {"framing",-15} {"resp bytes",10}  detail");
        foreach (var c in checks)
            Console.WriteLine($"{c.Target,-15} {c.Endpoint,-10} {(c.Passed ? "pass" : "FAIL"),-6} {c.Status?.ToString() ?? "-",6} {c.Framing,-15} {c.ResponseWireBytes?.ToString() ?? "-",10}  {c.Detail}");
    }
}
