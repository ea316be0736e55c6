using System;
using System.Globalization;

namespace Comparator.Contracts
{
    /// <summary>
    /// The command line every service takes, parsed in one place so all stacks behave alike:
    /// <c>--port N</c> (default 5000), <c>--address A</c> (default 127.0.0.1: loopback unless told
    /// otherwise), <c>--server-header</c> (send a Server header; off by default),
    /// <c>--max-body-bytes N</c> (default 16 MiB; 413 above it), <c>--tcp-nodelay on|off</c> (default
    /// on: answers leave without Nagle's delay, as Kestrel's do by default; off keeps the host's stock
    /// socket behaviour), <c>--min-threads N</c> (raise the thread pool's minimum of worker threads to N,
    /// so up to N blocked threads are replaced at once rather than one every half second; unset by
    /// default: only a named variant passes it, never every target), <c>--stop-on-stdin-close</c> (stop
    /// cleanly when standard input ends: how the launcher stops its targets, <see cref="StdinWatch"/>),
    /// <c>--ports FIRST-LAST</c> (the range the comparator chose the port from, so a service refused its
    /// URL names the reservation of the whole range).
    /// </summary>
    public sealed class ServiceOptions
    {
        public string Address { get; private set; } = "127.0.0.1";
        public int Port { get; private set; } = 5000;
        public bool ServerHeader { get; private set; }
        public long MaxBodyBytes { get; private set; } = ServiceLimits.DefaultMaxBodyBytes;
        public bool TcpNoDelay { get; private set; } = true;
        /// <summary>The thread pool's minimum of worker threads the service sets at start, or null: the runtime's default.</summary>
        public int? MinThreads { get; private set; }
        public bool StopOnStdinClose { get; private set; }
        /// <summary>--ports: the comparator's range of ports ("8100-8199"), or null; the port itself is --port.</summary>
        public string? PortRange { get; private set; }

        public string BaseUrl => "http://" + (Address.Contains(":") ? "[" + Address + "]" : Address) + ":" + Port.ToString(CultureInfo.InvariantCulture);

        public const string Usage = "options: --port N (1-65535) --address IP (default 127.0.0.1) --server-header --max-body-bytes N --tcp-nodelay on|off --min-threads N --ports FIRST-LAST " + StdinWatch.Switch;

        /// <summary>Parses the arguments; on error returns null and a one-line message.</summary>
        public static ServiceOptions? Parse(string[] args, out string error)
        {
            var o = new ServiceOptions();
            error = "";
            for (var i = 0; i < args.Length; i++)
            {
                var a = args[i];
                string? Next() => i + 1 < args.Length ? args[++i] : null;
                switch (a)
                {
                    case "--port":
                        if (!int.TryParse(Next(), NumberStyles.None, CultureInfo.InvariantCulture, out var port) || port < 1 || port > 65535)
                        { error = "--port needs a number from 1 to 65535"; return null; }
                        o.Port = port;
                        break;
                    case "--address":
                        var addr = Next();
                        if (addr == null || !System.Net.IPAddress.TryParse(addr, out _))
                        { error = "--address needs an IP address, e.g. 127.0.0.1"; return null; }
                        o.Address = addr;
                        break;
                    case "--server-header":
                        o.ServerHeader = true;
                        break;
                    case "--max-body-bytes":
                        if (!long.TryParse(Next(), NumberStyles.None, CultureInfo.InvariantCulture, out var max) || max < 1)
                        { error = "--max-body-bytes needs a positive number of bytes"; return null; }
                        o.MaxBodyBytes = max;
                        break;
                    case "--tcp-nodelay":
                        var value = Next();
                        if (value != "on" && value != "off")
                        { error = "--tcp-nodelay needs on or off"; return null; }
                        o.TcpNoDelay = value == "on";
                        break;
                    case "--min-threads":
                        if (!int.TryParse(Next(), NumberStyles.None, CultureInfo.InvariantCulture, out var min) || min < 1 || min > 32767)
                        { error = "--min-threads needs a number of threads from 1 to 32767"; return null; }
                        o.MinThreads = min;
                        break;
                    case StdinWatch.Switch:
                        o.StopOnStdinClose = true;
                        break;
                    case "--ports":
                        var range = Next();
                        if (!IsPortRange(range))
                        { error = "--ports needs a range of ports such as 8100-8199"; return null; }
                        o.PortRange = range;
                        break;
                    default:
                        error = "unknown option '" + a + "'; " + Usage;
                        return null;
                }
            }
            return o;
        }

        private static bool IsPortRange(string? text)
        {
            var parts = (text ?? "").Split('-');
            if (parts.Length > 2) return false;
            var previous = 1;
            foreach (var part in parts)
            {
                if (!int.TryParse(part, NumberStyles.None, CultureInfo.InvariantCulture, out var port) || port < previous || port > 65535) return false;
                previous = port;
            }
            return true;
        }

        /// <summary>Applies --min-threads, keeping the I/O completion minimum; false when the runtime refused it (above its maximum).</summary>
        public bool ApplyMinThreads()
        {
            if (MinThreads is not int min) return true;
            System.Threading.ThreadPool.GetMinThreads(out _, out var io);
            return System.Threading.ThreadPool.SetMinThreads(min, io);
        }
    }
}
