using System.CommandLine;
using System.Threading.Tasks;
using Comparator.Errors;
using Comparator.Results;
using Comparator.Scenarios;
using Comparator.Targets;
using Comparator.Running;
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
            CommandLine.Many("--target", "NAME=URL|NAME=cmd:COMMAND", "A service already running at http://HOST:PORT or https://HOST:PORT, verified as it is, after the --targets ones; " +
                "or one started by its command, as run starts it ('old=cmd:dotnet out/Old.dll --port {port}')."),
            CommandLine.One("--targets-file", "FILE", "Services started by command, as run's --targets-file (docs/migration.md)."),
            CommandLine.Flag("--insecure", "Accept an https --target's certificate that does not validate (self-signed); without it such a target is refused."),
            CommandLine.One("--scenario", "FILE", "A scenario file (scenarios/*.json): ask every operation once of every target and check its answer by the file's rules, instead of the contract's endpoints."),
        };
        verify.SetAction(parse => RunAsync(new ArgumentReader(parse)));
        return verify;
    }

    public static async Task<int> RunAsync(ArgumentReader options)
    {
        if (options.Value("--scenario") is string scenarioFile) return await ScenarioAsync(options, scenarioFile);
        var checks = new List<Check>();
        var failures = new List<string>();
        var external = ExternalTarget.FromOptions(options);
        var commands = CommandTargetSpec.FromOptions(options);
        var insecure = options.Flag("--insecure");
        var tls = (await TargetCheck.TlsOfAsync(external, insecure)).OrUsage();

        var launcher = new TargetLauncher(BuildLayout.Discover());
        if (options.Value("--targets") is not null || external.Count + commands.Count == 0)
        {
            BuildLayout.Discover().RequireCheckout("verify");
            var targets = TargetCatalog.Resolve(options.Value("--targets"), out var error);
            if (error.Length > 0) throw new UsageException("verify: " + error);
            if (options.Value("--targets") is null)
                foreach (var missing in TargetCatalog.All.Where(t => !t.IsAvailable))
                    failures.Add($"{missing.Name}: not verified: {missing.UnavailableReason}");
            foreach (var target in targets)
            {
                await using var started = await TargetCheck.StartAndVerifyAsync(launcher, target.Name, target, null, ServiceSwitches.Default);
                checks.AddRange(started.Checks);
                if (started.LaunchError is string launchError) failures.Add(launchError);
            }
        }
        foreach (var target in commands)
        {
            await using var started = await TargetCheck.StartAndVerifyAsync(launcher, target.Name, target, null, ServiceSwitches.Default);
            if (started.LaunchError is string launchError) throw new CommandTargetException(launchError);
            checks.AddRange(started.Checks);
        }
        foreach (var (name, url) in external)
            checks.AddRange((await TargetCheck.StartAndVerifyAsync(null, name, null, url, ServiceSwitches.Default, insecure: insecure)).Checks);

        Print(checks);
        foreach (var (name, description) in tls) Console.WriteLine($"tls: {name}: {description}");
        foreach (var f in failures) Console.WriteLine("note: " + f);
        var passed = checks.Count > 0 && checks.All(c => c.Passed) && failures.All(f => f.Contains("not verified"));
        Console.WriteLine(passed ? $"verify: all {checks.Count} checks passed" : $"verify: {checks.Count(c => !c.Passed)} of {checks.Count} checks failed");
        return passed ? ExitCodes.Success : ExitCodes.Failed;
    }

    /// <summary>verify --scenario: the file is read and checked against the targets before any is started.</summary>
    private static async Task<int> ScenarioAsync(ArgumentReader options, string file)
    {
        var layout = BuildLayout.Discover();
        var scenario = ScenarioParser.Load(layout.Resolve(file), layout.PayloadDirectory);
        var external = ExternalTarget.FromOptions(options);
        var commands = CommandTargetSpec.FromOptions(options);
        var insecure = options.Flag("--insecure");
        var targets = new List<TargetDefinition>();
        if (options.Value("--targets") is not null || external.Count + commands.Count == 0)
        {
            layout.RequireCheckout("verify");
            targets.AddRange(TargetCatalog.Resolve(options.Value("--targets"), out var error));
            if (error.Length > 0) throw new UsageException("verify: " + error);
        }
        targets.AddRange(commands);
        ScenarioParser.CheckTargets(scenario, targets.Select(t => t.Name).Concat(external.Select(x => x.Name)).ToList());
        var tls = (await TargetCheck.TlsOfAsync(external, insecure)).OrUsage();

        var launcher = new TargetLauncher(layout);
        var running = new List<CheckedTarget>();
        try
        {
            var endpoints = new List<(string Name, Uri BaseUrl)>();
            foreach (var target in targets)
            {
                var started = await TargetCheck.StartAndVerifyAsync(launcher, target.Name, target, null, ServiceSwitches.Default, verify: false);
                if (started.LaunchError is string launchError) throw target.Command is null ? new LaunchException(launchError) : new CommandTargetException(launchError);
                running.Add(started);
                endpoints.Add((target.Name, started.BaseUrl!));
            }
            endpoints.AddRange(external);
            var answers = await ScenarioVerifier.VerifyAsync(scenario, endpoints, insecure: insecure);

            Console.WriteLine($"{"operation",-18} {"target",-16} {"result",-6} {"status",6} {"body B",8}  head / detail");
            foreach (var a in answers)
                Console.WriteLine($"{a.Operation,-18} {a.Target,-16} {(a.Problem is null ? "pass" : "FAIL"),-6} {a.Status?.ToString() ?? "-",6} {a.BodyBytes,8}  {a.Method} {a.Url}: {a.Head}" +
                                  (a.Problem is null ? "" : Environment.NewLine + new string(' ', 58) + a.Problem));
            foreach (var (name, description) in tls) Console.WriteLine($"tls: {name}: {description}");
            var failed = answers.Where(a => a.Problem is not null).ToList();
            Console.WriteLine(failed.Count == 0
                ? $"verify: all {answers.Count} answers of {scenario.Operations.Select(o => o.Name).Distinct().Count()} operation(s) passed"
                : $"verify: {failed.Count} of {answers.Count} answers failed; first: {failed[0].Operation} on {failed[0].Target}: {failed[0].Problem}");
            return failed.Count == 0 ? ExitCodes.Success : ExitCodes.Failed;
        }
        finally
        {
            foreach (var r in running) await r.DisposeAsync();
        }
    }

    private static void Print(IReadOnlyList<Check> checks)
    {
        Console.WriteLine($"{"target",-15} {"endpoint",-10} {"result",-6} {"status",6} {"framing",-15} {"resp bytes",10}  detail");
        foreach (var c in checks)
            Console.WriteLine($"{c.Target,-15} {c.Endpoint,-10} {(c.Passed ? "pass" : "FAIL"),-6} {c.Status?.ToString() ?? "-",6} {c.Framing,-15} {c.ResponseWireBytes?.ToString() ?? "-",10}  {c.Detail}");
    }
}
