using System;

namespace Comparator.Contracts
{
    /// <summary>
    /// The one line a service prints on stdout once it is listening. The launcher waits for it
    /// and takes the base URL from it, so a service bound to a port it chose itself still works.
    /// </summary>
    public static class ReadyLine
    {
        public const string Marker = "COMPARATOR-READY ";

        public static string Format(string baseUrl) => Marker + baseUrl.TrimEnd('/');

        public static bool TryParse(string? line, out string baseUrl)
        {
            baseUrl = "";
            if (line == null || !line.StartsWith(Marker, StringComparison.Ordinal)) return false;
            baseUrl = line.Substring(Marker.Length).Trim();
            return Uri.TryCreate(baseUrl, UriKind.Absolute, out _);
        }
    }
}
