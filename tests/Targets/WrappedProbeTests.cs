using System;
using System.Globalization;
using System.IO;
using System.Threading.Tasks;
using Comparator.Cli;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// A command target probed over HTTP is probed at once natively and, under a wrapper (the simulator), only once its port has listened for
/// <see cref="TargetLauncher.WrappedProbeSettle"/>: .NET's managed HttpListener ends its process when a connection arrives while its Start()
/// runs, a window valgrind stretches to about a second. The service here is a few lines of Python that note when they began to listen and
/// when the first connection came; the wrapper runs the command unchanged, so only the launcher's waiting differs.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class WrappedProbeTests : IDisposable
{
    private const string Service = """
        import http.server, sys, time
        port, out = int(sys.argv[1]), sys.argv[2]
        class Answer(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if not hasattr(Answer, "first"):
                    Answer.first = time.monotonic()
                    open(out, "w").write("%.3f" % (Answer.first - listening))
                self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
            def log_message(self, *args): pass
        server = http.server.HTTPServer(("127.0.0.1", port), Answer)
        listening = time.monotonic()
        server.serve_forever()
        """;

    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("comparator-wrapped-probe-");

    public void Dispose() => _dir.Delete(recursive: true);

    /// <summary>Seconds from the service's listen to the first connection it saw, as the launcher started it (wrapped or not).</summary>
    private async Task<double> FirstConnectionAfterListenAsync(bool wrapped)
    {
        var script = Path.Combine(_dir.FullName, "service.py");
        File.WriteAllText(script, Service);
        var seen = Path.Combine(_dir.FullName, wrapped ? "wrapped.txt" : "plain.txt");
        var target = CommandTargetSpec.Parse($"svc=cmd:python3 {script} {{port}} {seen}", _dir.FullName);
        var launcher = new TargetLauncher(BuildLayout.Discover(), wrap: wrapped ? (host, arguments) => (host, arguments) : null);
        await using var running = await launcher.StartAsync(target, ServiceSwitches.Default);
        return double.Parse(File.ReadAllText(seen), CultureInfo.InvariantCulture);
    }

    [Fact]
    public async Task Under_a_wrapper_the_first_probe_waits_until_the_port_has_listened_for_the_settle_and_natively_it_does_not()
    {
        var plain = await FirstConnectionAfterListenAsync(wrapped: false);
        var wrapped = await FirstConnectionAfterListenAsync(wrapped: true);

        Assert.True(plain < TargetLauncher.WrappedProbeSettle.TotalSeconds, $"natively probed {plain:0.000} s after it listened");
        Assert.True(wrapped >= TargetLauncher.WrappedProbeSettle.TotalSeconds, $"wrapped, probed {wrapped:0.000} s after it listened");
    }
}
