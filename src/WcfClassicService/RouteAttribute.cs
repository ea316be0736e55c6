using System;
using System.Reflection;
using System.ServiceModel.Description;
using System.ServiceModel.Web;

namespace Comparator.WcfClassicService
{
    /// <summary>The contract route (a Routes constant) an operation answers.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class RouteAttribute : Attribute
    {
        /// <summary>The base address every route hangs under; UriTemplates are relative to it.</summary>
        public const string ApiPrefix = "/api/";

        public RouteAttribute(string path) => Path = path;

        public string Path { get; }

        /// <summary>"/api/stream/echo" becomes "stream/echo", the template under the base address http://host:port/api.</summary>
        public static string Template(string route)
        {
            if (!route.StartsWith(ApiPrefix, StringComparison.Ordinal)) throw new ArgumentException("route outside " + ApiPrefix + ": " + route);
            return route.Substring(ApiPrefix.Length);
        }

        /// <summary>Sets each operation's WebGet/WebInvoke UriTemplate from its [Route]; runs before the host opens.</summary>
        public static void ApplyTemplates(ContractDescription contract)
        {
            foreach (var operation in contract.Operations)
            {
                var route = operation.SyncMethod?.GetCustomAttribute<RouteAttribute>();
                if (route == null) continue;
                var template = Template(route.Path);
                var get = operation.Behaviors.Find<WebGetAttribute>();
                if (get != null) get.UriTemplate = template;
                var invoke = operation.Behaviors.Find<WebInvokeAttribute>();
                if (invoke != null) invoke.UriTemplate = template;
            }
        }
    }
}
