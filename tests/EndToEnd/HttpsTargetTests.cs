using System;
using System.IO;
using System.Linq;
using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Targets;
using Comparator.Wire;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// A target behind HTTPS, as users deploy theirs: the kestrel target started as a real process with a
/// self-signed certificate made here (--certificate), verified and measured over TLS on loopback with
/// --insecure, refused without it, and the same target over plain HTTP beside it for the byte counts.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class HttpsTargetTests : IClassFixture<HttpsTargetTests.Kestrels>, IDisposable
{
    private readonly Kestrels _kestrels;
    private readonly DirectoryInfo _out = Directory.CreateTempSubdirectory("https-run-");

    public HttpsTargetTests(Kestrels kestrels) => _kestrels = kestrels;

    public void Dispose() => _out.Delete(recursive: true);

    private string Secure => "secure=" + _kestrels.Https.BaseUrl;

    private RunResult Saved() =>
        ResultStore.Deserialize(File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.json")), "results.json");

    [Fact]
    public async Task With_insecure_the_https_target_is_verified_and_measured_by_both_in_process_drivers_and_its_bytes_are_tls_records()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--quick", "--target", "plain=" + _kestrels.Http.BaseUrl, "--target", Secure, "--insecure",
            "--driver", "socket,httpclient", "--endpoints", "time,echo-post", "--sizes", "4KB", "--concurrency", "2", "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = Saved();
        Assert.All(run.Verification, c => Assert.True(c.Passed, $"{c.Target} {c.Endpoint}: {c.Detail}"));
        var secure = run.Targets.Single(t => t.Name == "secure");
        Assert.Contains("TLS", secure.Tls);
        Assert.Contains("certificate not validated (--insecure: RemoteCertificateChainErrors", secure.Tls);
        Assert.Null(run.Targets.Single(t => t.Name == "plain").Tls);
        foreach (var cell in run.Cells.Where(c => c.Key.Target == "secure"))
        {
            var s = cell.Summary!;
            Assert.True(s.Requests > 0 && cell.FailedTotal == 0, $"{cell.Key}: {s.Requests} requests, {cell.FailedTotal} failed");
            Assert.True(s.BytesReceived > s.BodyBytesReceived, $"{cell.Key}: {s.BytesReceived} wire bytes for {s.BodyBytesReceived} body bytes");
            Assert.Equal(s.ConnectionsOpened, s.TlsHandshakes);
            // The same answers over plain HTTP: TLS adds each record's header and tag to every one.
            var plain = run.Cells.Single(c => c.Key == cell.Key with { Target = "plain" }).Summary!;
            Assert.Null(plain.TlsHandshakes);
            Assert.True(s.BytesReceived / (double)s.Requests > plain.BytesReceived / (double)plain.Requests,
                $"{cell.Key}: {s.BytesReceived / s.Requests} B/request over TLS, {plain.BytesReceived / plain.Requests} over plain HTTP");
        }
        var csv = File.ReadAllLines(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "results.csv"));
        Assert.Contains("tls_handshakes", csv[0].Split(','));
        var report = File.ReadAllText(Path.Combine(Assert.Single(_out.GetDirectories()).FullName, "report.md"));
        Assert.Contains("secure answered over https: its wire bytes are TLS records", report);
        Assert.Contains("TLS: secure over https: TLS", report);
    }

    [Theory]
    [InlineData("socket", false)]
    [InlineData("socket", true)]
    [InlineData("httpclient", false)]
    [InlineData("httpclient", true)]
    public async Task Every_connection_opened_to_an_https_target_is_one_tls_handshake_counted_below_tls(string driver, bool keepAlive)
    {
        var baseUrl = _kestrels.Https.BaseUrl;
        var payload = PayloadCatalogue.Generate(500);
        var request = LoadRequest.For(Endpoints.EchoPost, baseUrl, payload, JsonSample.DefaultItems) with { Insecure = true };
        var http = await RawHttp.SendAsync(baseUrl, RawHttp.BuildRequest(Endpoints.EchoPost, baseUrl, "", payload), TimeSpan.FromSeconds(10), insecure: true);
        ILoadDriver load = driver == SocketDriver.DriverName ? new SocketDriver() : new HttpClientDriver();

        using var session = load.Open(request, concurrency: 1, keepAlive, TimeSpan.FromSeconds(10));
        var window = await session.RunAsync(TimeSpan.FromMilliseconds(300), CancellationToken.None);
        // A loaded machine (the suite's other processes) can fit a single TLS handshake and request in 300 ms: take a longer window,
        // so that a kept-alive connection has carried more than one request before connections and requests are compared.
        if (window.Requests < 3) window = await session.RunAsync(TimeSpan.FromSeconds(3), CancellationToken.None);

        Assert.True(window.Requests > 0 && window.Failed == 0, $"{window.Requests} requests, {window.Failed} failed: {string.Join(" | ", window.FailureSamples)}");
        Assert.True(window.ConnectionsOpened > 0);
        Assert.Equal(window.ConnectionsOpened, window.TlsHandshakes);
        if (keepAlive) Assert.True(window.ConnectionsOpened < window.Requests, $"{window.ConnectionsOpened} connections for {window.Requests} requests");
        else Assert.Equal(window.Requests, window.ConnectionsOpened);
        Assert.Equal(payload.Length * window.Requests, window.BodyBytesReceived);
        // Counted on the socket: more than the HTTP bytes of the same answers, by the TLS records and handshakes.
        Assert.True(window.BytesReceived > http.WireBytes * window.Requests, $"{window.BytesReceived} B received for {window.Requests} answers of {http.WireBytes} B");
    }

    [Theory]
    [InlineData("run")]
    [InlineData("verify")]
    public async Task Without_insecure_a_self_signed_target_is_refused_with_one_line_and_exit_2(string command)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(command == "run"
            ? new[] { "run", "--quick", "--target", Secure, "--endpoints", "time", "--out", _out.FullName }
            : new[] { "verify", "--target", Secure });

        Assert.True(exit == 2, $"exit {exit}\n{stdout}\n{stderr}");
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"error: --target {Secure}: refused: its certificate does not validate (RemoteCertificateChainErrors", line);
        Assert.EndsWith("for a self-signed certificate, pass --insecure", line.TrimEnd());
        Assert.Equal("", stdout);
        Assert.Empty(_out.GetDirectories()); // refused before a run directory or a target process
    }

    [Fact]
    public async Task Verify_with_insecure_passes_every_check_and_names_the_tls_it_negotiated()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("verify", "--target", Secure, "--insecure");

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        Assert.Contains($"verify: all {Endpoints.All.Count} checks passed", stdout);
        Assert.Contains("tls: secure: TLS", stdout);
    }

    [Fact]
    public async Task Ab_and_wrk_say_why_they_do_not_measure_an_https_target()
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("run", "--quick", "--target", Secure, "--insecure", "--driver", "ab,wrk",
            "--endpoints", "time", "--out", _out.FullName);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var cells = Saved().Cells;
        Assert.Equal(new[] { "ab", "wrk" }, cells.Select(c => c.Key.Driver).OrderBy(d => d));
        Assert.All(cells, c =>
        {
            Assert.Null(c.Summary);
            Assert.Equal(new[] { "n/a" }, c.Flags);
            Assert.Contains("after TLS has decrypted them, not the TLS records on the wire", c.NotMeasuredReason);
        });
    }

    [Theory]
    [InlineData("run")]
    [InlineData("verify")]
    public async Task A_target_url_of_another_scheme_is_still_a_usage_error(string command)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(command, "--target", "files=ftp://127.0.0.1:21/");

        Assert.Equal(2, exit);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("--target needs NAME=http://HOST:PORT or NAME=https://HOST:PORT, not 'files=ftp://127.0.0.1:21/'", line);
        Assert.Equal("", stdout);
    }

    [Fact]
    public async Task A_kestrel_target_given_a_certificate_file_that_is_not_there_exits_2_with_one_line()
    {
        var missing = Path.Combine(_out.FullName, "missing.pfx");
        var definition = TargetCatalog.Find("kestrel")! with { VariantArguments = new[] { "--certificate", missing } };

        var failure = await Assert.ThrowsAsync<LaunchException>(() => new TargetLauncher(BuildLayout.Discover()).StartAsync(definition, ServiceSwitches.Default));

        Assert.Contains("exited with code 2 before it was ready", failure.Message);
        Assert.EndsWith("--certificate: no file at " + missing, failure.Message);
    }

    /// <summary>The kestrel target twice: over HTTPS with a self-signed certificate for 127.0.0.1 (a .pfx with a password), and over plain HTTP.</summary>
    [Trait(TestTiers.Trait, TestTiers.Processes)]
    public sealed class Kestrels : IAsyncLifetime
    {
        private const string Password = "comparator-test";
        private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("https-target-");

        public RunningTarget Https { get; private set; } = null!;
        public RunningTarget Http { get; private set; } = null!;

        public async Task InitializeAsync()
        {
            var kestrel = TargetCatalog.Find("kestrel")!;
            var launcher = new TargetLauncher(BuildLayout.Discover());
            Https = await launcher.StartAsync(kestrel with { VariantArguments = new[] { "--certificate", SelfSigned(), "--certificate-password", Password } }, ServiceSwitches.Default);
            Assert.Equal("https", Https.BaseUrl.Scheme); // the ready line names the scheme it listens on
            Http = await launcher.StartAsync(kestrel, ServiceSwitches.Default);
        }

        /// <summary>A certificate for 127.0.0.1 and localhost that no one vouches for, exported with its key.</summary>
        private string SelfSigned()
        {
            using var key = RSA.Create(2048);
            var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
            var names = new SubjectAlternativeNameBuilder();
            names.AddIpAddress(IPAddress.Loopback);
            names.AddDnsName("localhost");
            request.CertificateExtensions.Add(names.Build());
            request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension(new OidCollection { new Oid("1.3.6.1.5.5.7.3.1") }, false)); // server authentication
            using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(7));
            var path = Path.Combine(_dir.FullName, "localhost.pfx");
            File.WriteAllBytes(path, certificate.Export(X509ContentType.Pfx, Password));
            return path;
        }

        public async Task DisposeAsync()
        {
            if (Https is not null) await Https.DisposeAsync();
            if (Http is not null) await Http.DisposeAsync();
            _dir.Delete(recursive: true);
        }
    }
}
