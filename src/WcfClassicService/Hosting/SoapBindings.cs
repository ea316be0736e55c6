using System;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Text;
using System.Xml;
using Comparator.Contracts;
using Comparator.WcfClassicService.Transport;

namespace Comparator.WcfClassicService.Hosting
{
    /// <summary>The SOAP endpoint's bindings: BasicHttpBinding's message model (SOAP 1.1, no WS-Addressing, UTF-8 text) on either transport.</summary>
    public static class SoapBindings
    {
        /// <summary>What BasicHttpBinding builds (its text encoder over HTTP), with the project's transport under it.</summary>
        public static Binding Listener(ListenerTransportBindingElement transport)
        {
            var encoding = new TextMessageEncodingBindingElement(MessageVersion.Soap11, new UTF8Encoding(false));
            XmlDictionaryReaderQuotas.Max.CopyTo(encoding.ReaderQuotas);
            return new CustomBinding(encoding, transport);
        }

        /// <summary>WCF's own HTTP transport: plain BasicHttpBinding, buffered, at the body limit.</summary>
        public static Binding Stock(ServiceOptions options) =>
            new BasicHttpBinding
            {
                MaxReceivedMessageSize = options.MaxBodyBytes,
                MaxBufferSize = (int)Math.Min(options.MaxBodyBytes, int.MaxValue),
                ReaderQuotas = XmlDictionaryReaderQuotas.Max,
            };
    }
}
