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
            services => services.AddControllers().AddNewtonsoftJson(o => JsonSample.ApplySettings(o.SerializerSettings)),
            app => app.MapControllers());
}
