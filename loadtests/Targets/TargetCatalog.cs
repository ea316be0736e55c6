namespace Comparator.Targets;

/// <summary>Every target the comparator knows, available or not.</summary>
public static class TargetCatalog
{
    /// <summary>wcf-minthreads' pool minimum: above the 115 threads the starved echo-put grew to at the default 100 connections.</summary>
    public const int WcfMinThreads = 256;

    /// <summary>wcf's thread-pool workers under the simulator: one blocked on CoreWCF's synchronous write, one for Kestrel's completion.</summary>
    public const int WcfSimulatedWorkers = 2;

    public static IReadOnlyList<TargetDefinition> All { get; } = OutsideCheckout(new[]
    {
        // The named twins: built by scripts/build.sh wherever their packages restore (src/WcfService,
        // src/WebApiService); elsewhere the reason says which package ids restore did not find.
        // Under the simulator two pool workers: CoreWCF's streamed echo-put blocks its worker on synchronous I/O until Kestrel's
        // completion runs on another, so with the pass's one worker a 64 KB echo-put never answered (docs/named-twins.md).
        new TargetDefinition("wcf", "CoreWCF WebHttpBinding (CoreWCF 1.9.1)", ".NET 10", "Kestrel", "WcfService", "WcfService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: null)
        {
            UnavailableReason = OptionalBuild.Reason("WcfService", "WcfService.dll"),
            SimulatedWorkers = WcfSimulatedWorkers,
        },
        // CoreWCF's streamed mode writes and reads synchronously, one blocked pool thread per answer in
        // flight; the pool adds threads one every half second beyond its minimum. An opt-in variant
        // with the minimum raised, measured only when named, never applied to wcf itself.
        new TargetDefinition("wcf-minthreads", "CoreWCF WebHttpBinding (CoreWCF 1.9.1), thread-pool minimum " + WcfMinThreads, ".NET 10", "Kestrel", "WcfService", "WcfService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: null)
        {
            UnavailableReason = OptionalBuild.Reason("WcfService", "WcfService.dll"),
            VariantOf = "wcf",
            SimulatedWorkers = WcfSimulatedWorkers,
            VariantArguments = new[] { "--min-threads", WcfMinThreads.ToString(System.Globalization.CultureInfo.InvariantCulture) },
        },
        new TargetDefinition("webapi", "ASP.NET Web API 2 (System.Web.Http 5.2.7, OWIN self-host: Katana 4.2.2)", FrameworkRuntime, "Katana HttpListener (" + FrameworkListener + ")", "WebApiService", "WebApiService.exe", HostRuntime.NetFramework, ServerHeaderWhenOff: "")
        {
            UnavailableReason = OptionalBuild.Reason("WebApiService", "WebApiService.exe") ?? MonoRuntime.MissingReason,
        },
        // Web API 2's own pipeline on .NET 10, without Mono or HttpListener; bridged without OWIN (Katana is not in the NuGet source).
        new TargetDefinition("webapi-kestrel", "ASP.NET Web API 2 (System.Web.Http 5.2.7, HttpServer bridge)", ".NET 10", "Kestrel", "WebApiKestrelService", "WebApiKestrelService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: null),
        new TargetDefinition("aspnetcore", "ASP.NET Core controllers ([ApiController])", ".NET 10", "Kestrel", "AspNetCoreService", "AspNetCoreService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: null),
        new TargetDefinition("minimal", "ASP.NET Core minimal APIs", ".NET 10", "Kestrel", "MinimalApiService", "MinimalApiService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: null),
        new TargetDefinition("kestrel", "bare request delegate", ".NET 10", "Kestrel", "KestrelService", "KestrelService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: null),
        // The managed HttpListener always writes a Server header; the service sends it empty.
        new TargetDefinition("httplistener", "bare System.Net.HttpListener", ".NET 10", "managed HttpListener", "HttpListenerService", "HttpListenerService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: "")
        {
            TargetFramework = "net10.0",
        },

        // The .NET Framework lane: net472 exes, under Mono here and directly on Windows. Mono's
        // HttpListener writes "Server: Mono-HTTPAPI/1.0" unless the response sets one; these
        // services set it empty, as httplistener does on .NET 10.
        new TargetDefinition("wcf-classic", "classic WCF WebHttp (System.ServiceModel.Web: [WebGet]/[WebInvoke], WebHttpBehavior, WebMessageEncoding)", FrameworkRuntime, FrameworkWcfServer, "WcfClassicService", "WcfClassicService.exe", HostRuntime.NetFramework, ServerHeaderWhenOff: "")
        {
            UnavailableReason = MonoRuntime.MissingReason,
            // On .NET Framework it runs on WCF's own transport (TransportKinds.Default), as wcf-classic-stock does.
            DeclaredFramingDeviations = OperatingSystem.IsWindows() ? StockTransportFraming() : new Dictionary<string, string>(),
        },
        new TargetDefinition("wcf-classic-stock", "classic WCF WebHttp on WebHttpBinding, stock HTTP transport", FrameworkRuntime, "WCF's own HTTP transport (" + FrameworkListener + ")", "WcfClassicService", "WcfClassicService.exe", HostRuntime.NetFramework, ServerHeaderWhenOff: "")
        {
            UnavailableReason = MonoRuntime.MissingReason,
            VariantOf = "wcf-classic",
            VariantArguments = new[] { "--transport", "stock" },
            DeclaredFramingDeviations = StockTransportFraming(),
        },
        new TargetDefinition("webapi-selfhost", "ASP.NET Web API 2 (System.Web.Http 5.2.7, HttpServer on HttpListener)", FrameworkRuntime, FrameworkListener, "WebApiSelfHostService", "WebApiSelfHostService.exe", HostRuntime.NetFramework, ServerHeaderWhenOff: "")
        {
            UnavailableReason = MonoRuntime.MissingReason,
        },
        new TargetDefinition("httplistener-mono", "bare System.Net.HttpListener", FrameworkRuntime, FrameworkListener, "HttpListenerService", "HttpListenerService.exe", HostRuntime.NetFramework, ServerHeaderWhenOff: "")
        {
            UnavailableReason = MonoRuntime.MissingReason,
            TargetFramework = "net472",
        },
    });

    /// <summary>Installed as a .NET tool, without the repository, no target is built: each says how to get them.</summary>
    private static IReadOnlyList<TargetDefinition> OutsideCheckout(TargetDefinition[] all) =>
        BuildLayout.Discover().IsCheckout ? all : all.Select(t => t with { UnavailableReason = BuildLayout.NotInCheckout }).ToArray();

    /// <summary>
    /// WCF's own HTTP transport runs WebHttpBinding buffered (its default transfer mode, ContractHost.StockBinding):
    /// echo-put's streamed reply leaves whole, with Content-Length, under Mono and on .NET Framework alike.
    /// </summary>
    private static Dictionary<string, string> StockTransportFraming() => new()
    {
        ["echo-put"] = "WCF's own HTTP transport, buffered (WebHttpBinding's default transfer mode), sends a streamed reply whole with Content-Length",
    };

    /// <summary>What runs a net472 exe here: Mono on Linux, .NET Framework on Windows.</summary>
    private static string FrameworkRuntime =>
        OperatingSystem.IsWindows() ? ".NET Framework 4.7.2+ (net472)" : "Mono " + (MonoRuntime.Version ?? "") + " (net472)";

    private static string FrameworkListener => OperatingSystem.IsWindows() ? "HttpListener (HTTP.sys)" : "Mono HttpListener";

    /// <summary>On Mono, wcf-classic runs on the project's HttpListener transport (Mono's stock one stalls 100 ms per request).</summary>
    private static string FrameworkWcfServer => OperatingSystem.IsWindows() ? "WCF's own HTTP transport (HTTP.sys)" : "Mono HttpListener via the project's WCF transport";

    public static IEnumerable<TargetDefinition> Available => All.Where(t => t.IsAvailable);

    /// <summary>
    /// The pairs that answer the main question, WCF against Web API, best first: the named twins
    /// (CoreWCF and Web API 2 on OwinSelfHost); else classic WCF and Web API 2 self-hosted on the same
    /// runtime and listener. The second of each pair is the baseline of the ratios.
    /// </summary>
    private static readonly (string Wcf, string WebApi, string Why)[] Pairs =
    {
        ("wcf", "webapi", "the named twins: CoreWCF on Kestrel against Web API 2 on OwinSelfHost"),
        ("wcf-classic", "webapi-selfhost", "classic WCF against Web API 2, both self-hosted on the same runtime and HttpListener"),
    };

    /// <summary>The first pair whose two targets both run here, or null (then `run` measures every available target).</summary>
    public static DefaultPair? Pair =>
        Pairs.Select(p => (Wcf: Find(p.Wcf)!, WebApi: Find(p.WebApi)!, p.Why))
            .Where(p => p.Wcf.IsAvailable && p.WebApi.IsAvailable)
            .Select(p => new DefaultPair(p.Wcf, p.WebApi, p.Why))
            .FirstOrDefault();

    /// <summary>Why the default pair is not the best one: the targets of better pairs that cannot run here.</summary>
    public static IEnumerable<TargetDefinition> MissingFromBetterPairs()
    {
        foreach (var (wcf, webApi, _) in Pairs)
        {
            var pair = new[] { Find(wcf)!, Find(webApi)! };
            if (pair.All(t => t.IsAvailable)) yield break;
            foreach (var t in pair.Where(t => !t.IsAvailable)) yield return t;
        }
    }

    /// <summary>What `run` measures with no --targets: the default pair, or every available target when no pair runs here.</summary>
    public static IReadOnlyList<TargetDefinition> DefaultRunTargets =>
        Pair is DefaultPair p ? new[] { p.Wcf, p.Baseline } : Available.ToList();

    public static TargetDefinition? Find(string name) =>
        All.FirstOrDefault(t => string.Equals(t.Name, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>
    /// Resolves a --targets list ("all" or comma-separated names; none means all). Unknown names and names of
    /// targets that cannot run here are errors with one line that says why.
    /// </summary>
    public static IReadOnlyList<TargetDefinition> Resolve(string? list, out string error)
    {
        error = "";
        if (string.IsNullOrWhiteSpace(list) || list.Trim().Equals("all", StringComparison.OrdinalIgnoreCase))
            return Available.ToList();
        var result = new List<TargetDefinition>();
        foreach (var raw in list.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var target = Find(raw);
            if (target is null)
            {
                error = $"unknown target '{raw}'; known: {string.Join(", ", All.Select(t => t.Name))}";
                return Array.Empty<TargetDefinition>();
            }
            if (!target.IsAvailable)
            {
                error = $"target '{target.Name}' cannot run on this machine: {target.UnavailableReason}";
                return Array.Empty<TargetDefinition>();
            }
            if (!result.Contains(target)) result.Add(target);
        }
        return result;
    }
}

/// <summary>The default comparison: a WCF target against a Web API target, the latter the ratios' baseline.</summary>
public sealed record DefaultPair(TargetDefinition Wcf, TargetDefinition Baseline, string Why);
