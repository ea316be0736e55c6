using System.Threading.Tasks;
using Comparator.KestrelHosting;
using Comparator.WebApi2;
using Microsoft.AspNetCore.Builder;

namespace Comparator.WebApiKestrelService;

public static class Program
{
    /// <summary>Kestrel with one request delegate: the bridge into Web API 2's HttpServer.</summary>
    public static Task<int> Main(string[] args)
    {
        var bridge = new WebApiBridge(WebApiConfig.Create());
        return KestrelServiceHost.RunAsync("WebApiKestrelService", args, _ => { }, app => app.Run(bridge.HandleAsync));
    }
}
