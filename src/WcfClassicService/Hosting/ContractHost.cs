using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.Xml;
using Comparator.Contracts;
using Comparator.ListenerHosting;
using Comparator.WcfClassicService.Transport;

namespace Comparator.WcfClassicService.Hosting
{
    /// <summary>
    /// Builds and opens the ServiceHost: a WebHttp endpoint at http://address:port/api and a SOAP 1.1
    /// endpoint at http://address:port/soap, both on the chosen transport.
    /// </summary>
    public static class ContractHost
    {
        public static IDisposable Start(ServiceOptions options, TransportKind transport)
        {
            var baseAddress = new Uri(options.BaseUrl + RouteAttribute.ApiPrefix.TrimEnd('/'));
            var host = new ServiceHost(typeof(ContractService), baseAddress);
            // One transport element (so one HttpListener and one set of channels) per endpoint: WCF gives
            // each listen address its own channel dispatcher and channel listener, and Mono's HttpListener
            // shares the port between listeners by prefix, so /api and /soap are routed by the runtime.
            var api = transport == TransportKind.Listener ? new ListenerTransportBindingElement(options) : null;
            var soap = transport == TransportKind.Listener ? new ListenerTransportBindingElement(options) : null;
            var endpoint = host.AddServiceEndpoint(typeof(IContractService), api != null ? ListenerBinding(api) : StockBinding(options), "");
            RouteAttribute.ApplyTemplates(endpoint.Contract);
            endpoint.Behaviors.Add(new ContractWebHttpBehavior(options.ServerHeader));
            var soapEndpoint = host.AddServiceEndpoint(typeof(ISoapContract), soap != null ? SoapBindings.Listener(soap) : SoapBindings.Stock(options), new Uri(options.BaseUrl + Routes.Soap));
            soapEndpoint.Behaviors.Add(new SoapEndpointBehavior(options.ServerHeader));
            PublishWsdl(host, soapEndpoint, soap);
            // ServiceHost adds a help page on the base address over WCF's own HTTP transport by default:
            // on Mono it binds the port before this endpoint's transport can, and it is not the contract.
            var debug = host.Description.Behaviors.Find<ServiceDebugBehavior>();
            if (debug != null) { debug.HttpHelpPageEnabled = false; debug.HttpsHelpPageEnabled = false; }
            if (api != null)
            {
                // One call per channel at a time: let the dispatcher take every channel the transport offers.
                // Mono's throttle is per channel dispatcher (one per endpoint here); .NET Framework's is one
                // for the whole host, so there it must cover both endpoints' channels.
                var limit = TransportKinds.IsMono ? api.ChannelCount : api.ChannelCount + soap!.ChannelCount;
                host.Description.Behaviors.Add(new ServiceThrottlingBehavior
                {
                    MaxConcurrentCalls = limit,
                    MaxConcurrentSessions = limit,
                    MaxConcurrentInstances = limit,
                });
            }

            try
            {
                host.Open();
                api?.WaitForAllChannels(TimeSpan.FromSeconds(30));
                soap?.WaitForAllChannels(TimeSpan.FromSeconds(30));
            }
            catch (Exception e) when (IsBindFailure(e))
            {
                host.Abort();
                throw new CannotListenException(e.Message, e);
            }
            return new Stopper(host);
        }

        /// <summary>
        /// The SOAP endpoint's WSDL at GET /soap?wsdl (its schemas at ?xsd=xsd0, ...), where WCF services
        /// publish it. On WCF's own transport that is ServiceMetadataBehavior (HttpGetEnabled) at the
        /// endpoint's address: .NET Framework's shares the address with the SOAP endpoint and answers the
        /// GETs. Under Mono it cannot serve this host: its ServiceMetadataExtension exports every endpoint
        /// of the host, and Mono's WebMessageEncodingBindingElement throws NotImplementedException from
        /// its WSDL export, so ?wsdl answers an InternalServiceFault (500; served fine with the WebHttp
        /// endpoint removed); and the project's transport opens one HttpListener per address, so a metadata
        /// endpoint there cannot share /soap ("There's another listener for .../soap/"). So on the
        /// project's transport the documents are exported by <see cref="SoapMetadata"/> (the SOAP endpoint
        /// only) and the transport answers the GETs; Mono's stock transport publishes none. The export
        /// waits for the first GET, as WCF's own does: under Mono it costs about 0.5 s (the service was
        /// ready in 1.1 s instead of 0.6 s when it ran before the host opened), which no measured request needs.
        /// </summary>
        private static void PublishWsdl(ServiceHost host, ServiceEndpoint soapEndpoint, ListenerTransportBindingElement? soap)
        {
            if (soap != null) soap.Documents = new Lazy<IReadOnlyDictionary<string, byte[]>>(() => SoapMetadata.Export(soapEndpoint, host.Description));
            else if (!TransportKinds.IsMono)
                host.Description.Behaviors.Add(new ServiceMetadataBehavior { HttpGetEnabled = true, HttpGetUrl = soapEndpoint.Address.Uri });
        }

        /// <summary>The project's transport under WebHttp's encoder: the same Message model as WebHttpBinding.</summary>
        private static Binding ListenerBinding(ListenerTransportBindingElement transport)
        {
            var encoding = new WebMessageEncodingBindingElement { ContentTypeMapper = new RawContentTypeMapper() };
            XmlDictionaryReaderQuotas.Max.CopyTo(encoding.ReaderQuotas);
            return new CustomBinding(encoding, transport);
        }

        /// <summary>WCF's own HTTP transport, buffered (WCF's default), at the body limit.</summary>
        private static Binding StockBinding(ServiceOptions options) =>
            new WebHttpBinding
            {
                MaxReceivedMessageSize = options.MaxBodyBytes,
                MaxBufferSize = (int)Math.Min(options.MaxBodyBytes, int.MaxValue),
                ContentTypeMapper = new RawContentTypeMapper(),
                ReaderQuotas = XmlDictionaryReaderQuotas.Max,
            };

        private static bool IsBindFailure(Exception e)
        {
            for (var x = e; x != null; x = x.InnerException)
                if (x is HttpListenerException || x is SocketException || x is AddressAlreadyInUseException || x is AddressAccessDeniedException || x is CannotListenException)
                    return true;
            return false;
        }

        private sealed class Stopper : IDisposable
        {
            private readonly ServiceHost _host;
            public Stopper(ServiceHost host) => _host = host;

            public void Dispose()
            {
                try { _host.Close(TimeSpan.FromSeconds(2)); }
                catch (Exception) { _host.Abort(); } // stopping anyway: in-flight requests are dropped
            }
        }
    }
}
