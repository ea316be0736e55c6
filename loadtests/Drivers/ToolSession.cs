using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;

namespace Comparator.Drivers;

/// <summary>
/// What the external-tool drivers (ab, wrk) share: a scratch folder holding the request body as a
/// file, whole-second windows (both tools take their duration in seconds), and the tool run itself.
/// </summary>
internal abstract class ToolSession : IDriverSession
{
    private readonly DirectoryInfo _scratch;

    protected ToolSession(string tool, LoadRequest request, int concurrency, TimeSpan timeout)
    {
        Request = request;
        Concurrency = concurrency;
        Timeout = timeout;
        _scratch = Directory.CreateTempSubdirectory($"comparator-{tool}-");
        if (request.Body is not null)
        {
            BodyFile = ScratchFile("body");
            File.WriteAllBytes(BodyFile, request.Body);
        }
    }

    protected LoadRequest Request { get; }
    protected int Concurrency { get; }
    protected TimeSpan Timeout { get; }

    /// <summary>The request body as a file for the tool, or null for a request without one.</summary>
    protected string? BodyFile { get; }

    protected string ScratchFile(string name) => Path.Combine(_scratch.FullName, name);

    public abstract Task<DriverWindow> RunAsync(TimeSpan duration, CancellationToken cancellationToken);

    /// <summary>The tool's window in whole seconds, and the limitation to record when that differs from what was asked.</summary>
    protected static (int Seconds, string? Limitation) WholeSeconds(string tool, TimeSpan duration)
    {
        var seconds = (int)Math.Ceiling(duration.TotalSeconds);
        return (seconds, seconds == duration.TotalSeconds ? null : $"duration: {tool} takes whole seconds, so the window was {seconds} s");
    }

    /// <summary>Runs the tool with a hard limit well past its own window, so a hung tool cannot hang the run.</summary>
    protected Task<ToolRun> RunToolAsync(string path, System.Collections.Generic.IEnumerable<string> args, string? cpuList, int seconds, CancellationToken cancellationToken) =>
        ToolProcess.RunAsync(path, args, cpuList, TimeSpan.FromSeconds(seconds) + Timeout + TimeSpan.FromSeconds(10), cancellationToken);

    protected static string I(int value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>Why neither tool measures an https target, after its name: both speak TLS through OpenSSL, but not as the in-process drivers count it.</summary>
    public static string NotOverTls(string tool) =>
        $"{tool} counts the bytes it reads after TLS has decrypted them, not the TLS records on the wire, and never checks the certificate: " +
        "an https target's byte figures would not be the wire's (the socket and httpclient drivers measure https)";

    public void Dispose() => _scratch.Delete(recursive: true);
}
