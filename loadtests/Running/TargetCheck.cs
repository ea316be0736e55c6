using System.IO;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Errors;
using Comparator.Results;
using Comparator.Scenarios;
using Comparator.Targets;
using Comparator.Verification;
using Comparator.Wire;

namespace Comparator.Running;

/// <summary>A target started by the comparator (or a service given by URL) and checked.</summary>
/// <param name="Running">the process started, or null for a service given by URL and for a target that did not start</param>
/// <param name="LaunchError">why the target could not be started, in one line; null when it started</param>
public sealed record CheckedTarget(string Name, IStartedTarget? Running, Uri? BaseUrl, IReadOnlyList<Check> Checks, string? LaunchError) : IAsyncDisposable
{
    /// <summary>Why it is not fit to measure: it did not start, or an answer failed its check; null when it is.</summary>
    public string? Failure => LaunchError ?? TargetCheck.FailureOf(Checks.Where(c => !c.Passed).Select(c => $"{c.Endpoint}: {c.Detail}"));

    public ValueTask DisposeAsync() => Running?.DisposeAsync() ?? ValueTask.CompletedTask;
}

/// <summary>Checks every endpoint of the contract on the target at a URL: <see cref="EndpointVerifier"/> over HTTP, unless a test of the launch loop gives its own answers.</summary>
public delegate Task<IReadOnlyList<Check>> EndpointCheck(string target, Uri baseUrl, CancellationToken cancellationToken, bool insecure);

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
    /// <param name="insecure">an https target's certificate is accepted though it does not validate (--insecure)</param>
    /// <param name="check">how the endpoints are checked; null: <see cref="EndpointVerifier"/> over HTTP</param>
    public static async Task<CheckedTarget> StartAndVerifyAsync(ITargetLauncher? launcher, string name, TargetDefinition? definition, Uri? url,
        ServiceSwitches switches, bool verify = true, string? cpus = null, Action<string>? starting = null, CancellationToken cancellationToken = default,
        bool insecure = false, EndpointCheck? check = null)
    {
        IStartedTarget? running = null;
        try
        {
            if (url is null)
            {
                starting?.Invoke($"{name}: starting {definition!.Describe()}");
                running = await launcher!.StartAsync(definition!, switches, cancellationToken, cpus);
                url = running.BaseUrl;
            }
            var checks = verify ? await (check ?? ((n, u, c, i) => EndpointVerifier.VerifyAsync(n, u, c, i)))(name, url, cancellationToken, insecure) : Array.Empty<Check>();
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

    /// <summary>
    /// The TLS of every https target, asked once before any target starts or any run directory is made, by name:
    /// "TLS 1.3, TLS_AES_256_GCM_SHA384, certificate validated". A certificate that does not validate, without
    /// --insecure, is refused with one line naming the target, what the validation found and --insecure (the
    /// command then exits 2). A target that cannot be reached is left to verification, which says so.
    /// </summary>
    public static async Task<Validated<IReadOnlyDictionary<string, string>>> TlsOfAsync(IEnumerable<(string Name, Uri Url)> targets, bool insecure,
        CancellationToken cancellationToken = default)
    {
        var tls = new Dictionary<string, string>();
        foreach (var (name, url) in targets.Where(t => TlsClient.IsHttps(t.Url)))
        {
            try
            {
                tls[name] = await TlsClient.DescribeAsync(url, insecure, TlsTimeout, cancellationToken);
            }
            catch (UntrustedCertificateException e)
            {
                return Validated<IReadOnlyDictionary<string, string>>.Refused(
                    $"--target {name}={url.OriginalString}: refused: its certificate does not validate ({e.Reason}); for a self-signed certificate, pass --insecure");
            }
            catch (Exception e) when (e is IOException or SocketException or TimeoutException or AuthenticationException)
            {
                // Not reachable, or not speaking TLS: verification names what it got.
            }
        }
        return Validated<IReadOnlyDictionary<string, string>>.Valid(tls);
    }

    /// <summary>The targets with the TLS of each https target (<see cref="TlsOfAsync"/>) in its plan, for the results; or its refusal.</summary>
    public static async Task<Validated<TargetSet>> WithTlsAsync(TargetSet targets, CancellationToken cancellationToken = default)
    {
        var checkedTls = await TlsOfAsync(targets.Plans.Where(t => t.IsExternal).Select(t => (t.Name, t.ExternalUrl!)), targets.Insecure, cancellationToken);
        if (!checkedTls.IsValid) return Validated<TargetSet>.Refused(checkedTls.Error!);
        var tls = checkedTls.Value;
        return Validated<TargetSet>.Valid(tls.Count == 0 ? targets
            : targets with { Plans = targets.Plans.Select(t => tls.TryGetValue(t.Name, out var d) ? t with { Tls = d } : t).ToList() });
    }

    private static readonly TimeSpan TlsTimeout = TimeSpan.FromSeconds(10);

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
