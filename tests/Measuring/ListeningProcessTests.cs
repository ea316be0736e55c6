using System.Threading.Tasks;
using Comparator.Measuring;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>A service already running on this machine is found by the port it listens on, so its CPU can be read.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class ListeningProcessTests
{
    [Fact]
    public async Task The_process_listening_on_a_loopback_port_is_the_one_that_was_started()
    {
        await using var running = await new TargetLauncher(BuildLayout.Discover()).StartAsync(TargetCatalog.Find("kestrel")!, ServiceSwitches.Default);

        Assert.Equal(running.ProcessId, ListeningProcess.Find(running.BaseUrl.Port));
    }

    [Fact]
    public void A_port_nobody_listens_on_has_no_process()
    {
        using var probe = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        probe.Start();
        var port = ((System.Net.IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop(); // free again: nothing listens there now

        Assert.Null(ListeningProcess.Find(port));
    }
}
