using System.Diagnostics;
using System.IO;
using System.IO.Pipelines;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Wire;

namespace Comparator.Drivers;

/// <summary>One cell's connections for <see cref="SocketDriver"/>: one per worker, kept open across the cell's windows.</summary>
internal sealed class SocketSession : IDriverSession
{
    private readonly byte[]? _bytes; // every request's bytes, or null when each is written afresh
    private readonly bool _keepAlive;
    private readonly bool _tls;
    private readonly ByteCounters _counters = new();
    private readonly SocketConnection[] _connections;
    private readonly RequestWriter[]? _writers; // per connection, when requests vary

    public SocketSession(LoadRequest request, WireTemplate template, int concurrency, bool keepAlive, TimeSpan timeout)
    {
        _bytes = template.Fixed;
        _keepAlive = keepAlive;
        _tls = request.Tls;
        var endpoint = new DnsEndPoint(request.Url.Host, request.Url.Port);
        _connections = Enumerable.Range(0, concurrency).Select(_ => new SocketConnection(endpoint, _counters, request)).ToArray();
        if (_bytes is null) _writers = _connections.Select(_ => new RequestWriter(template)).ToArray();
        var limit = (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        _watchdog = new Timer(_ =>
        {
            var now = Stopwatch.GetTimestamp();
            foreach (var c in _connections) c.AbortIfStuck(now, limit);
        }, null, WatchdogPeriod, WatchdogPeriod);
    }

    /// <summary>How often the watchdog looks for exchanges past the timeout: a timeout fires up to this much late.</summary>
    private static readonly TimeSpan WatchdogPeriod = TimeSpan.FromMilliseconds(100);

    private readonly Timer _watchdog;

    public Task<DriverWindow> RunAsync(TimeSpan duration, CancellationToken cancellationToken) =>
        WindowAsync(duration, null, (connection, _, deadline) => WorkerAsync(connection, Writer(connection), deadline, cancellationToken), cancellationToken);

    /// <summary>The closed loop for an exact count of requests, shared evenly among the connections, or until <paramref name="limit"/>.</summary>
    public Task<DriverWindow> RunCountAsync(long requests, TimeSpan limit, CancellationToken cancellationToken, TimeSpan pause = default) =>
        WindowAsync(limit, null, (connection, _, deadline) =>
        {
            var index = Array.IndexOf(_connections, connection);
            var share = requests / _connections.Length + (index < requests % _connections.Length ? 1 : 0);
            return WorkerAsync(connection, Writer(connection), deadline, cancellationToken, share, pause);
        }, cancellationToken);

    public bool RunsCounts => true;

    public long? ServerLimit => _connections.Max(c => c.ServerLimit);

    /// <summary>The connection's own request writer when requests vary, else null (the one array is sent).</summary>
    private RequestWriter? Writer(SocketConnection connection) => _writers?[Array.IndexOf(_connections, connection)];

    /// <summary>
    /// The open model, as wrk2 runs it: connection i of N owns the requests due at start + (i + kN)/rate,
    /// so together they are due at the asked rate, evenly spaced. A request is sent at its due time, or
    /// at once when its connection was still waiting for the previous answer then (it is late, and that
    /// wait counts); its latency runs from its due time, so a stall shows in the percentiles for as long
    /// as it lasted, not as one slow request per connection. Requests due before the window's end that
    /// could not be sent by then are dropped and counted.
    /// </summary>
    public Task<DriverWindow> RunAtRateAsync(TimeSpan duration, double rate, CancellationToken cancellationToken) =>
        WindowAsync(duration, rate, (connection, start, deadline) =>
            RateWorkerAsync(connection, Array.IndexOf(_connections, connection), rate, start, deadline, cancellationToken), cancellationToken);

    private async Task<DriverWindow> WindowAsync(TimeSpan duration, double? rate, Func<SocketConnection, long, long, Task<WorkerTally>> worker, CancellationToken cancellationToken)
    {
        var received = _counters.Received;
        var sent = _counters.Sent;
        var opened = _counters.Connections;
        var handshakes = _counters.Handshakes;
        var cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
        var start = Stopwatch.GetTimestamp();
        var deadline = start + (long)(duration.TotalSeconds * Stopwatch.Frequency);
        // A stop ends every exchange under way at once: nothing waits for a slow answer.
        using var stop = cancellationToken.Register(() => { foreach (var c in _connections) c.Abort(); });
        var tallies = await Task.WhenAll(_connections.Select(c => Task.Run(() => worker(c, start, deadline), CancellationToken.None)));
        var elapsed = Stopwatch.GetElapsedTime(start).TotalSeconds;
        var cpu = (Process.GetCurrentProcess().TotalProcessorTime - cpuBefore).TotalSeconds;

        return WorkerTally.Window(tallies, _counters, (received, sent, opened, handshakes), elapsed, cpu, atRate: rate is not null, tls: _tls);
    }

    private async Task<WorkerTally> RateWorkerAsync(SocketConnection connection, int index, double rate, long start, long deadline, CancellationToken cancellationToken)
    {
        var tally = new WorkerTally();
        var ticksPerRequest = Stopwatch.Frequency / rate;
        var writer = Writer(connection);
        try
        {
            for (long k = 0; !cancellationToken.IsCancellationRequested; k++)
            {
                var due = start + (long)((index + k * _connections.Length) * ticksPerRequest);
                if (due >= deadline) break;
                var now = Stopwatch.GetTimestamp();
                if (now >= deadline)
                {
                    // Still busy when the window ended: every request due from here to its end is dropped.
                    tally.Dropped += (long)Math.Ceiling((deadline - due) / (ticksPerRequest * _connections.Length));
                    break;
                }
                if (now > due) tally.Late++;
                else
                {
                    var wait = Stopwatch.GetElapsedTime(now, due);
                    if (wait > TimeSpan.FromMilliseconds(1)) await Task.Delay(wait, cancellationToken);
                }
                var outcome = await connection.ExchangeAsync(writer is null ? _bytes : writer.Next(), _keepAlive);
                if (cancellationToken.IsCancellationRequested) break;
                Count(tally, outcome, due); // from the due time: a stall counts for every request it held back
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
        }
        return tally;
    }

    private async Task<WorkerTally> WorkerAsync(SocketConnection connection, RequestWriter? writer, long deadline, CancellationToken cancellationToken,
        long requests = long.MaxValue, TimeSpan pause = default)
    {
        var tally = new WorkerTally();
        while (tally.Requests < requests && Stopwatch.GetTimestamp() < deadline && !cancellationToken.IsCancellationRequested)
        {
            var started = Stopwatch.GetTimestamp();
            var outcome = await connection.ExchangeAsync(writer is null ? _bytes : writer.Next(), _keepAlive);
            if (cancellationToken.IsCancellationRequested) break; // stopped: neither a success nor a failure
            Count(tally, outcome, started);
            if (outcome.Error is not null && tally.OnlyErrors) await Task.Delay(1, CancellationToken.None); // a dead target: do not spin a core
            else if (pause > TimeSpan.Zero && tally.Requests < requests) await Task.Delay(pause, CancellationToken.None);
        }
        return tally;
    }

    public void Dispose()
    {
        _watchdog.Dispose();
        foreach (var c in _connections) c.Dispose();
    }

    /// <summary>One exchange's result: the problem (null when correct), whether a wrong answer was non-2xx, its body bytes, or the socket error.</summary>
    internal readonly record struct Outcome(string? Problem, bool Non2xx, long BodyBytes, string? Error, bool Timeout = false);

    private static void Count(WorkerTally tally, Outcome o, long since)
    {
        tally.BodyBytes += o.BodyBytes;
        if (o.Timeout) tally.Timeouts++;
        else if (o.Error is not null) tally.Errors++;
        if (o.Non2xx) tally.Non2xx++;
        tally.Count(o.Timeout ? "timeout" : o.Error is not null ? "error: " + o.Error : o.Problem, since);
    }
}
