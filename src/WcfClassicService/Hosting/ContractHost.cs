using System;
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
    /// <summary>Builds and opens the ServiceHost: one WebHttp endpoint at http://address:port/api on the chosen transport.</summary>
    public static class ContractHost
    {
        public static IDisposable Start(ServiceOptions options, TransportKind transport)
        {
            var baseAddress = new Uri(options.BaseUrl + RouteAttribute.ApiPrefix.TrimEnd('/'));
            var host = new ServiceHost(typeof(ContractService), baseAddress);
            var listener = transport == TransportKind.Listener ? new ListenerTransportBindingElement(options) : null;
            var binding = listener != null ? ListenerBinding(listener) : StockBinding(options);
            var endpoint = host.AddServiceEndpoint(typeof(IContractService), binding, "");
            RouteAttribute.ApplyTemplates(endpoint.Contract);
            endpoint.Behaviors.Add(new ContractWebHttpBehavior(options.ServerHeader));
            // ServiceHost adds a help page on the base address over WCF's own HTTP transport by default:
            // on Mono it binds the port before this endpoint's transport can, and it is not the contract.
            var debug = host.Description.Behaviors.Find<ServiceDebugBehavior>();
            if (debug != null) { debug.HttpHelpPageEnabled = false; debug.HttpsHelpPageEnabled = false; }
            if (listener != null)
            {
                // One call per channel at a time: let the dispatcher take every channel the transport offers.
                host.Description.Behaviors.Add(new ServiceThrottlingBehavior
                {
                    MaxConcurrentCalls = listener.ChannelCount,
                    MaxConcurrentSessions = listener.ChannelCount,
                    MaxConcurrentInstances = listener.ChannelCount,
                });
            }

            try
            {
                host.Open();
                listener?.WaitForAllChannels(TimeSpan.FromSeconds(30));
            }
            catch (Exception e) when (IsBindFailure(e))
            {
                host.Abort();
                throw new CannotListenException(e.Message, e);
            }
            return new Stopper(host);
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
