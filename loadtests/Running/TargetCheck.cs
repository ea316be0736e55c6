using System.Threading;
using System.Threading.Tasks;
using Comparator.Scenarios;
using Comparator.Targets;
using Comparator.Verification;

namespace Comparator.Running;

/// <summary>A target started by the comparator (or a service given by URL) and checked.</summary>
/// <param name="Running">the process started, or null for a service given by URL and for a target that did not start</param>
/// <param name="LaunchError">why the target could not be started, in one line; null when it started</param>
public sealed record CheckedTarget(string Name, RunningTarget? Running, Uri? BaseUrl, IReadOnlyList<Check> Checks, string? LaunchError) : IAsyncDisposable
{
    /// <summary>Why it is not fit to measure: it did not start, or an answer failed its check; null when it is.</summary>
    public string? Failure => LaunchError ?? TargetCheck.FailureOf(Checks.Where(c => !c.Passed).Select(c => $"{c.Endpoint}: {c.Detail}"));

    public ValueTask DisposeAsync() => Running?.DisposeAsync() ?? ValueTask.CompletedTask;
}

/// <summary>
/// The one start-and-verify of run, calibrate, soak and verify: start a target (or take the service
/// running at its URL) and check every endpoint of the contract; with a scenario, every operation asked
/// of every target once they are all up, through <see cref="ScenarioVerifier"/>, checked by the file's rules.
/// </summary>
public static class TargetCheck
{
    /// <summary>
    /// Starts <paramref name="definition"/> (unless <paramref name="url"/> is given) and checks the contract's endpoints
    /// unless <paramref name="verify"/> is false. A target that cannot start comes back with its <see cref="CheckedTarget.LaunchError"/>;
    /// the caller stops a started one (DisposeAsync) when it is done with it, or when it failed its checks.
    /// </summary>
    public static async Task<CheckedTarget> StartAndVerifyAsync(TargetLauncher? launcher, string name, TargetDefinition? definition, Uri? url,
        ServiceSwitches switches, bool verify = true, string? cpus = null, Action<string>? starting = null, CancellationToken cancellationToken = default)
    {
        RunningTarget? running = null;
        try
        {
            if (url is null)
            {
                starting?.Invoke($"{name}: starting {definition!.Describe()}");
                running = await launcher!.StartAsync(definition!, switches, cancellationToken, cpus);
                url = running.BaseUrl;
            }
            var checks = verify ? await EndpointVerifier.VerifyAsync(name, url, cancellationToken) : Array.Empty<Check>();
            return new CheckedTarget(name, running, url, checks, null);
        }
        catch (LaunchException e)
        {
            return new CheckedTarget(name, null, url, Array.Empty<Check>(), e.Message);
        }
        catch when (running is not null)
        {
            await running.DisposeAsync();
            throw;
        }
    }

    /// <summary>A scenario's answers as a run's verification records them: one check per answer.</summary>
    public static IReadOnlyList<Check> ChecksOf(IEnumerable<ScenarioAnswer> answers) =>
        answers.Select(a => new Check(a.Target, a.Operation, a.Problem is null, a.Status, a.Chunked ? "chunked" : "content-length", null,
            a.Problem ?? $"{a.Method} {a.Url}: {a.Head}, {a.BodyBytes} B body")).ToList();

    /// <summary>Why a target's scenario answers make it unfit to measure, or null when every answer passed.</summary>
    public static string? ScenarioFailure(IEnumerable<ScenarioAnswer> answers, string target) =>
        FailureOf(answers.Where(a => a.Target == target && a.Problem is not null).Select(a => $"{a.Operation}: {a.Problem}"));

    /// <summary>"verification failed: " and each problem, or null when there is none.</summary>
    public static string? FailureOf(IEnumerable<string> problems)
    {
        var list = problems.ToList();
        return list.Count == 0 ? null : "verification failed: " + string.Join("; ", list);
    }
}
