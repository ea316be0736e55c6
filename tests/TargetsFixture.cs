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

    public static IEnumerable<object[]> TargetNames => TargetCatalog.Available.Select(t => new object[] { t.Name });

    public HttpClient Http { get; } = new(new SocketsHttpHandler { PooledConnectionLifetime = TimeSpan.FromSeconds(30) })
    {
        Timeout = TimeSpan.FromSeconds(30),
    };

    public TargetLauncher Launcher { get; } = new(BuildLayout.Discover());

    public RunningTarget Default(string name) => _defaults[name];

    public RunningTarget Flagged(string name) => _flagged[name];

    public async Task InitializeAsync()
    {
        var flagged = new ServiceSwitches(ServerHeader: true, MaxBodyBytes: SmallBodyLimit);
        foreach (var target in TargetCatalog.Available)
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

[CollectionDefinition(Name)]
public sealed class TargetsCollection : ICollectionFixture<TargetsFixture>
{
    public const string Name = "targets";
}
