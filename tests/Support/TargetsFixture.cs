using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using System.Threading.Tasks;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// Starts every target that can run here as a real child process on loopback, twice: once with
/// the defaults, once with the Server header on and a small body limit. Shared by the whole
/// conformance collection, so each process starts once per test run.
/// </summary>
public sealed class TargetsFixture : IAsyncLifetime
{
    public const long SmallBodyLimit = 1000;

    private readonly Dictionary<string, RunningTarget> _defaults = new();
    private readonly Dictionary<string, RunningTarget> _flagged = new();

    /// <summary>
    /// The targets the conformance collection runs against: every one that runs here but measurement
    /// variants (the stock WCF transport: the same service as wcf-classic, kept to measure Mono's
    /// 100 ms stall; it cannot chunk, which its catalogue entry declares), or only those named in
    /// COMPARATOR_TEST_TARGETS (comma-separated), to work on one stack without starting all.
    /// </summary>
    public static IReadOnlyList<TargetDefinition> UnderTest { get; } = SelectUnderTest();

    public static IEnumerable<object[]> TargetNames => UnderTest.Select(t => new object[] { t.Name });

    private static IReadOnlyList<TargetDefinition> SelectUnderTest()
    {
        var only = Environment.GetEnvironmentVariable("COMPARATOR_TEST_TARGETS");
        if (string.IsNullOrWhiteSpace(only)) return TargetCatalog.Available.Where(t => t.VariantOf is null).ToList();
        var names = only.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return TargetCatalog.Available.Where(t => names.Contains(t.Name, StringComparer.OrdinalIgnoreCase)).ToList();
    }

    public HttpClient Http { get; } = new(new SocketsHttpHandler { PooledConnectionLifetime = TimeSpan.FromSeconds(30) })
    {
        Timeout = TimeSpan.FromSeconds(30),
    };

    public TargetLauncher Launcher { get; } = new(BuildLayout.Discover());

    public RunningTarget Default(string name) => _defaults[name];

    public RunningTarget Flagged(string name) => _flagged[name];

    public async Task InitializeAsync()
    {
        TestTiers.RefuseInQuickTier("the targets' services");
        var flagged = new ServiceSwitches(ServerHeader: true, MaxBodyBytes: SmallBodyLimit);
        foreach (var target in UnderTest)
        {
            _defaults[target.Name] = await Launcher.StartAsync(target, ServiceSwitches.Default);
            _flagged[target.Name] = await Launcher.StartAsync(target, flagged);
        }
    }

    public async Task DisposeAsync()
    {
        Http.Dispose();
        foreach (var running in _defaults.Values.Concat(_flagged.Values))
            await running.DisposeAsync();
    }
}

/// <summary>The running services the conformance and abuse tests share; their load is the machine's own, so the collection runs alone (TestTiers.Alone).</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class TargetsCollection : ICollectionFixture<TargetsFixture>
{
    public const string Name = "targets";
}
