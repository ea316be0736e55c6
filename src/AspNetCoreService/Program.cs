using System.Text.Json.Serialization;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.KestrelHosting;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace Comparator.AspNetCoreService;

public static class Program
{
    /// <summary>
    /// MVC as a new project has it (AddControllers, MapControllers), with Newtonsoft.Json as its JSON
    /// formatter (Microsoft.AspNetCore.Mvc.NewtonsoftJson) set to the contract's settings.
    /// </summary>
    public static Task<int> Main(string[] args) =>
        KestrelServiceHost.RunAsync("AspNetCoreService", args,
            services =>
            {
                services.AddControllers().AddNewtonsoftJson(o => JsonSample.ApplySettings(o.SerializerSettings));
                // The OpenAPI document's schemas are built with System.Text.Json's options, which MVC does not
                // use here: set them to what the contract's JSON is (Newtonsoft: the properties' own names,
                // numbers only as numbers; System.Text.Json's web default camel-cases and reads numbers from strings).
                services.ConfigureHttpJsonOptions(o =>
                {
                    o.SerializerOptions.PropertyNamingPolicy = null;
                    o.SerializerOptions.NumberHandling = JsonNumberHandling.Strict;
                });
                services.AddOpenApi(o => o.AddOperationTransformer<OpenApiInputs>());
            },
            app =>
            {
                app.MapControllers();
                app.MapOpenApi();
            });
}
