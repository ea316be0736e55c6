using System;

namespace Comparator.Contracts
{
    /// <summary>
    /// The line a service prints before its ready line to say what it did with TCP_NODELAY, read back
    /// from its sockets where the host lets it: "COMPARATOR-TCP-NODELAY on: ...". The launcher keeps
    /// the text in the run's target list, so a report can show how every target answered.
    /// </summary>
    public static class SocketFact
    {
        public const string Marker = "COMPARATOR-TCP-NODELAY ";

        public static string Format(string fact) => Marker + fact;

        public static bool TryParse(string? line, out string fact)
        {
            fact = "";
            if (line == null || !line.StartsWith(Marker, StringComparison.Ordinal)) return false;
            fact = line.Substring(Marker.Length).Trim();
            return fact.Length > 0;
        }
    }
}
