using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Reflection;

namespace Comparator.ListenerHosting
{
    /// <summary>
    /// TCP_NODELAY for System.Net.HttpListener, which has no setting for it. Without it a chunked
    /// answer's last 7 bytes (<c>\r\n0\r\n\r\n</c>) wait in Nagle's algorithm for the client's
    /// delayed ACK, about 40 ms on Linux, and every chunked echo measures that timer instead of the
    /// framework. The managed listeners (.NET's on Linux and macOS, Mono's) keep their listening
    /// sockets in an internal endpoint table; the option is set on those, and every connection they
    /// accept inherits it (Linux and the BSDs copy it to the accepted socket). On Windows
    /// HttpListener is HTTP.sys: the kernel owns the connections and there is nothing to set.
    /// </summary>
    public static class ListenerSockets
    {
        // Mono 6.8: System.Net.EndPointManager.ip_to_endpoints, a Hashtable of IPAddress to a Hashtable
        // of port to EndPointListener (field sock). .NET: System.Net.HttpEndPointManager.s_ipEndPoints,
        // a Dictionary of IPAddress to a Dictionary of port to HttpEndPointListener (field _socket).
        private static readonly string[] EndPointManagers = { "System.Net.EndPointManager", "System.Net.HttpEndPointManager" };

        /// <summary>
        /// Sets (on) or leaves alone (off) TCP_NODELAY on every listening socket of this process's
        /// HttpListeners on the port, reads it back and says what it found, for <see cref="Comparator.Contracts.SocketFact"/>.
        /// Throws when a managed listener's sockets cannot be found: a run must not claim a setting it did not make.
        /// </summary>
        public static string ApplyNoDelay(int port, bool on)
        {
            if (Environment.OSVersion.Platform == PlatformID.Win32NT)
                return (on ? "on" : "off") + ": not applied, HttpListener is HTTP.sys here and the kernel owns its connections";
            var sockets = ListeningSockets(port);
            if (sockets.Count == 0)
                throw new InvalidOperationException("--tcp-nodelay: found no listening socket of HttpListener on port " + port +
                                                    " (" + typeof(HttpListener).Assembly.GetName().Name + " keeps them where this build does not look)");
            foreach (var socket in sockets)
                if (on) socket.NoDelay = true;
            var readBack = sockets.Select(s => s.NoDelay ? "on" : "off").Distinct().ToList();
            var state = readBack.Count == 1 ? readBack[0] : "mixed";
            var where = sockets.Count == 1 ? "the listening socket" : sockets.Count + " listening sockets";
            return on
                ? "on: set on " + where + " and read back " + state + "; every accepted connection inherits it"
                : "off: the listener's stock setting, read back " + state + " on " + where;
        }

        private static List<Socket> ListeningSockets(int port)
        {
            var found = new List<Socket>();
            foreach (var name in EndPointManagers)
            {
                var manager = typeof(HttpListener).Assembly.GetType(name);
                if (manager == null) continue;
                foreach (var field in manager.GetFields(BindingFlags.Static | BindingFlags.NonPublic | BindingFlags.Public))
                    if (field.GetValue(null) is IDictionary byAddress)
                        lock (byAddress) // both runtimes lock the table itself when they change it
                            foreach (var byPort in byAddress.Values.OfType<IDictionary>())
                                foreach (var listener in byPort.Values.Cast<object>().Where(l => l != null))
                                    found.AddRange(SocketsOf(listener).Where(s => (s.LocalEndPoint as IPEndPoint)?.Port == port));
            }
            return found;
        }

        private static IEnumerable<Socket> SocketsOf(object listener) =>
            listener.GetType().GetFields(BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public)
                .Where(f => f.FieldType == typeof(Socket))
                .Select(f => f.GetValue(listener) as Socket)
                .Where(s => s != null)
                .Select(s => s!);
    }
}
