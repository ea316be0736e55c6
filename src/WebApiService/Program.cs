using System;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Web.Http;
using System.Web.Http.ExceptionHandling;
using System.Web.Http.Owin;
using Comparator.Contracts;
using Comparator.ListenerHosting;
using Comparator.WebApi2;
using Microsoft.Owin.Hosting;
using Owin;

namespace Comparator.WebApiService
{
    /// <summary>
    /// Web API 2 on Katana's OWIN self-host: WebApp.Start with the HttpListener server
    /// (Microsoft.Owin.Host.HttpListener), the host middleware, then UseWebApi.
    /// </summary>
    public static class Program
    {
        public static int Main(string[] args) =>
            ServiceProcess.Run("WebApiService", args, Start);

        private static IDisposable Start(ServiceOptions options)
        {
            try
            {
                return WebApp.Start(new StartOptions(options.BaseUrl + "/") { ServerFactory = "Microsoft.Owin.Host.HttpListener" },
                    app => Configure(app, options));
            }
            catch (Exception e) when (BindFailure(e) is Exception bind)
            {
                throw new CannotListenException(bind.Message, e);
            }
        }

        private static void Configure(IAppBuilder app, ServiceOptions options)
        {
            // The listener's own settings, as ListenerService has them: a client gone mid-response is not an error.
            if (app.Properties.TryGetValue(typeof(HttpListener).FullName!, out var listener) && listener is HttpListener httpListener)
                httpListener.IgnoreWriteExceptions = true;

            AppBuilderUseExtensions.Use(app, HostMiddleware.Create(options)); // the extension; IAppBuilder.Use(object) would take the Func as a raw OWIN delegate
            // What UseWebApi(server) does, with HostHandler in front of the server: the same adapter, options and services.
            var config = WebApiConfig.Create();
            var server = new HttpServer(config);
            app.Use(typeof(HttpMessageHandlerAdapter), new HttpMessageHandlerOptions
            {
                MessageHandler = new HostHandler(server),
                BufferPolicySelector = config.Services.GetHostBufferPolicySelector() ?? new OwinBufferPolicySelector(),
                ExceptionLogger = ExceptionServices.GetLogger(config),
                ExceptionHandler = ExceptionServices.GetHandler(config),
                AppDisposing = app.Properties.TryGetValue("host.OnAppDisposing", out var disposing) && disposing is CancellationToken token ? token : CancellationToken.None,
            });
        }

        /// <summary>The listener's "address in use" / "access denied", however deep WebApp.Start's reflection wrapped it.</summary>
        private static Exception? BindFailure(Exception e)
        {
            for (var current = e; current != null; current = current.InnerException)
                if (current is HttpListenerException || current is SocketException) return current;
            return null;
        }
    }
}
