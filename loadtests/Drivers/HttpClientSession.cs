using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
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
    private const int MaxFailureSamples = 5;
    private readonly HttpClient _client;
    private readonly ByteCounters _counters;
    private readonly LoadRequest _request;
    private readonly int _concurrency;
    private readonly bool _keepAlive;

    public HttpClientSession(HttpClient client, ByteCounters counters, LoadRequest request, int concurrency, bool keepAlive)
    {
        _client = client;
        _counters = counters;
        _request = request;
        _concurrency = concurrency;
        _keepAlive = keepAlive;
    }

    public async Task<DriverWindow> RunAsync(TimeSpan duration, CancellationToken cancellationToken)
    {
        var received = _counters.Received;
        var sent = _counters.Sent;
        var connections = _counters.Connections;
        // The driver runs in this process, so its cost is this process's CPU over the window.
        var cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
        var start = Stopwatch.GetTimestamp();
        var deadline = start + (long)(duration.TotalSeconds * Stopwatch.Frequency);
        var workers = Enumerable.Range(0, _concurrency)
            .Select(_ => Task.Run(() => WorkerAsync(deadline, cancellationToken), CancellationToken.None))
            .ToArray();
        var tallies = await Task.WhenAll(workers);
        var elapsed = Stopwatch.GetElapsedTime(start).TotalSeconds;
        var cpu = (Process.GetCurrentProcess().TotalProcessorTime - cpuBefore).TotalSeconds;

        var latencies = tallies.SelectMany(t => t.LatenciesMs).ToArray();
        Array.Sort(latencies);
        return new DriverWindow(
            Requests: tallies.Sum(t => t.Requests),
            Failed: tallies.Sum(t => t.Failed),
            Non2xx: tallies.Sum(t => t.Non2xx),
            Errors: tallies.Sum(t => t.Errors),
            Timeouts: tallies.Sum(t => t.Timeouts),
            ElapsedSeconds: elapsed,
            Latency: LatencySummary.FromSorted(latencies),
            BytesReceived: _counters.Received - received,
            BytesSent: _counters.Sent - sent,
            BodyBytesReceived: tallies.Sum(t => t.BodyBytes),
            ConnectionsOpened: _counters.Connections - connections,
            ClientCpuSeconds: cpu,
            FailureSamples: tallies.SelectMany(t => t.Samples).Distinct().Take(MaxFailureSamples).ToList(),
            Limitations: Array.Empty<string>());
    }

    private async Task<Tally> WorkerAsync(long deadline, CancellationToken cancellationToken)
    {
        var tally = new Tally();
        var buffer = new byte[64 * 1024];
        while (Stopwatch.GetTimestamp() < deadline && !cancellationToken.IsCancellationRequested)
        {
            var started = Stopwatch.GetTimestamp();
            string? failure;
            try
            {
                failure = await SendOnceAsync(buffer, tally, cancellationToken);
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

            tally.Requests++;
            if (failure is null)
            {
                tally.LatenciesMs.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
            }
            else
            {
                tally.Failed++;
                if (tally.Samples.Count < MaxFailureSamples && !tally.Samples.Contains(failure)) tally.Samples.Add(failure);
                // A dead target refuses connections at once; do not spin a core on it.
                if (tally.Errors > 0 && tally.Errors == tally.Failed) await Task.Delay(1, CancellationToken.None);
            }
        }
        return tally;
    }

    /// <summary>Sends one request and reads the whole response; returns null on success or what was wrong.</summary>
    private async Task<string?> SendOnceAsync(byte[] buffer, Tally tally, CancellationToken cancellationToken)
    {
        using var message = RequestMessages.Build(_request.Method, _request.Url, _request.Headers, _request.Body, _keepAlive);
        using var response = await _client.SendAsync(message, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        var status = (int)response.StatusCode;
        if (_request.AnswerCheck is { } check)
        {
            // A scenario's rule reads the whole answer (JSON equality, a regex), so it is buffered.
            var whole = await response.Content.ReadAsByteArrayAsync(cancellationToken);
            tally.BodyBytes += whole.LongLength;
            var problem = check(status, whole);
            if (problem is not null && status is < 200 or > 299) tally.Non2xx++;
            return problem;
        }

        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        long length = 0;
        var matches = true;
        int n;
        while ((n = await body.ReadAsync(buffer, cancellationToken)) > 0)
        {
            if (matches) matches = Matches(buffer.AsSpan(0, n), length);
            length += n;
        }
        tally.BodyBytes += length;

        if (status is < 200 or > 299)
        {
            tally.Non2xx++;
            return "status " + status;
        }
        if (_request.ExpectedLength is int expected && length != expected)
            return $"body of {length} bytes, expected {expected}";
        return matches ? null : "body differs from what the contract says";
    }

    /// <summary>Compares a piece of the body at an offset with the expected bytes (or prefix).</summary>
    private bool Matches(ReadOnlySpan<byte> chunk, long offset)
    {
        var reference = _request.ExpectedBody ?? _request.ExpectedPrefix;
        if (reference is null || offset >= reference.Length) return _request.ExpectedBody is null;
        var overlap = (int)Math.Min(chunk.Length, reference.Length - offset);
        if (!chunk[..overlap].SequenceEqual(reference.AsSpan((int)offset, overlap))) return false;
        return _request.ExpectedBody is null || chunk.Length == overlap;
    }

    public void Dispose() => _client.Dispose();

    private sealed class Tally
    {
        public long Requests, Failed, Non2xx, Errors, Timeouts, BodyBytes;
        public readonly List<double> LatenciesMs = new(capacity: 1 << 14);
        public readonly List<string> Samples = new();
    }
}
