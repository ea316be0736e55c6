using System.Net;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Dispatcher;

namespace Comparator.WcfClassicService.Hosting
{
    /// <summary>
    /// Mono's HttpListener writes "Server: Mono-HTTPAPI/1.0" unless the reply sets one; an empty one
    /// hides the stack. Added to every endpoint unless --server-header.
    /// </summary>
    internal sealed class BlankServerHeaderInspector : IDispatchMessageInspector
    {
        public object? AfterReceiveRequest(ref Message request, IClientChannel channel, InstanceContext instanceContext) => null;

        public void BeforeSendReply(ref Message reply, object correlationState)
        {
            if (reply == null) return;
            HttpAnswers.ResponseProperty(reply).Headers[HttpResponseHeader.Server] = "";
        }
    }
}
