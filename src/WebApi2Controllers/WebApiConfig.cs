using System.Web.Http;
using Comparator.Contracts;

namespace Comparator.WebApi2
{
    /// <summary>Web API 2 configuration shared by every host: the contract's routes, the JSON settings, no error details.</summary>
    public static class WebApiConfig
    {
        public static HttpConfiguration Create()
        {
            var config = new HttpConfiguration();
            Map(config, "time", Routes.Time, nameof(ContractController.Time));
            Map(config, "json", Routes.Json, nameof(ContractController.JsonArray));
            Map(config, "echo", Routes.Echo, nameof(ContractController.Echo));
            Map(config, "stream-echo", Routes.StreamEcho, nameof(ContractController.StreamEcho));

            // JSON: Web API's formatter, with the contract's Newtonsoft settings so every stack sends the same bytes.
            JsonSample.ApplySettings(config.Formatters.JsonFormatter.SerializerSettings);
            // Security default: an error answer never carries exception text.
            config.IncludeErrorDetailPolicy = IncludeErrorDetailPolicy.Never;
            config.EnsureInitialized();
            return config;
        }

        /// <summary>Web API route templates have no leading slash; the paths come from the one route table.</summary>
        private static void Map(HttpConfiguration config, string name, string path, string action) =>
            config.Routes.MapHttpRoute(name, path.TrimStart('/'), new { controller = "Contract", action });
    }
}
