using Comparator.ListenerHosting;
using Comparator.WebApi2;

namespace Comparator.WebApiSelfHostService
{
    public static class Program
    {
        public static int Main(string[] args) =>
            ServiceProcess.Run("WebApiSelfHostService", args, options =>
            {
                var adapter = new ListenerWebApiAdapter(WebApiConfig.Create(), options);
                var listener = ListenerService.Start(options, adapter.HandleAsync);
                return new Stoppable(listener, adapter);
            });
    }
}
