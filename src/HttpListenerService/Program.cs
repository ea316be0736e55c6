using Comparator.ListenerHosting;

namespace Comparator.HttpListenerService
{
    public static class Program
    {
        public static int Main(string[] args) =>
            ServiceProcess.Run("HttpListenerService", args, options => ListenerService.Start(options, new ContractHandler(options).HandleAsync));
    }
}
