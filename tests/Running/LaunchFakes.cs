using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;

namespace Comparator.Tests;

/// <summary>A target the <see cref="FakeLauncher"/> "started": no process (no CPU is sampled), a made-up URL nothing connects to; the test says when it exits.</summary>
public sealed class FakeTarget(string name, int start, Uri baseUrl) : IStartedTarget
{
    public string Name => name;

    /// <summary>Which start of this target it is, from 0: the launch, where every launch started it.</summary>
    public int Start => start;

    public Uri BaseUrl => baseUrl;
    public int? ProcessId => null;
    /// <summary>A word of this start's own, so a test can tell which target and which start a recorded word came from.</summary>
    public string? TcpNoDelay => $"on: {name} start {start}'s word";
    public bool HasExited { get; set; }
    public bool Stopped { get; private set; }

    public ValueTask DisposeAsync()
    {
        Stopped = true;
        return ValueTask.CompletedTask;
    }
}

/// <summary>Starts nothing: counts every start, in order, and answers it with a <see cref="FakeTarget"/>, or refuses it as the real launcher does (<see cref="LaunchException"/>).</summary>
/// <param name="refuse">why the given start (from 0) of the named target fails, or null when it starts</param>
public sealed class FakeLauncher(Func<string, int, string?>? refuse = null) : ITargetLauncher
{
    /// <summary>The names of the targets asked to start, in order, refused ones included.</summary>
    public List<string> Starts { get; } = new();

    public List<FakeTarget> Started { get; } = new();

    public Task<IStartedTarget> StartAsync(TargetDefinition target, ServiceSwitches switches, CancellationToken cancellationToken, string? cpuList)
    {
        var start = Starts.Count(n => n == target.Name);
        Starts.Add(target.Name);
        if (refuse?.Invoke(target.Name, start) is string why) throw new LaunchException($"target '{target.Name}' {why}");
        var started = new FakeTarget(target.Name, start, new Uri($"http://{target.Name}-{start}.invalid/"));
        Started.Add(started);
        return Task.FromResult<IStartedTarget>(started);
    }

    /// <summary>The started target a request is addressed to.</summary>
    public FakeTarget At(Uri url) => Started.Single(t => t.BaseUrl.Authority == url.Authority);
}

/// <summary>One window the <see cref="FakeDriver"/> was asked for: the target (and which start of it) and the cell's endpoint.</summary>
public sealed record FakeCall(FakeTarget Target, string Endpoint)
{
    public override string ToString() => $"{Target.Name}{Target.Start} {Endpoint}";
}

/// <summary>
/// A driver that sends nothing: every window returns at once with the requests/s the test chooses for its call
/// (over one second, no failure, the driver at a tenth of a core), after the test's hook has seen it.
/// </summary>
public sealed class FakeDriver(FakeLauncher launcher, Func<FakeCall, double> requestsPerSecond, Action<FakeCall>? onWindow = null) : ILoadDriver
{
    /// <summary>Every window asked for, in order.</summary>
    public List<FakeCall> Calls { get; } = new();

    public string Name => "fake";
    public string Description => "a test's driver: figures chosen by the test, returned at once";
    public string? CannotMeasure(LoadRequest request, bool keepAlive) => null;

    public IDriverSession Open(LoadRequest request, int concurrency, bool keepAlive, TimeSpan requestTimeout) =>
        new Session(this, new FakeCall(launcher.At(request.Url), request.Name));

    private DriverWindow Run(FakeCall call)
    {
        Calls.Add(call);
        onWindow?.Invoke(call);
        var requests = (long)Math.Round(requestsPerSecond(call));
        return new DriverWindow(requests, 0, 0, 0, 0, 1.0, new LatencySummary(1, 1, 2, 3, 4), requests * 200, requests * 100, requests * 50, 1, 0.1,
            Array.Empty<string>(), Array.Empty<string>());
    }

    private sealed class Session(FakeDriver driver, FakeCall call) : IDriverSession
    {
        public Task<DriverWindow> RunAsync(TimeSpan duration, CancellationToken cancellationToken) => Task.FromResult(driver.Run(call));

        public void Dispose() { }
    }
}

/// <summary>Progress kept as lines, for a test to read.</summary>
public sealed class RecordedProgress : IRunProgress
{
    public List<string> Lines { get; } = new();
    public void Message(string line) => Lines.Add(line);
    public void CellStarted(int index, int total, string label, double secondsLeft) { }
    public void CellFinished(string label, string outcome) => Lines.Add($"{label}: {outcome}");
}
