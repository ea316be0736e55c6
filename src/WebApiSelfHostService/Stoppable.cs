using System;

namespace Comparator.WebApiSelfHostService
{
    /// <summary>Stops the listener first (no new requests), then releases Web API's server.</summary>
    internal sealed class Stoppable : IDisposable
    {
        private readonly IDisposable[] _parts;
        public Stoppable(params IDisposable[] parts) => _parts = parts;
        public void Dispose() { foreach (var part in _parts) part.Dispose(); }
    }
}
