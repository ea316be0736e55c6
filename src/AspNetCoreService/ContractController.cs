using System.IO;
using System.Text;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.KestrelHosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Mvc;

namespace Comparator.AspNetCoreService;

/// <summary>
/// The contract as one [ApiController]. Framing is made explicit per action, because MVC's
/// defaults differ by result type: a string returned through the output formatters goes out
/// chunked, so the time text sets its Content-Length itself; the JSON formatter buffers and sets
/// it; File() sets it for bytes; the stream echo starts the response with no length: chunked.
/// The OpenAPI document (/openapi/v1.json) takes each operationId from the route's name, each answer
/// from [ProducesResponseType], and what an action reads itself from [ReadsBody] and [ReadsQuery].
/// </summary>
[ApiController]
public sealed class ContractController : ControllerBase
{
    [HttpGet(Routes.Time, Name = "time")]
    [ProducesResponseType<string>(StatusCodes.Status200OK, "text/plain")]
    public ContentResult Time() => Text(TimeText.Now(), ContentTypes.Text);

    /// <summary>Through MVC's output formatter (Newtonsoft.Json), which buffers the body and so sends a Content-Length.</summary>
    [HttpGet(Routes.Json, Name = "json")]
    [ReadsQuery(Routes.JsonItemsParameter, Minimum = 0, Maximum = JsonSample.MaxItems, Default = JsonSample.DefaultItems)]
    [ProducesResponseType<SampleItem[]>(StatusCodes.Status200OK, "application/json")]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")] // [ApiController] makes BadRequest() one
    public IActionResult Json()
    {
        // Read raw, not model-bound: binding turns "?items=" into null, the default count, where the contract answers 400.
        var raw = Request.Query[Routes.JsonItemsParameter];
        if (!JsonSample.TryParseItems(raw.Count == 0 ? null : raw[0], out var count)) return BadRequest();
        return Ok(JsonSample.Create(count));
    }

    [HttpPost(Routes.Echo, Name = "echo")]
    [ReadsBody(ContentTypes.Binary)]
    [ProducesResponseType<Stream>(StatusCodes.Status200OK, ContentTypes.Binary)]
    [ProducesResponseType(typeof(void), StatusCodes.Status413PayloadTooLarge)]
    public async Task<IActionResult> Echo()
    {
        if (ContractBodies.RefuseOversize(HttpContext)) return new EmptyResult();
        return File(await ContractBodies.ReadAsync(Request), ContentTypes.Binary);
    }

    [HttpPut(Routes.StreamEcho, Name = "streamEcho")]
    [ReadsBody(ContentTypes.Binary)]
    [ProducesResponseType<Stream>(StatusCodes.Status200OK, ContentTypes.Binary)]
    [ProducesResponseType(typeof(void), StatusCodes.Status413PayloadTooLarge)]
    public async Task StreamEcho()
    {
        if (ContractBodies.RefuseOversize(HttpContext)) return;
        await ContractBodies.StreamEchoAsync(HttpContext);
    }

    private ContentResult Text(string text, string contentType)
    {
        Response.ContentLength = Encoding.UTF8.GetByteCount(text); // explicit: never chunked
        return Content(text, contentType);
    }
}
