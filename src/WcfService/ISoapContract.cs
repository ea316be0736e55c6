using CoreWCF;

namespace Comparator.WcfService;

/// <summary>
/// The SOAP 1.1 contract at <see cref="Comparator.Contracts.Routes.Soap"/> (BasicHttpBinding), the same
/// as wcf-classic's: with this namespace the SOAPAction is "urn:comparator/ISoapContract/Echo" or
/// ".../Time", so one request's bytes fit both targets. Renaming anything here changes the wire.
/// </summary>
[ServiceContract(Namespace = ISoapContract.Namespace)]
public interface ISoapContract
{
    public const string Namespace = "urn:comparator";

    /// <summary>Returns text unchanged, as POST /api/echo returns its body.</summary>
    [OperationContract]
    string Echo(string text);

    /// <summary>The same text as GET /api/time.</summary>
    [OperationContract]
    string Time();
}
