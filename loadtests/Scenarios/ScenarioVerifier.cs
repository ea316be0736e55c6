using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;

namespace Comparator.Scenarios;

/// <summary>One operation asked once of one target: what came back, and whether it is correct by the rules.</summary>
/// <param name="Operation">the operation's label (its name, and its size where it has sizes)</param>
/// <param name="Chunked">whether the answer came with Transfer-Encoding: chunked (a driver that speaks HTTP/1.0 cannot then measure it faithfully)</param>
public sealed record ScenarioAnswer(string Operation, string Target, string Method, string Url, int? Status, string Head, long BodyBytes, byte[] Body, string? Problem,
    bool Chunked = false);

/// <summary>
/// verify --scenario: every operation once per target, in file order, then every rule checked
/// (same-as needs the other target's answer, so rules are checked after all answers are in).
/// </summary>
public static class ScenarioVerifier
{
    public static async Task<IReadOnlyList<ScenarioAnswer>> VerifyAsync(Scenario scenario, IReadOnlyList<(string Name, Uri BaseUrl)> targets,
        CancellationToken cancellationToken = default)
    {
        using var client = new HttpClient(new SocketsHttpHandler { AllowAutoRedirect = false, UseCookies = false }) { Timeout = TimeSpan.FromSeconds(30) };
        var raw = new List<ScenarioAnswer>();
        foreach (var op in scenario.Operations)
        foreach (var (name, baseUrl) in targets)
        {
            var request = Scenario.RequestFor(op, name)!;
            var url = new Uri(baseUrl, request.PathAndQuery);
            using var message = Drivers.RequestMessages.Build(request.Method, url, request.Headers, request.Body);
            try
            {
                using var response = await client.SendAsync(message, cancellationToken);
                var body = await response.Content.ReadAsByteArrayAsync(cancellationToken);
                var head = $"{response.Content.Headers.ContentType?.ToString() ?? "no content type"}; " +
                           (response.Headers.TransferEncodingChunked == true ? "chunked" : $"length {response.Content.Headers.ContentLength?.ToString() ?? "none"}");
                raw.Add(new ScenarioAnswer(op.Label, name, request.Method, url.ToString(), (int)response.StatusCode, head, body.LongLength, body, null,
                    response.Headers.TransferEncodingChunked == true));
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException && !cancellationToken.IsCancellationRequested)
            {
                raw.Add(new ScenarioAnswer(op.Label, name, request.Method, url.ToString(), null, "-", 0, Array.Empty<byte>(), "no answer: " + e.Message));
            }
        }
        return raw.Select(a =>
        {
            if (a.Problem is not null) return a;
            var op = scenario.Operations.First(o => o.Label == a.Operation);
            var expect = Scenario.ExpectFor(op, a.Target);
            var reference = expect.Body is BodyRule.SameAs same
                ? same.Target == a.Target ? a.Body // the reference answers as itself
                  : raw.FirstOrDefault(r => r.Operation == a.Operation && r.Target == same.Target && r.Status is not null)?.Body
                : null;
            return a with { Problem = AnswerRules.Check(expect, a.Status!.Value, a.Body, reference) };
        }).ToList();
    }
}
