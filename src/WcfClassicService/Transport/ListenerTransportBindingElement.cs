using System;
using System.Collections.Generic;
using System.ServiceModel.Channels;
using System.Threading;
using Comparator.Contracts;

namespace Comparator.WcfClassicService.Transport
{
    /// <summary>
    /// A WCF HTTP transport over System.Net.HttpListener that offers the dispatcher a fixed set of
    /// long-lived duplex channels instead of one reply channel per request. Mono's dispatcher
    /// (ChannelDispatcher.ListenerLoopManager) sleeps 100 ms before accepting every channel and closes
    /// a reply channel after each request, so its stock HTTP transport serves ~10 requests/s; it keeps
    /// receiving on an input/duplex channel without closing it, so these channels are accepted once.
    /// </summary>
    public sealed class ListenerTransportBindingElement : TransportBindingElement
    {
        private readonly Shared _shared;

        public ListenerTransportBindingElement(ServiceOptions options)
        {
            _shared = new Shared(options);
            ManualAddressing = true; // WebHttpBehavior requires it: the To header is the request URI. SOAP 1.1 (AddressingVersion.None) has no addressing headers for it to change.
            MaxReceivedMessageSize = options.MaxBodyBytes;
        }

        private ListenerTransportBindingElement(ListenerTransportBindingElement other) : base(other) => _shared = other._shared;

        public override string Scheme => "http";

        /// <summary>
        /// Channels = requests in the dispatcher at once. Bodies are read before a request reaches a
        /// channel and operations are synchronous CPU work, so two per core keep the cores busy while a
        /// reply is being written (measured on 2 cores, wrk -c100 /api/time: 2 channels ~7.1k/s, 4 ~6.1k,
        /// 8 ~5.8k, 16 ~5.3k, 32 ~6.2k; noisy, more channels only add contention); at least 4 so one
        /// slow reader cannot stall the service, and capped because each costs the dispatcher 100 ms to accept.
        /// </summary>
        public int ChannelCount { get; } = Math.Max(4, Math.Min(64, 2 * Environment.ProcessorCount));

        internal ServiceOptions Options => _shared.Options;

        /// <summary>
        /// Documents answered to a GET of this address by their query ("wsdl", "xsd=xsd0"; see
        /// <see cref="PendingRequest.DocumentQuery"/>), as WCF's own HTTP transport hands such a GET to
        /// ServiceMetadataBehavior's endpoint; made on the first such GET, as that behavior makes them;
        /// null for none. Set before the host opens.
        /// </summary>
        public Lazy<IReadOnlyDictionary<string, byte[]>>? Documents { get => _shared.Documents; set => _shared.Documents = value; }

        public override BindingElement Clone() => new ListenerTransportBindingElement(this);

        public override bool CanBuildChannelListener<TChannel>(BindingContext context) => typeof(TChannel) == typeof(IDuplexChannel);

        public override IChannelListener<TChannel> BuildChannelListener<TChannel>(BindingContext context)
        {
            if (!CanBuildChannelListener<TChannel>(context)) throw new ArgumentException("only IDuplexChannel is offered", nameof(TChannel));
            var listener = new ListenerChannelListener(this, context);
            _shared.Listener = listener;
            return (IChannelListener<TChannel>)(object)listener;
        }

        /// <summary>Blocks until the dispatcher has accepted every channel (100 ms each on Mono), so the ready line means full capacity.</summary>
        public void WaitForAllChannels(TimeSpan timeout)
        {
            var listener = _shared.Listener ?? throw new InvalidOperationException("the host has not built the listener");
            if (!listener.AllChannelsAccepted.Wait(timeout)) Console.Error.WriteLine("WcfClassicService: not every channel was accepted in " + timeout.TotalSeconds + " s; serving with fewer");
        }

        public override T GetProperty<T>(BindingContext context) => context.GetInnerProperty<T>() ?? base.GetProperty<T>(context);

        /// <summary>What every clone shares: WCF clones binding elements freely while building the host.</summary>
        private sealed class Shared
        {
            public Shared(ServiceOptions options) => Options = options;
            public ServiceOptions Options { get; }
            public volatile ListenerChannelListener? Listener;
            public Lazy<IReadOnlyDictionary<string, byte[]>>? Documents;
        }
    }
}
