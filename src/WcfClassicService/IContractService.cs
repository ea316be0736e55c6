using System.IO;
using System.ServiceModel;
using System.ServiceModel.Web;
using Comparator.Contracts;

namespace Comparator.WcfClassicService
{
    /// <summary>
    /// The HTTP contract as a WCF service contract. Every operation takes and returns raw streams so
    /// the bytes are the contract's own (Newtonsoft JSON, plain text), not a WCF serializer's.
    /// UriTemplates are filled from <see cref="Routes"/> at start (<see cref="RouteAttribute"/>):
    /// attribute arguments must be constants, and the constants there carry the "/api/" prefix.
    /// </summary>
    [ServiceContract]
    public interface IContractService
    {
        [OperationContract, WebGet, Route(Routes.Time)]
        Stream Time();

        /// <summary>items is read from the query string, so "absent" and "invalid" stay distinguishable (default vs 400).</summary>
        [OperationContract, WebGet, Route(Routes.Json)]
        Stream Json();

        [OperationContract, WebInvoke(Method = "POST"), Route(Routes.Echo)]
        Stream Echo(Stream body);

        [OperationContract, WebInvoke(Method = "PUT"), Route(Routes.StreamEcho)]
        Stream StreamEcho(Stream body);
    }
}
