using System;
using System.Collections.Generic;
using System.IO;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Comparator.KestrelHosting;

/// <summary>
/// <c>--certificate FILE.pfx</c> and <c>--certificate-password PW</c>: a Kestrel target then listens on
/// HTTPS with that certificate, as a service deployed behind TLS is reached. Kestrel targets only (the
/// HttpListener stacks have no such option), so both are taken out of the arguments before the shared
/// <see cref="Contracts.ServiceOptions"/> parses the rest.
/// </summary>
public static class HttpsCertificate
{
    public const string Usage = "Kestrel targets also: --certificate FILE.pfx [--certificate-password PW] (listen on HTTPS)";

    /// <summary>
    /// The arguments without the certificate's, and the certificate loaded (null when none was asked);
    /// false with a one-line <paramref name="error"/> for a missing value, an unreadable file or a wrong password.
    /// </summary>
    public static bool TryTake(string[] args, out string[] rest, out X509Certificate2? certificate, out string error)
    {
        var others = new List<string>();
        string? path = null, password = null;
        certificate = null;
        error = "";
        rest = args;
        for (var i = 0; i < args.Length; i++)
        {
            if (args[i] is not ("--certificate" or "--certificate-password"))
            {
                others.Add(args[i]);
                continue;
            }
            if (i + 1 >= args.Length)
            {
                error = args[i] + " needs a value; " + Usage;
                return false;
            }
            if (args[i] == "--certificate") path = args[++i];
            else password = args[++i];
        }
        rest = others.ToArray();
        if (path is null)
        {
            if (password is null) return true;
            error = "--certificate-password without --certificate; " + Usage;
            return false;
        }
        if (!File.Exists(path))
        {
            error = "--certificate: no file at " + path;
            return false;
        }
        try
        {
            certificate = X509CertificateLoader.LoadPkcs12FromFile(path, password);
        }
        catch (CryptographicException e)
        {
            error = $"--certificate {path}: not readable as a PKCS#12 (.pfx) file with {(password is null ? "no password" : "that password")}: {e.Message}";
            return false;
        }
        if (!certificate.HasPrivateKey)
        {
            error = $"--certificate {path}: the file holds no private key, so it cannot serve TLS";
            return false;
        }
        return true;
    }

    /// <summary>The base URL with the https scheme when a certificate is served.</summary>
    public static string BaseUrl(string httpBaseUrl, X509Certificate2? certificate) =>
        certificate is null ? httpBaseUrl : "https" + httpBaseUrl.Substring("http".Length);
}
