using System;
using System.Net;
using System.Net.Http;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;
using Comparator.ListenerHosting;
using Xunit;

namespace Comparator.Tests;

/// <summary>The HttpListener glue under webapi-selfhost and httplistener: how it takes requests in.</summary>
public sealed class ListenerServiceTests
{
    [Fact]
    public async Task A_handler_that_holds_its_thread_does_not_keep_the_next_request_out()
    {
        var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        var port = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        var options = ServiceOptions.Parse(new[] { "--port", port.ToString() }, out var error) ?? throw new InvalidOperationException(error);
        using var both = new Barrier(2);
        // The handler runs on its accept loop until its first await, as Web API's pipeline does: here it
        // holds that thread until a second request is in. With one accept loop the second is never taken
        // in while the first holds it, and each gives up after the wait (503).
        using var service = ListenerService.Start(options, context =>
        {
            context.Response.StatusCode = both.SignalAndWait(TimeSpan.FromSeconds(20)) ? 200 : 503;
            context.Response.Close();
            return Task.CompletedTask;
        });
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(60) };

        var replies = await Task.WhenAll(client.GetAsync(options.BaseUrl + "/api/time"), client.GetAsync(options.BaseUrl + "/api/time"));

        Assert.All(replies, r => Assert.Equal(HttpStatusCode.OK, r.StatusCode));
        Assert.True(ListenerService.OutstandingAccepts >= 2);
    }
}
