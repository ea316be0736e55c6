using System.IO;
using Comparator.Contracts;
using CoreWCF;
using CoreWCF.Web;

namespace Comparator.WcfService;

/// <summary>
/// The buffered operations, on the endpoint mounted at the site root, so each UriTemplate is the
/// route table's own path. Every body is a raw Stream: WCF never serializes or parses one (the json
/// bytes are the contract's Newtonsoft.Json bytes, not DataContractJsonSerializer's).
/// </summary>
[ServiceContract]
public interface IContractService
{
    [OperationContract]
    [WebGet(UriTemplate = Routes.Time)]
    Stream Time();

    [OperationContract]
    [WebGet(UriTemplate = Routes.Json + "?" + Routes.JsonItemsParameter + "={items}")]
    Stream Json(string? items);

    [OperationContract]
    [WebInvoke(Method = "POST", UriTemplate = Routes.Echo)]
    Stream Echo(Stream body);
}

/// <summary>
/// The streamed echo, on an endpoint of its own (a binding with TransferMode.StreamedResponse).
/// Its template cannot be the endpoint address itself: WCF answers "/api/stream/echo" with a 307
/// to "/api/stream/echo/" then. So the route is split in two constants, and <see cref="Program"/>
/// refuses to start unless they join into <see cref="Routes.StreamEcho"/>.
/// </summary>
[ServiceContract]
public interface IStreamContractService
{
    public const string Address = "/api/stream";
    public const string EchoTemplate = "echo";

    [OperationContract]
    [WebInvoke(Method = "PUT", UriTemplate = EchoTemplate)]
    Stream StreamEcho(Stream body);
}
