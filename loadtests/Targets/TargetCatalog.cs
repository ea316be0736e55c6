using System;
using System.Collections.Generic;
using System.Linq;

namespace Comparator.Targets;

/// <summary>Every target the comparator knows, available or not.</summary>
public static class TargetCatalog
{
    private const string NuGetGap = "missing: no version in this machine's NuGet source (dotnet restore: NU1101); see issue #2";

    public static IReadOnlyList<TargetDefinition> All { get; } = new[]
    {
        new TargetDefinition("wcf", "CoreWCF WebHttpBinding", ".NET 10", "Kestrel", "WcfService", "WcfService.dll", HostRuntime.DotNet, null)
        {
            UnavailableReason = "CoreWCF.Primitives, CoreWCF.Http, CoreWCF.WebHttp " + NuGetGap,
        },
        new TargetDefinition("webapi", "ASP.NET Web API 2 (OWIN self-host)", "Mono (net472)", "Katana HttpListener", "WebApiService", "WebApiService.exe", HostRuntime.Mono, null)
        {
            UnavailableReason = "Microsoft.AspNet.WebApi.OwinSelfHost, Microsoft.Owin, Microsoft.Owin.Hosting, Microsoft.Owin.Host.HttpListener and Owin " + NuGetGap,
        },
        // Web API 2's own pipeline on .NET 10, without Mono or HttpListener; bridged without OWIN (Katana is not in the NuGet source).
        new TargetDefinition("webapi-kestrel", "ASP.NET Web API 2 (System.Web.Http 5.2.7, HttpServer bridge)", ".NET 10", "Kestrel", "WebApiKestrelService", "WebApiKestrelService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: null),
        new TargetDefinition("aspnetcore", "ASP.NET Core controllers ([ApiController])", ".NET 10", "Kestrel", "AspNetCoreService", "AspNetCoreService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: null),
        new TargetDefinition("minimal", "ASP.NET Core minimal APIs", ".NET 10", "Kestrel", "MinimalApiService", "MinimalApiService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: null),
        new TargetDefinition("kestrel", "bare request delegate", ".NET 10", "Kestrel", "KestrelService", "KestrelService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: null),
        // The managed HttpListener always writes a Server header; the service sends it empty.
        new TargetDefinition("httplistener", "bare System.Net.HttpListener", ".NET 10", "managed HttpListener", "HttpListenerService", "HttpListenerService.dll", HostRuntime.DotNet, ServerHeaderWhenOff: ""),
    };

    public static IEnumerable<TargetDefinition> Available => All.Where(t => t.IsAvailable);

    public static TargetDefinition? Find(string name) =>
        All.FirstOrDefault(t => string.Equals(t.Name, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>
    /// Resolves a --targets list ("all" or comma-separated names). Unknown names and names of
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
