using System;

namespace Comparator.WcfClassicService.Hosting
{
    public enum TransportKind
    {
        /// <summary>The project's WCF transport over System.Net.HttpListener (Transport/).</summary>
        Listener,
        /// <summary>WCF's own HTTP transport: plain WebHttpBinding.</summary>
        Stock,
    }

    public static class TransportKinds
    {
        /// <summary>
        /// Mono's stock transport serves ~10 requests/s (its dispatcher sleeps 100 ms per reply
        /// channel), so Mono defaults to the listener transport; .NET Framework's stock one is sound.
        /// </summary>
        public static TransportKind Default => IsMono ? TransportKind.Listener : TransportKind.Stock;

        public static bool IsMono { get; } = Type.GetType("Mono.Runtime") != null;

        public static bool TryParse(string? value, out TransportKind kind)
        {
            kind = Default;
            switch (value)
            {
                case "listener": kind = TransportKind.Listener; return true;
                case "stock": kind = TransportKind.Stock; return true;
                default: return false;
            }
        }
    }
}
