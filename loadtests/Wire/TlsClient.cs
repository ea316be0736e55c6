using System.IO;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Threading;
using System.Threading.Tasks;

namespace Comparator.Wire;

/// <summary>
/// The client side of TLS for an https:// target, one policy for every reader (verification, the socket
/// driver, the httpclient driver): the certificate must validate for the URL's host, unless --insecure
/// accepts one that does not (a self-signed certificate). The TLS version and ciphers are the runtime's
/// defaults (OpenSSL's on Linux), so both drivers negotiate alike.
/// </summary>
public static class TlsClient
{
    public static bool IsHttps(Uri url) => url.Scheme == Uri.UriSchemeHttps;

    /// <summary>
    /// The certificate check: with <paramref name="insecure"/> any certificate passes; otherwise only one
    /// without policy errors. What the validation found wrong goes to <paramref name="notValid"/> either way.
    /// </summary>
    public static RemoteCertificateValidationCallback Validation(bool insecure, Action<string>? notValid = null) =>
        (_, _, chain, errors) =>
        {
            if (errors != SslPolicyErrors.None) notValid?.Invoke(Reason(errors, chain));
            return insecure || errors == SslPolicyErrors.None;
        };

    /// <summary>
    /// The TLS handshake over <paramref name="transport"/> (the connection's counted stream, so every TLS record
    /// is counted as the wire carries it). A certificate that does not validate, without <paramref name="insecure"/>,
    /// throws <see cref="UntrustedCertificateException"/>; <paramref name="notValid"/> hears what --insecure let pass.
    /// </summary>
    public static async Task<SslStream> AuthenticateAsync(Stream transport, Uri url, bool insecure, CancellationToken cancellationToken,
        Action<string>? notValid = null)
    {
        string? reason = null;
        var tls = new SslStream(transport, leaveInnerStreamOpen: false);
        try
        {
            await tls.AuthenticateAsClientAsync(new SslClientAuthenticationOptions
            {
                TargetHost = url.IdnHost,
                RemoteCertificateValidationCallback = Validation(insecure, r => reason = r),
            }, cancellationToken);
            if (reason is not null) notValid?.Invoke(reason);
            return tls;
        }
        catch (AuthenticationException e) when (reason is not null && !insecure)
        {
            await tls.DisposeAsync();
            throw new UntrustedCertificateException(url, reason, e);
        }
        catch
        {
            await tls.DisposeAsync();
            throw;
        }
    }

    /// <summary>
    /// One connection and handshake to an https target, closed at once: "TLS 1.3, TLS_AES_256_GCM_SHA384,
    /// certificate validated". A certificate that does not validate without <paramref name="insecure"/> throws
    /// <see cref="UntrustedCertificateException"/>; an unreachable target a SocketException, IOException or TimeoutException.
    /// </summary>
    public static async Task<string> DescribeAsync(Uri url, bool insecure, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        using var client = new TcpClient { NoDelay = true };
        try
        {
            await client.ConnectAsync(url.Host, url.Port, deadline.Token);
            string? accepted = null;
            await using var tls = await AuthenticateAsync(client.GetStream(), url, insecure, deadline.Token, r => accepted = r);
            return $"{Protocol(tls.SslProtocol)}, {tls.NegotiatedCipherSuite}, " +
                   (accepted is null ? "certificate validated" : $"certificate not validated (--insecure: {accepted})");
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutException($"no TLS handshake with {url.GetLeftPart(UriPartial.Authority)} within {timeout.TotalSeconds:0.#} s");
        }
    }

    /// <summary>"TLS 1.3" for SslProtocols.Tls13.</summary>
    private static string Protocol(SslProtocols protocol) => protocol switch
    {
        SslProtocols.Tls13 => "TLS 1.3",
        SslProtocols.Tls12 => "TLS 1.2",
        var other => other.ToString(),
    };

    /// <summary>What the validation found: the policy errors, and for a chain error each status of the chain ("UntrustedRoot: self-signed certificate").</summary>
    private static string Reason(SslPolicyErrors errors, X509Chain? chain)
    {
        var statuses = chain?.ChainStatus.Select(s => string.IsNullOrWhiteSpace(s.StatusInformation) ? s.Status.ToString() : $"{s.Status}: {s.StatusInformation.ReplaceLineEndings(" ").Trim().TrimEnd('.')}")
            .Distinct().ToList() ?? new List<string>();
        return errors.ToString() + (errors.HasFlag(SslPolicyErrors.RemoteCertificateChainErrors) && statuses.Count > 0 ? $" ({string.Join("; ", statuses)})" : "");
    }
}

/// <summary>An https target whose certificate does not validate, and --insecure was not given: what the validation found.</summary>
public sealed class UntrustedCertificateException : AuthenticationException
{
    public UntrustedCertificateException(Uri url, string reason, Exception inner)
        : base($"{url.GetLeftPart(UriPartial.Authority)}: the certificate does not validate: {reason}", inner)
    {
        Reason = reason;
    }

    /// <summary>The policy errors and chain statuses, as the TLS validation gave them.</summary>
    public string Reason { get; }
}
