using System;
using System.Collections.Generic;
using System.Net;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;
using System.ServiceModel.Web;

namespace Comparator.WcfClassicService.Hosting
{
    /// <summary>
    /// Picks the operation by path AND method, as .NET Framework's selector does and Mono's does not
    /// (Mono's WebHttpDispatchOperationSelector.SelectOperation matches the URI only). When nothing
    /// matches it returns "" (the unhandled operation) and records 404 or 405 on the message for
    /// <see cref="UnmatchedRequestInvoker"/>. Paths are matched against the base address whatever
    /// the request's Host header said.
    /// </summary>
    public sealed class MethodAwareOperationSelector : WebHttpDispatchOperationSelector
    {
        public const string UnmatchedStatusProperty = "Comparator.UnmatchedStatus";
        /// <summary>Where WebOperationContext.IncomingRequest.UriTemplateMatch is read from.</summary>
        public const string UriTemplateMatchProperty = "UriTemplateMatchResults";

        private readonly Uri _baseAddress;
        private readonly List<(UriTemplate Template, string Method, string Operation)> _table = new List<(UriTemplate, string, string)>();

        public MethodAwareOperationSelector(ServiceEndpoint endpoint)
        {
            _baseAddress = endpoint.Address.Uri;
            foreach (var operation in endpoint.Contract.Operations)
            {
                var get = operation.Behaviors.Find<WebGetAttribute>();
                var invoke = operation.Behaviors.Find<WebInvokeAttribute>();
                var template = get?.UriTemplate ?? invoke?.UriTemplate;
                if (template == null) continue;
                _table.Add((new UriTemplate(template), get != null ? "GET" : invoke!.Method ?? "POST", operation.Name));
            }
        }

        protected override string SelectOperation(ref Message message, out bool uriMatched)
        {
            uriMatched = false;
            var to = message.Headers.To;
            var method = (message.Properties.TryGetValue(HttpRequestMessageProperty.Name, out var p) ? (p as HttpRequestMessageProperty)?.Method : null) ?? "";
            if (to != null)
            {
                var candidate = new Uri(_baseAddress, to.PathAndQuery);
                foreach (var (template, allowed, operation) in _table)
                {
                    var match = template.Match(_baseAddress, candidate);
                    if (match == null) continue;
                    uriMatched = true;
                    if (!string.Equals(method, allowed, StringComparison.Ordinal)) continue;
                    message.Properties[UriTemplateMatchProperty] = match;
                    return operation;
                }
            }
            message.Properties[UnmatchedStatusProperty] = uriMatched ? HttpStatusCode.MethodNotAllowed : HttpStatusCode.NotFound;
            return "";
        }
    }

    /// <summary>The unhandled operation: answers the 404 or 405 the selector decided, with no body.</summary>
    public sealed class UnmatchedRequestInvoker : IOperationInvoker
    {
        public bool IsSynchronous => true;

        public object[] AllocateInputs() => new object[1];

        public object Invoke(object instance, object[] inputs, out object[] outputs)
        {
            outputs = new object[0];
            var request = inputs.Length > 0 ? inputs[0] as Message : null;
            var status = request != null && request.Properties.TryGetValue(MethodAwareOperationSelector.UnmatchedStatusProperty, out var s) && s is HttpStatusCode code
                ? code : HttpStatusCode.NotFound;
            return HttpAnswers.Status(status);
        }

        public IAsyncResult InvokeBegin(object instance, object[] inputs, AsyncCallback callback, object state) => throw new NotSupportedException();

        public object InvokeEnd(object instance, out object[] outputs, IAsyncResult result) => throw new NotSupportedException();
    }
}
