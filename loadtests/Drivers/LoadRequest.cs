using System;
using System.Text;
using Comparator.Contracts;

namespace Comparator.Drivers;

/// <summary>
/// The request a cell repeats, and what every response must be to count as a success: the exact
/// bytes where the contract fixes them (echo, json), otherwise an exact length and prefix (time).
/// </summary>
public sealed record LoadRequest(EndpointSpec Endpoint, Uri Url, byte[]? Body, byte[]? ExpectedBody, int? ExpectedLength, byte[]? ExpectedPrefix)
{
    public static LoadRequest For(EndpointSpec endpoint, Uri baseUrl, byte[] payload, int jsonItems)
    {
        if (endpoint == Endpoints.Time)
            return new LoadRequest(endpoint, new Uri(baseUrl, Routes.Time), null, null, TimeText.Length, Encoding.ASCII.GetBytes(TimeText.Prefix));
        if (endpoint == Endpoints.Json)
        {
            var expected = Encoding.UTF8.GetBytes(JsonSample.Serialize(JsonSample.Create(jsonItems)));
            return new LoadRequest(endpoint, new Uri(baseUrl, $"{Routes.Json}?{Routes.JsonItemsParameter}={jsonItems}"), null, expected, expected.Length, null);
        }
        return new LoadRequest(endpoint, new Uri(baseUrl, endpoint.Path), payload, payload, payload.Length, null);
    }
}
