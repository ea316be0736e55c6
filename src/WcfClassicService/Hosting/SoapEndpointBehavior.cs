using System;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;

namespace Comparator.WcfClassicService.Hosting
{
    /// <summary>
    /// Sends a request whose action no operation has to WCF's unhandled operation, which answers with
    /// an ActionNotSupported SOAP fault (HTTP 500). Without this, Mono 6.8's dispatcher rejects such a
    /// message while matching endpoints (ChannelDispatcher.FindEndpointDispatcher throws
    /// ActionNotSupportedException) and, on a duplex channel, builds the fault and drops it: nothing is
    /// sent. The fault is still WCF's: a MessageFault the binding's encoder writes, with the code and
    /// namespace .NET Framework's dispatcher uses for the same mismatch. Also blanks the Server header
    /// unless --server-header, as the WebHttp endpoint does.
    /// </summary>
    public sealed class SoapEndpointBehavior : IEndpointBehavior
    {
        private readonly bool _serverHeader;

        public SoapEndpointBehavior(bool serverHeader) => _serverHeader = serverHeader;

        /// <summary>AddressingVersion.None's namespace (internal in WCF): where ActionNotSupported lives for SOAP 1.1.</summary>
        private const string NoAddressingNamespace = "http://schemas.microsoft.com/ws/2005/05/addressing/none";

        public void ApplyDispatchBehavior(ServiceEndpoint endpoint, EndpointDispatcher endpointDispatcher)
        {
            endpointDispatcher.ContractFilter = new MatchAllMessageFilter();
            var unhandled = endpointDispatcher.DispatchRuntime.UnhandledDispatchOperation;
            unhandled.Invoker = new ActionNotSupportedInvoker();
            unhandled.DeserializeRequest = false;
            unhandled.SerializeReply = false;
            if (!_serverHeader) endpointDispatcher.DispatchRuntime.MessageInspectors.Add(new BlankServerHeaderInspector());
        }

        public void AddBindingParameters(ServiceEndpoint endpoint, BindingParameterCollection bindingParameters) { }
        public void ApplyClientBehavior(ServiceEndpoint endpoint, ClientRuntime clientRuntime) { }
        public void Validate(ServiceEndpoint endpoint) { }

        private sealed class ActionNotSupportedInvoker : IOperationInvoker
        {
            public bool IsSynchronous => true;

            public object[] AllocateInputs() => new object[1];

            public object Invoke(object instance, object[] inputs, out object[] outputs)
            {
                outputs = new object[0];
                var request = (Message)inputs[0];
                var code = new FaultCode("ActionNotSupported", NoAddressingNamespace);
                var reason = "The message with Action '" + request.Headers.Action + "' cannot be processed at the receiver: no operation of this contract has that action.";
                return Message.CreateMessage(request.Version, MessageFault.CreateFault(code, reason), null);
            }

            public IAsyncResult InvokeBegin(object instance, object[] inputs, AsyncCallback callback, object state) => throw new NotSupportedException();

            public object InvokeEnd(object instance, out object[] outputs, IAsyncResult result) => throw new NotSupportedException();
        }
    }
}
