using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.KestrelHosting;
using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Configuration;
using CoreWCF.Description;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace Comparator.WcfService;

/// <summary>
/// CoreWCF on Kestrel: two WebHttpBinding endpoints of one service and a BasicHttpBinding (SOAP 1.1)
/// one at /soap. The streamed echo gets its own endpoint (TransferMode.StreamedResponse); it and the
/// SOAP endpoint are registered first: CoreWCF branches requests by endpoint address in registration
/// order, and the buffered WebHttp endpoint sits at the root.
/// </summary>
public static class Program
{
    public static Task<int> Main(string[] args)
    {
        if (IStreamContractService.Address + "/" + IStreamContractService.EchoTemplate != Routes.StreamEcho)
            throw new System.InvalidOperationException("the stream endpoint's address and template no longer make " + Routes.StreamEcho);
        return KestrelServiceHost.RunAsync("WcfService", args,
            services => services.AddSingleton<ContractService>().AddServiceModelServices().AddServiceModelWebServices(),
            (app, options) => Map(app, options.MaxBodyBytes),
            kestrel => kestrel.AllowSynchronousIO = true); // CoreWCF's streamed response writes synchronously
    }

    private static void Map(WebApplication app, long maxBodyBytes)
    {
        app.Use(CorrectConnectionHeader);
        app.UseServiceModel(builder =>
        {
            builder.AddService<ContractService>();
            builder.AddServiceWebEndpoint<ContractService, IStreamContractService>(Binding(TransferMode.StreamedResponse, maxBodyBytes), IStreamContractService.Address, ConfigureWebHttp);
            builder.AddServiceEndpoint<ContractService, ISoapContract>(SoapBinding(maxBodyBytes), Routes.Soap);
            builder.AddServiceWebEndpoint<ContractService, IContractService>(Binding(TransferMode.Buffered, maxBodyBytes), "/", ConfigureWebHttp);
        });
    }

    /// <summary>
    /// CoreWCF writes "Connection: keep-alive" on every HTTP/1.1 answer (HttpRequestContext.GetHttpOutput,
    /// from the binding's KeepAliveEnabled), even when the client sent "Connection: close" or the body
    /// is over the limit, and Kestrel then closes the connection anyway. A declared body over the
    /// limit is refused here with 413 and "Connection: close" before CoreWCF sees it, as on every
    /// other Kestrel target; an answer to a request that asked to close says so.
    /// </summary>
    private static Task CorrectConnectionHeader(HttpContext context, RequestDelegate next)
    {
        if (ContractBodies.RefuseOversize(context)) return Task.CompletedTask;
        if (context.Request.Headers.Connection.ToString().Contains("close", System.StringComparison.OrdinalIgnoreCase))
        {
            context.Response.OnStarting(static state =>
            {
                ((HttpResponse)state).Headers.Connection = "close";
                return Task.CompletedTask;
            }, context.Response);
        }
        return next(context);
    }

    private static WebHttpBinding Binding(TransferMode transferMode, long maxBodyBytes)
    {
        var bufferSize = (int)System.Math.Min(maxBodyBytes, int.MaxValue);
        return new WebHttpBinding
        {
            TransferMode = transferMode,
            MaxReceivedMessageSize = maxBodyBytes,
            MaxBufferSize = bufferSize,
            ReaderQuotas = { MaxArrayLength = bufferSize, MaxBytesPerRead = bufferSize, MaxStringContentLength = bufferSize },
        };
    }

    /// <summary>SOAP 1.1, buffered (answers with Content-Length), at the same body limit, reader quotas at their maximum.</summary>
    private static BasicHttpBinding SoapBinding(long maxBodyBytes) =>
        new()
        {
            MaxReceivedMessageSize = maxBodyBytes,
            MaxBufferSize = (int)System.Math.Min(maxBodyBytes, int.MaxValue),
            ReaderQuotas = System.Xml.XmlDictionaryReaderQuotas.Max,
        };

    private static void ConfigureWebHttp(CoreWCF.Description.WebHttpBehavior behavior)
    {
        behavior.HelpEnabled = false;
        behavior.FaultExceptionEnabled = false;
        behavior.AutomaticFormatSelectionEnabled = false;
    }
}
