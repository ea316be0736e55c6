using System.Linq;
using System.Net;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Text;
using System.Threading.Tasks;
using System.Web.Http;
using Comparator.Contracts;

namespace Comparator.WebApi2
{
    /// <summary>
    /// The contract as an ASP.NET Web API 2 ApiController: plain System.Web.Http, no host types, so
    /// the same file serves under any host (the Katana self-host of the webapi twin, the Kestrel
    /// bridge of webapi-kestrel). Framing follows from the content types, as Web API hosts decide
    /// it: StringContent and ByteArrayContent know their length; the json ObjectContent does not
    /// and is buffered by the host, so it gets one too; the stream echo's StreamContent is not
    /// buffered and says Transfer-Encoding: chunked, so it goes out chunked even when empty.
    /// </summary>
    public sealed class ContractController : ApiController
    {
        [HttpGet]
        public HttpResponseMessage Time() =>
            new HttpResponseMessage(HttpStatusCode.OK) { Content = new StringContent(TimeText.Now(), Encoding.UTF8, "text/plain") };

        /// <summary>Through Web API's own JsonMediaTypeFormatter (Newtonsoft.Json) with the contract's settings.</summary>
        [HttpGet]
        public IHttpActionResult JsonArray()
        {
            // Read raw, not model-bound: binding turns "?items=" into null, the default count, where the contract answers 400.
            var items = Request.GetQueryNameValuePairs().Where(p => p.Key == Routes.JsonItemsParameter).Select(p => p.Value).FirstOrDefault();
            if (!JsonSample.TryParseItems(items, out var count)) return StatusCode(HttpStatusCode.BadRequest);
            return Ok(JsonSample.Create(count));
        }

        [HttpPost]
        public async Task<HttpResponseMessage> Echo()
        {
            var content = new ByteArrayContent(await Request.Content.ReadAsByteArrayAsync());
            content.Headers.ContentType = new MediaTypeHeaderValue(ContentTypes.Binary);
            return new HttpResponseMessage(HttpStatusCode.OK) { Content = content };
        }

        [HttpPut]
        public async Task<HttpResponseMessage> StreamEcho()
        {
            var content = new StreamContent(await Request.Content.ReadAsStreamAsync());
            content.Headers.ContentType = new MediaTypeHeaderValue(ContentTypes.Binary);
            var response = new HttpResponseMessage(HttpStatusCode.OK) { Content = content };
            // Said outright: a host may otherwise give an empty (or seekable) body a Content-Length.
            response.Headers.TransferEncodingChunked = true;
            return response;
        }
    }
}
