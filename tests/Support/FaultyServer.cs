using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;

namespace Comparator.Tests;

/// <summary>
/// A real HTTP/1.1 server on loopback that breaks the contract on purpose, to show that the
/// comparator counts what goes wrong. It answers the contract correctly for the first
/// <c>healthyRequests</c> requests (enough to pass verification), then as its mode says; or, made
/// with fixed bytes, answers every request with those bytes, closing the connection after each
/// answer or not (a doctored answer, for the response reader's framing rules).
/// </summary>
public sealed class FaultyServer : IDisposable
{
    public enum Mode { Status500, WrongEcho }

    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stop = new();
    private readonly Mode _mode;
    private readonly int _healthyRequests;
    private readonly byte[]? _fixedAnswer;
    private readonly bool _closeAfterAnswer;
    private int _served;

    public FaultyServer(Mode mode, int healthyRequests = 0)
    {
        _mode = mode;
        _healthyRequests = healthyRequests;
        _listener.Start();
        _ = AcceptLoop();
    }

    /// <summary>Answers every request with <paramref name="answer"/>, byte for byte; then closes the connection when <paramref name="close"/>.</summary>
    public FaultyServer(byte[] answer, bool close) : this(Mode.Status500)
    {
        _fixedAnswer = answer;
        _closeAfterAnswer = close;
    }

    public Uri BaseUrl => new($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}");

    private async Task AcceptLoop()
    {
        while (!_stop.IsCancellationRequested)
        {
            TcpClient client;
            try { client = await _listener.AcceptTcpClientAsync(_stop.Token); }
            catch (Exception) { return; }
            _ = Serve(client);
        }
    }

    private async Task Serve(TcpClient client)
    {
        using (client)
        {
            try
            {
                var stream = client.GetStream();
                var reader = new StreamReader(stream, Encoding.ASCII, false, 1, leaveOpen: true);
                while (!_stop.IsCancellationRequested)
                {
                    var requestLine = await reader.ReadLineAsync();
                    if (string.IsNullOrEmpty(requestLine)) return;
                    long length = 0;
                    string? line;
                    while (!string.IsNullOrEmpty(line = await reader.ReadLineAsync()))
                        if (line.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase)) length = long.Parse(line[15..].Trim());
                    var body = new char[length];
                    for (var read = 0; read < length;) read += await reader.ReadAsync(body, read, (int)length - read);
                    await stream.WriteAsync(_fixedAnswer ?? Answer(requestLine, Encoding.ASCII.GetBytes(body)));
                    if (_fixedAnswer is not null && _closeAfterAnswer)
                    {
                        // Close once the client has closed too: closing with bytes unread would reset the connection under the answer.
                        client.Client.Shutdown(SocketShutdown.Send);
                        while (await stream.ReadAsync(new byte[512]) > 0) { }
                        return;
                    }
                }
            }
            catch (Exception) { /* client went away */ }
        }
    }

    private byte[] Answer(string requestLine, byte[] body)
    {
        var path = requestLine.Split(' ')[1];
        var healthy = Interlocked.Increment(ref _served) <= _healthyRequests;
        if (!healthy && _mode == Mode.Status500) return Response("500 Internal Server Error", "text/plain", Array.Empty<byte>(), chunked: false);
        if (path.StartsWith(Routes.Time)) return Response("200 OK", ContentTypes.Text, Encoding.ASCII.GetBytes(TimeText.Now()), false);
        if (path.StartsWith(Routes.Json)) return Response("200 OK", ContentTypes.Json, Encoding.UTF8.GetBytes(JsonSample.Serialize(JsonSample.Create(JsonSample.DefaultItems))), false);
        if (!healthy && body.Length > 0) body[0] ^= 0xFF; // WrongEcho: same length, different content
        return Response("200 OK", ContentTypes.Binary, body, chunked: path == Routes.StreamEcho);
    }

    private static byte[] Response(string status, string contentType, byte[] body, bool chunked)
    {
        var head = $"HTTP/1.1 {status}\r\nContent-Type: {contentType}\r\n" +
                   (chunked ? "Transfer-Encoding: chunked\r\n\r\n" : $"Content-Length: {body.Length}\r\n\r\n");
        using var all = new MemoryStream();
        all.Write(Encoding.ASCII.GetBytes(head));
        if (chunked && body.Length > 0) all.Write(Encoding.ASCII.GetBytes($"{body.Length:x}\r\n"));
        all.Write(body);
        if (chunked) all.Write(Encoding.ASCII.GetBytes(body.Length > 0 ? "\r\n0\r\n\r\n" : "0\r\n\r\n"));
        return all.ToArray();
    }

    public void Dispose()
    {
        _stop.Cancel();
        _listener.Stop();
    }
}
