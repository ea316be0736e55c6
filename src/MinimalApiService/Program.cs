using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.KestrelHosting;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Comparator.MinimalApiService;

/// <summary>
/// The contract as minimal API endpoints. Results.Text and Results.Bytes write a Content-Length;
/// the stream echo starts its response with no length, so it is chunked.
/// </summary>
public static class Program
{
    public static Task<int> Main(string[] args) =>
        KestrelServiceHost.RunAsync("MinimalApiService", args, services => services.AddRouting(), Map);

    private static void Map(IEndpointRouteBuilder app)
    {
        app.MapGet(Routes.Time, () => Results.Text(TimeText.Now(), ContentTypes.Text));

        // Serialized by Newtonsoft.Json with the contract's settings, so the bytes equal every other stack's.
        app.MapGet(Routes.Json, ([FromQuery(Name = Routes.JsonItemsParameter)] string? items) =>
            JsonSample.TryParseItems(items, out var count)
                ? Results.Text(JsonSample.Serialize(JsonSample.Create(count)), ContentTypes.Json)
                : Results.BadRequest());

        app.MapPost(Routes.Echo, async (HttpContext context) =>
            ContractBodies.RefuseOversize(context)
                ? Results.Empty
                : Results.Bytes(await ContractBodies.ReadAsync(context.Request), ContentTypes.Binary));

        app.MapPut(Routes.StreamEcho, async (HttpContext context) =>
        {
            if (!ContractBodies.RefuseOversize(context)) await ContractBodies.StreamEchoAsync(context);
        });
    }
}
