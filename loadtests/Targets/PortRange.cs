using System.Net;
using System.Net.Sockets;

namespace Comparator.Targets;

/// <summary>
/// --ports FIRST-LAST: the ports the comparator starts its targets on, instead of any free one. On
/// Windows an HttpListener target (HTTP.sys) run without elevation may listen only on URLs reserved
/// for the user, one reservation a port (netsh http add urlacl): a range reserved once covers every
/// launch. The range is also passed to each target, so a target refused its port prints the
/// reservation of the whole range.
/// </summary>
public sealed record PortRange(int First, int Last)
{
    public const string Example = "8100-8199";

    /// <summary>"8100-8199" (or one port, "8100"); false for anything else, a port outside 1-65535 or a range that runs backwards.</summary>
    public static bool TryParse(string text, out PortRange? range)
    {
        range = null;
        var parts = text.Trim().Split('-');
        if (parts.Length is < 1 or > 2) return false;
        var ports = new List<int>();
        foreach (var part in parts)
        {
            if (!int.TryParse(part, NumberStyles.None, CultureInfo.InvariantCulture, out var port) || port < 1 || port > 65535) return false;
            ports.Add(port);
        }
        if (ports[^1] < ports[0]) return false;
        range = new PortRange(ports[0], ports[^1]);
        return true;
    }

    public override string ToString() => First == Last ? First.ToString(CultureInfo.InvariantCulture) : $"{First}-{Last}";

    public bool Contains(int port) => port >= First && port <= Last;

    /// <summary>
    /// A port of the range free on loopback at the moment of asking, searched from a random start so
    /// that the launches of a run spread over the range and a port just released is not asked at once.
    /// </summary>
    public int FreePort()
    {
        var count = Last - First + 1;
        var start = Random.Shared.Next(count);
        for (var i = 0; i < count; i++)
        {
            var port = First + (start + i) % count;
            if (IsFree(port)) return port;
        }
        throw new LaunchException($"--ports {this}: every port of the range is taken");
    }

    /// <summary>Whether nothing listens on loopback at this port at the moment of asking.</summary>
    internal static bool IsFree(int port)
    {
        var probe = new TcpListener(IPAddress.Loopback, port);
        try
        {
            probe.Start();
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
        finally
        {
            probe.Stop();
        }
    }
}
