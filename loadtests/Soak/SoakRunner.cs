using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.Drivers;
using Comparator.Measuring;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;

namespace Comparator.Soak;

/// <summary>
/// The soak: every target started and verified, then all of them under load at once for the whole
/// duration, each cycling through every endpoint and standard size one window at a time, with every
/// response verified by the in-process driver. RSS is sampled throughout. It measures staying power
/// (errors, memory), not speed: the targets share the cores with each other and with the driver.
/// The duration is planned, two passes are not: growth is judged on the ends of at least
/// <see cref="MemoryGrowth.MinimumPasses"/> passes, so a target whose passes run slower than planned (a slow
/// or shared machine) is loaded past the duration until its second pass ends, and its result says so.
/// </summary>
public sealed class SoakRunner
{
    private static readonly TimeSpan RequestTimeout = TimeSpan.FromSeconds(30);
    private readonly IReadOnlyList<TargetDefinition> _targets;
    private readonly TargetLauncher _launcher;
    private readonly TimeSpan _duration;
    private readonly int _concurrency;
    private readonly Action<string> _progress;
    private readonly ILoadDriver _driver = new HttpClientDriver();

    public SoakRunner(IReadOnlyList<TargetDefinition> targets, TargetLauncher launcher, TimeSpan duration, int concurrency,
        IReadOnlyList<Payload> sizes, Action<string> progress)
    {
        _targets = targets;
        _launcher = launcher;
        _duration = duration;
        _concurrency = concurrency;
        _progress = progress;
        Cells = Endpoints.All.SelectMany(e => e.SendsBody ? sizes.Select(s => new SoakCell(e, s)) : new[] { new SoakCell(e, null) }).ToList();
    }

    /// <summary>What every target is started with (TCP_NODELAY on unless said).</summary>
    public ServiceSwitches Switches { get; init; } = ServiceSwitches.Default;

    /// <summary>One window per cell: a twentieth of the soak, at least 1 s and at most 10 s, so a soak of 8 cells or fewer plans two passes or more.</summary>
    public TimeSpan Window => TimeSpan.FromSeconds(Math.Clamp(_duration.TotalSeconds / 20, 1, 10));

    /// <summary>time, json, and each echo endpoint at every size.</summary>
    public IReadOnlyList<SoakCell> Cells { get; }

    public async Task<SoakResult> RunAsync(CancellationToken stop)
    {
        var startedAt = DateTimeOffset.UtcNow;
        var soaks = new List<TargetSoak>();
        try
        {
            foreach (var target in _targets)
            {
                if (stop.IsCancellationRequested) break;
                soaks.Add(await StartAndVerifyAsync(target, stop));
            }
            var ready = soaks.Where(s => s.NotRunReason is null).ToList();
            if (ready.Count > 0 && !stop.IsCancellationRequested)
            {
                _progress($"soak: {string.Join(", ", ready.Select(s => s.Definition.Name))} under load at once for {_duration.TotalSeconds:0} s, " +
                          $"c={_concurrency} each, {Cells.Count} cells of {Window.TotalSeconds:0.#} s per pass, {MemoryGrowth.MinimumPasses} passes at least");
                var clock = Stopwatch.StartNew();
                using var sampling = CancellationTokenSource.CreateLinkedTokenSource(stop);
                var sampler = SampleRssAsync(ready, clock, sampling.Token);
                await Task.WhenAll(ready.Select(s => LoadAsync(s, clock, stop)));
                foreach (var s in ready) s.Sample(clock.Elapsed.TotalSeconds); // the end, before anything stops
                sampling.Cancel();
                await sampler;
            }
        }
        finally
        {
            foreach (var s in soaks) await s.DisposeAsync();
        }
        var spec = new SoakSpec(_duration.TotalSeconds, _concurrency, Window.TotalSeconds, Cells.Select(c => c.Name).ToList(),
            _driver.Name + ": " + _driver.Description, MemoryGrowth.Rule, MachineDescription.Current(), Switches.TcpNoDelay, MemoryGrowth.MinimumPasses);
        return new SoakResult(SoakResult.CurrentSchemaVersion, spec, startedAt, DateTimeOffset.UtcNow, stop.IsCancellationRequested,
            soaks.Select(s => s.Result()).ToList());
    }

    private async Task<TargetSoak> StartAndVerifyAsync(TargetDefinition target, CancellationToken stop)
    {
        var started = await TargetCheck.StartAndVerifyAsync(_launcher, target.Name, target, null, Switches, cancellationToken: stop);
        if (started.Failure is null) return new TargetSoak(target, started.Running, null);
        await started.DisposeAsync(); // a target that failed its checks is not soaked: stopped now
        return new TargetSoak(target, null, started.Failure);
    }

