using System.Threading.Tasks;
using Comparator.KestrelHosting;
using Microsoft.AspNetCore.Builder;

namespace Comparator.KestrelService;

public static class Program
{
    /// <summary>No services, no routing, no middleware: one request delegate for every request.</summary>
    public static Task<int> Main(string[] args) =>
        KestrelServiceHost.RunAsync("KestrelService", args, _ => { }, app => app.Run(ContractHandler.HandleAsync));
}
