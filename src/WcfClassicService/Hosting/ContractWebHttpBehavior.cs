using System;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;

namespace Comparator.WcfClassicService.Hosting
{
    /// <summary>
    /// WebHttpBehavior with the HTTP answers the contract needs: 404 for an unknown path and 405 for a
    /// known path with the wrong method (Mono's selector matches on the URI only, so without this a
    /// DELETE /api/echo would run Echo), any failure as a bare 500 with no exception text, and the
    /// Server header blanked unless --server-header.
    /// </summary>
    public sealed class ContractWebHttpBehavior : WebHttpBehavior
    {
        private readonly bool _serverHeader;

        public ContractWebHttpBehavior(bool serverHeader) => _serverHeader = serverHeader;

        protected override WebHttpDispatchOperationSelector GetOperationSelector(ServiceEndpoint endpoint) =>
            new MethodAwareOperationSelector(endpoint);

        public override void ApplyDispatchBehavior(ServiceEndpoint endpoint, EndpointDispatcher endpointDispatcher)
        {
            base.ApplyDispatchBehavior(endpoint, endpointDispatcher);
            var unhandled = endpointDispatcher.DispatchRuntime.UnhandledDispatchOperation;
            unhandled.Invoker = new UnmatchedRequestInvoker();
            unhandled.DeserializeRequest = false;
            unhandled.SerializeReply = false;
            endpointDispatcher.ChannelDispatcher.ErrorHandlers.Add(new BareErrorHandler());
            if (!_serverHeader) endpointDispatcher.DispatchRuntime.MessageInspectors.Add(new BlankServerHeaderInspector());
        }

        /// <summary>Error answers carry a status code and nothing else: no fault body, no exception text.</summary>
        private sealed class BareErrorHandler : IErrorHandler
        {
            public bool HandleError(Exception error) => false;

            public void ProvideFault(Exception error, MessageVersion version, ref Message fault) =>
                fault = HttpAnswers.Status(System.Net.HttpStatusCode.InternalServerError);
        }
    }
}
