using System;
using System.Collections.Generic;
using System.Linq;

namespace Comparator.Contracts
{
    /// <summary>The contract every target implements, in the order reports list it.</summary>
    public static class Endpoints
    {
        public static readonly EndpointSpec Time =
            new EndpointSpec("time", "GET", Routes.Time, sendsBody: false, Framing.ContentLength, ContentTypes.Text);

        public static readonly EndpointSpec Json =
            new EndpointSpec("json", "GET", Routes.Json, sendsBody: false, Framing.ContentLength, ContentTypes.Json);

        public static readonly EndpointSpec EchoPost =
            new EndpointSpec("echo-post", "POST", Routes.Echo, sendsBody: true, Framing.ContentLength, ContentTypes.Binary);

        public static readonly EndpointSpec EchoPut =
            new EndpointSpec("echo-put", "PUT", Routes.StreamEcho, sendsBody: true, Framing.Chunked, ContentTypes.Binary);

        public static IReadOnlyList<EndpointSpec> All { get; } = new[] { Time, Json, EchoPost, EchoPut };

        /// <summary>Finds an endpoint by its short name; null when there is none.</summary>
        public static EndpointSpec? Find(string name) =>
            All.FirstOrDefault(e => string.Equals(e.Name, name, StringComparison.OrdinalIgnoreCase));
    }
}
