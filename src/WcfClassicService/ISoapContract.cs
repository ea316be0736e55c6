using System.ServiceModel;

namespace Comparator.WcfClassicService
{
    /// <summary>
    /// The SOAP 1.1 contract (BasicHttpBinding semantics) at <see cref="Comparator.Contracts.Routes.Soap"/>:
    /// the operations a migration replaces with their REST equivalents under /api. WCF derives each
    /// action from the namespace, contract and operation names, so the SOAPAction a client sends is
    /// "urn:comparator/ISoapContract/Echo" or ".../Time"; renaming any of them changes the wire.
    /// </summary>
    [ServiceContract(Namespace = SoapContract.Namespace)]
    public interface ISoapContract
    {
        /// <summary>Returns text unchanged, as POST /api/echo returns its body.</summary>
        [OperationContract]
        string Echo(string text);

        /// <summary>The same text as GET /api/time.</summary>
        [OperationContract]
        string Time();
    }

    public static class SoapContract
    {
        public const string Namespace = "urn:comparator";
    }
}
