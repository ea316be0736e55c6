using System;
using System.Text;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.KestrelHosting;
using Microsoft.AspNetCore.Http;

namespace Comparator.KestrelService;

/// <summary>
/// The contract as one request delegate: no routing, no MVC, no middleware. Error answers carry
/// no body, so no exception text can leak.
/// </summary>
public static class ContractHandler
{
    public static async Task HandleAsync(HttpContext context)
    {
        var request = context.Request;
        var response = context.Response;
        try
        {
            switch (request.Path.Value)
            {
                case Routes.Time when HttpMethods.IsGet(request.Method):
                    await ContractBodies.WriteBufferedAsync(response, ContentTypes.Text, Encoding.UTF8.GetBytes(TimeText.Now()));
                    return;
                case Routes.Json when HttpMethods.IsGet(request.Method):
                    var raw = request.Query[Routes.JsonItemsParameter];
                    if (!JsonSample.TryParseItems(raw.Count == 0 ? null : raw[0], out var items))
                    {
                        response.StatusCode = StatusCodes.Status400BadRequest;
                        return;
                    }
                    await ContractBodies.WriteBufferedAsync(response, ContentTypes.Json, Encoding.UTF8.GetBytes(JsonSample.Serialize(JsonSample.Create(items))));
                    return;
                case Routes.Echo when HttpMethods.IsPost(request.Method):
                    if (ContractBodies.RefuseOversize(context)) return;
                    await ContractBodies.WriteBufferedAsync(response, ContentTypes.Binary, await ContractBodies.ReadAsync(request));
                    return;
                case Routes.StreamEcho when HttpMethods.IsPut(request.Method):
                    if (ContractBodies.RefuseOversize(context)) return;
                    await ContractBodies.StreamEchoAsync(context);
                    return;
                case Routes.Time:
                case Routes.Json:
                case Routes.Echo:
                case Routes.StreamEcho:
                    response.StatusCode = StatusCodes.Status405MethodNotAllowed;
                    return;
                default:
                    response.StatusCode = StatusCodes.Status404NotFound;
                    return;
            }
        }
        catch (BadHttpRequestException e) when (!response.HasStarted)
        {
            // Kestrel's own verdict on the request, e.g. 413 when the body passes MaxRequestBodySize.
            response.StatusCode = e.StatusCode;
        }
    }
}
