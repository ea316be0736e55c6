using System.IO;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Scenarios;
using Comparator.Wire;

namespace Comparator.Verification;

/// <summary>One operation asked once of one target: what came back, and whether it is correct by the rules.</summary>
/// <param name="Operation">the operation's label (its name, and its size where it has sizes)</param>
/// <param name="Chunked">whether the answer came with Transfer-Encoding: chunked (a driver that speaks HTTP/1.0 cannot then measure it faithfully)</param>
public sealed record ScenarioAnswer(string Operation, string Target, string Method, string Url, int? Status, string Head, long BodyBytes, byte[] Body, string? Problem,
    bool Chunked = false);

/// <summary>
/// verify --scenario: every operation once per target, in file order, then every rule checked
/// (same-as and same-fields need the other target's answer, so rules are checked after all answers are in). Each
/// request is the socket driver's bytes for the operation (its first on a connection where it varies:
/// {seq} 1 and a fresh {uuid}), sent on a connection of its own, and each
/// answer is read by <see cref="ResponseReader"/>, as the socket driver reads it under load: an answer
/// framed wrongly fails here as it fails there.
/// </summary>
public static class ScenarioVerifier
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    /// <param name="insecure">an https target's certificate is accepted though it does not validate (--insecure)</param>
    public static async Task<IReadOnlyList<ScenarioAnswer>> VerifyAsync(Scenario scenario, IReadOnlyList<(string Name, Uri BaseUrl)> targets,
        CancellationToken cancellationToken = default, bool insecure = false)
    {
        var raw = new List<ScenarioAnswer>();
        foreach (var op in scenario.Operations)
        foreach (var (name, baseUrl) in targets)
        {
            var request = LoadRequest.For(op, name, baseUrl, reference: null, answerChunked: false);
            // A path with placeholders is shown as written: {seq} as such, and no {env:NAME}'s value in a report.
            var written = Scenario.RequestFor(op, name)!.PathAndQuery;
            var url = written.Contains('{') ? request.Url.GetLeftPart(UriPartial.Authority) + written : request.Url.ToString();
            try
            {
                var response = await RawHttp.SendAsync(baseUrl, SocketDriver.Serialize(request, keepAlive: true), Timeout, cancellationToken, insecure);
                var head = $"{response.Header("Content-Type") ?? "no content type"}; " +
                           (response.IsChunked ? "chunked" : $"length {response.ContentLength?.ToString() ?? "none"}");
                raw.Add(new ScenarioAnswer(op.Label, name, request.Method, url, response.StatusCode, head, response.Body.LongLength, response.Body, null, response.IsChunked));
            }
            catch (Exception e) when (e is IOException or SocketException or TimeoutException or InvalidDataException or System.Security.Authentication.AuthenticationException)
            {
                // A framing error reads "framing: ...", as the socket driver counts it under load.
                raw.Add(new ScenarioAnswer(op.Label, name, request.Method, url, null, "-", 0, Array.Empty<byte>(),
                    e is InvalidDataException ? e.Message : "no answer: " + e.Message));
            }
        }
        return raw.Select(a =>
        {
            if (a.Problem is not null) return a;
            var op = scenario.Operations.First(o => o.Label == a.Operation);
            var expect = Scenario.ExpectFor(op, a.Target);
            var reference = expect.Body?.Reference is string other
                ? other == a.Target ? a.Body // the reference answers as itself
                  : raw.FirstOrDefault(r => r.Operation == a.Operation && r.Target == other && r.Status is not null)?.Body
                : null;
            return a with { Problem = AnswerRules.Check(expect, a.Status!.Value, a.Body, reference, a.Target) };
        }).ToList();
    }
}
