using System.ServiceModel.Channels;

namespace Comparator.WcfClassicService.Hosting
{
    /// <summary>
    /// Every request body is raw bytes in this contract: without this, a body sent as application/json
    /// or text/xml would be parsed by WCF's JSON/XML readers before reaching the Stream parameter.
    /// </summary>
    public sealed class RawContentTypeMapper : WebContentTypeMapper
    {
        public override WebContentFormat GetMessageFormatForContentType(string contentType) => WebContentFormat.Raw;
    }
}
