using System.Diagnostics;
using System.IO;
using System.Net;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Measuring;
using Comparator.Results;

namespace Comparator.Drivers;

/// <summary>One cell's HttpClient and its byte counters; see <see cref="HttpClientDriver"/>.</summary>
internal sealed class HttpClientSession : IDriverSession
{
    private readonly HttpClient _client;
    private readonly ByteCounters _counters;
    private readonly LoadRequest _request;
    private readonly int _concurrency;
    private readonly bool _keepAlive;
    // Each worker's {seq}, kept across the cell's windows: HttpClient picks a pooled connection per request, so a worker's count stands for a connection's.
    private readonly long[] _seqs;

    public HttpClientSession(HttpClient client, ByteCounters counters, LoadRequest request, int concurrency, bool keepAlive)
    {
        _client = client;
        _counters = counters;
        _request = request;
        _concurrency = concurrency;
        _keepAlive = keepAlive;
        _seqs = new long[concurrency];
    }

    public async Task<DriverWindow> RunAsync(TimeSpan duration, CancellationToken cancellationToken)
    {
        var received = _counters.Received;
        var sent = _counters.Sent;
        var connections = _counters.Connections;
        var handshakes = _counters.Handshakes;
        // The driver runs in this process, so its cost is this process's CPU over the window.
        var cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
        var start = Stopwatch.GetTimestamp();
        var deadline = start + (long)(duration.TotalSeconds * Stopwatch.Frequency);
        var workers = Enumerable.Range(0, _concurrency)
            .Select(worker => Task.Run(() => WorkerAsync(worker, deadline, cancellationToken), CancellationToken.None))
            .ToArray();
        var tallies = await Task.WhenAll(workers);
        var elapsed = Stopwatch.GetElapsedTime(start).TotalSeconds;
        var cpu = (Process.GetCurrentProcess().TotalProcessorTime - cpuBefore).TotalSeconds;

        return WorkerTally.Window(tallies, _counters, (received, sent, connections, handshakes), elapsed, cpu, tls: _request.Tls);
    }

    private async Task<WorkerTally> WorkerAsync(int worker, long deadline, CancellationToken cancellationToken)
    {
        var tally = new WorkerTally();
        var matcher = new AnswerMatcher(_request);
        var buffer = new byte[64 * 1024];
        while (Stopwatch.GetTimestamp() < deadline && !cancellationToken.IsCancellationRequested)
        {
            var started = Stopwatch.GetTimestamp();
            string? failure;
            try
            {
                failure = await SendOnceAsync(++_seqs[worker], buffer, tally, matcher, cancellationToken);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                break; // the run was stopped: this request is neither a success nor a failure
            }
            catch (TaskCanceledException)
            {
                tally.Timeouts++;
                failure = "timeout";
            }
            catch (Exception e) when (e is HttpRequestException or IOException)
            {
                tally.Errors++;
                failure = "error: " + (e.InnerException?.Message ?? e.Message);
            }

            tally.Count(failure, started);
            // A dead target refuses connections at once; do not spin a core on it.
            if (failure is not null && tally.OnlyErrors) await Task.Delay(1, CancellationToken.None);
        }
        return tally;
    }

    /// <summary>Sends one request and reads the whole response; returns null on success or what was wrong.</summary>
    private async Task<string?> SendOnceAsync(long seq, byte[] buffer, WorkerTally tally, AnswerMatcher matcher, CancellationToken cancellationToken)
    {
        var (url, headers, content) = _request.Instance(seq);
        using var message = RequestMessages.Build(_request.Method, url, headers, content, _keepAlive);
        using var response = await _client.SendAsync(message, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        matcher.Start((int)response.StatusCode);
        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        int n;
        while ((n = await body.ReadAsync(buffer, cancellationToken)) > 0) matcher.Feed(buffer.AsSpan(0, n));
        tally.BodyBytes += matcher.Length;
        var problem = matcher.Finish(out var non2xx);
        if (non2xx) tally.Non2xx++;
        return problem;
    }

    public void Dispose() => _client.Dispose();

}
