using System.IO;
using System.Net;
using System.Text;
using Comparator.Contracts;
using CoreWCF;
using CoreWCF.Web;

namespace Comparator.WcfService;

/// <summary>
/// The contract's operations. Buffered answers set their Content-Length; the streamed echo returns
/// the request stream with no length, so CoreWCF writes it chunked.
/// </summary>
[ServiceBehavior(InstanceContextMode = InstanceContextMode.Single, ConcurrencyMode = ConcurrencyMode.Multiple)]
public sealed partial class ContractService : IContractService, IStreamContractService
{
    private static readonly UTF8Encoding Utf8 = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false);

    public Stream Time() => Buffered(ContentTypes.Text, Utf8.GetBytes(TimeText.Now()));

    public Stream Json(string? items)
    {
        if (!JsonSample.TryParseItems(items, out var count))
        {
            // A bare 400: no fault body, no exception text.
            var response = WebOperationContext.Current!.OutgoingResponse;
            response.StatusCode = HttpStatusCode.BadRequest;
            response.ContentLength = 0;
            return Stream.Null;
        }
        return Buffered(ContentTypes.Json, Utf8.GetBytes(JsonSample.Serialize(JsonSample.Create(count))));
    }

    public Stream Echo(Stream body)
    {
        using var copy = new MemoryStream();
        body.CopyTo(copy);
        return Buffered(ContentTypes.Binary, copy.ToArray());
    }

    public Stream StreamEcho(Stream body)
    {
        WebOperationContext.Current!.OutgoingResponse.ContentType = ContentTypes.Binary;
        return body; // no ContentLength: the StreamedResponse binding sends it chunked
    }

    private static Stream Buffered(string contentType, byte[] bytes)
    {
        var response = WebOperationContext.Current!.OutgoingResponse;
        response.ContentType = contentType;
        response.ContentLength = bytes.Length;
        return new MemoryStream(bytes, writable: false);
    }
}
