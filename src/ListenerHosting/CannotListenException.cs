using System;

namespace Comparator.ListenerHosting
{
    /// <summary>Thrown by a service's start when its address and port cannot be bound: exit 3, so the launcher tries another port.</summary>
    public sealed class CannotListenException : Exception
    {
        public CannotListenException(string message, Exception? inner = null) : base(message, inner) { }
    }
}