    private async Task LoadAsync(TargetSoak soak, Stopwatch clock, CancellationToken stop)
    {
        for (var i = 0; !stop.IsCancellationRequested; i++)
        {
            var left = _duration - clock.Elapsed;
            // Past the duration only to finish the passes growth is judged on; those get whole windows.
            var owed = soak.Passes < MemoryGrowth.MinimumPasses;
            if (left <= TimeSpan.Zero && !owed) break;
            if (soak.Running!.HasExited)
            {
                soak.ExitedDuringSoak = true;
                _progress($"soak: {soak.Definition.Name}: the target process exited at {clock.Elapsed.TotalSeconds:0} s");
                break;
            }
            var cell = Cells[i % Cells.Count];
            var request = LoadRequest.For(cell.Endpoint, soak.Running.BaseUrl, cell.Payload?.Bytes ?? Array.Empty<byte>(), JsonSample.DefaultItems);
            using var session = _driver.Open(request, _concurrency, keepAlive: true, RequestTimeout);
            DriverWindow window;
            try
            {
                window = await session.RunAsync(owed || left >= Window ? Window : left, stop);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                break;
            }
            if (stop.IsCancellationRequested) break; // a window cut short by a stop is not counted: its aborted requests are ours
            soak.Add(window);
            if (i % Cells.Count == Cells.Count - 1)
            {
                soak.Passes++;
                if (soak.RssMb() is double passEnd) soak.PassEndsMb.Add(passEnd);
                if (owed && clock.Elapsed > _duration) soak.PastDurationSeconds = Math.Round(clock.Elapsed.TotalSeconds, 1);
                _progress(string.Create(CultureInfo.InvariantCulture,
                    $"soak: {clock.Elapsed.TotalSeconds,5:0} s {soak.Definition.Name}: pass {soak.Passes}, {soak.Requests} requests, {soak.Failed} failed, RSS {soak.RssMb():0.0} MiB"));
            }
        }
    }

    private static async Task SampleRssAsync(IReadOnlyList<TargetSoak> soaks, Stopwatch clock, CancellationToken stop)
    {
        try
        {
            while (!stop.IsCancellationRequested)
            {
                foreach (var s in soaks) s.Sample(clock.Elapsed.TotalSeconds);
                await Task.Delay(TimeSpan.FromSeconds(5), stop);
            }
        }
        catch (OperationCanceledException) { }
    }

    public sealed record SoakCell(EndpointSpec Endpoint, Payload? Payload)
    {
        public string Name => Payload is null ? Endpoint.Name : $"{Endpoint.Name} {Payload.Spec.Label}";
    }

    /// <summary>A target's running tallies while the soak lasts.</summary>
    private sealed class TargetSoak : IAsyncDisposable
    {
        private readonly List<RssSample> _rss = new();
        private readonly List<string> _samples = new();

        public TargetSoak(TargetDefinition definition, IStartedTarget? running, string? notRunReason)
        {
            Definition = definition;
            Running = running;
            NotRunReason = notRunReason;
        }

        public TargetDefinition Definition { get; }
        public IStartedTarget? Running { get; }
        public string? NotRunReason { get; set; }
        public bool ExitedDuringSoak { get; set; }
        public int Passes { get; set; }
        public List<double> PassEndsMb { get; } = new();
        /// <summary>When its load ended, where that was past the duration to finish the passes owed; null otherwise.</summary>
        public double? PastDurationSeconds { get; set; }
        public long Requests { get; private set; }
        public long Failed { get; private set; }
        private long _non2xx, _errors, _timeouts;
        private double _elapsed;

        public void Add(DriverWindow w)
        {
            Requests += w.Requests;
            Failed += w.Failed;
            _non2xx += w.Non2xx;
            _errors += w.Errors;
            _timeouts += w.Timeouts;
            _elapsed += w.ElapsedSeconds;
            foreach (var f in w.FailureSamples) if (_samples.Count < 10 && !_samples.Contains(f)) _samples.Add(f);
        }

        public void Sample(double seconds)
        {
            if (Running is null || Running.HasExited) return;
            if (RssMb() is double mb) lock (_rss) _rss.Add(new RssSample(Math.Round(seconds, 1), mb));
        }

        /// <summary>The target's resident memory now; null where it has no process to read.</summary>
        public double? RssMb() => Running?.ProcessId is int pid ? ProcessSampler.RssMb(pid) : null;

        public SoakTargetResult Result()
        {
            RssSample[] rss;
            lock (_rss) rss = _rss.ToArray();
            var end = rss.Length > 0 ? rss[^1].RssMb : (double?)null;
            var (growth, detail) = NotRunReason is null
                ? MemoryGrowth.Judge(PassEndsMb)
                : (MemoryGrowth.Undetermined, "not run");
            return new SoakTargetResult(Definition.Name, Definition.Stack, Definition.Runtime, Definition.Server, NotRunReason, ExitedDuringSoak,
                Requests, Failed, _non2xx, _errors, _timeouts, _elapsed, Passes, _samples)
            {
                Rss = rss,
                RssAtPassEndsMb = PassEndsMb.ToList(),
                RssStartMb = rss.Length > 0 ? rss[0].RssMb : null,
                RssAfterFirstPassMb = PassEndsMb.Count > 0 ? PassEndsMb[0] : null,
                RssLateMedianMb = MemoryGrowth.LateMedian(PassEndsMb),
                RssEndMb = end,
                RssPeakMb = rss.Length > 0 ? rss.Max(r => r.RssMb) : null,
                Growth = growth,
                GrowthDetail = detail,
                PastDurationSeconds = PastDurationSeconds,
            };
        }

        public async ValueTask DisposeAsync()
        {
            if (Running is not null) await Running.DisposeAsync();
        }
    }
}
