using System;
using System.Globalization;
using System.Net;
using Comparator.Contracts;

namespace Comparator.ListenerHosting
{
    /// <summary>
    /// On Windows, HttpListener is HTTP.sys (on .NET Framework and on .NET 10 alike, and under WCF's
    /// own HTTP transport), which lets a process that is not elevated listen only on a URL reserved
    /// for its user: without one, starting fails with access denied (Win32 error 5). The service then
    /// exits with one line: the command that reserves its port, or every port of the comparator's
    /// --ports range, so one reservation covers every later launch. The reservation is for http://+:PORT/,
    /// every host name: WCF's own transport registers http://+:PORT/api/ (its strong wildcard), the
    /// listener targets http://127.0.0.1:PORT/.
    /// </summary>
    public static class UrlReservation
    {
        private const int ErrorAccessDenied = 5;

        public static bool IsAccessDenied(Exception e)
        {
            if (Environment.OSVersion.Platform != PlatformID.Win32NT) return false; // elsewhere the listener is managed sockets, not HTTP.sys
            for (var x = e; x != null; x = x.InnerException)
                if ((x is HttpListenerException h && h.ErrorCode == ErrorAccessDenied) || x.GetType().FullName == "System.ServiceModel.AddressAccessDeniedException")
                    return true;
            return false;
        }

        /// <summary>The one line: what was refused and the PowerShell command, run once as administrator, that reserves the port(s).</summary>
        public static string Message(ServiceOptions options)
        {
            var ports = options.PortRange != null ? options.PortRange.Replace("-", "..") : options.Port.ToString(CultureInfo.InvariantCulture);
            var advice = options.PortRange != null ? "" : " (or run the comparator with --ports FIRST-LAST and reserve that range)";
            return "access denied listening on " + options.BaseUrl + "/: HTTP.sys needs this URL reserved for your user, or an elevated prompt; " +
                   "reserve it once in an elevated PowerShell" + advice + ": " +
                   ports + " | % { netsh http add urlacl url=http://+:$_/ user=$env:USERNAME }";
        }
    }
}
