using System.IO;
using System.Linq;
using Comparator.Measuring;
using Comparator.Results;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// `perf script` as it printed samples of the project's own services (tests/Fixtures: webapi-selfhost under Mono with
/// --jitmap, aspnetcore under .NET 10 with DOTNET_PerfMapEnabled=3, cpu-clock on a machine without a PMU), read and folded.
/// </summary>
public sealed class PerfScriptTests
{
    private static string Fixture(string name) => File.ReadAllText(Path.Combine(System.AppContext.BaseDirectory, "Fixtures", name));

    [Fact]
    public void A_mono_sample_keeps_its_thread_its_period_and_its_managed_frames_root_first()
    {
        var samples = PerfScript.Parse(new StringReader(Fixture("perf-script-mono.txt")));

        Assert.Equal(2, samples.Count);
        var s = samples[0];
        Assert.Equal("Thread Pool Wor", s.Thread);
        Assert.Equal(3896, s.Tid);
        Assert.Equal(2004008, s.Period);
        Assert.Equal("System_Collections_Generic_Dictionary_2_TKey_REF_TValue_REF_System_Collections_Generic_IEnumerable_System_Collections_Generic_KeyValuePair_TKey_TValue_GetEnumerator",
            s.Frames[^1].Symbol); // the leaf, an AOT frame of mscorlib
        Assert.Contains(s.Frames, f => f.Symbol == "System.Web.Http.Dispatcher.HttpRoutingDispatcher:SendAsync (System.Net.Http.HttpRequestMessage,System.Threading.CancellationToken)"
                                       && f.Dso == "/tmp/perf-3854.map");
        var accept = s.Frames.ToList().FindIndex(f => f.Symbol.StartsWith("Comparator.ListenerHosting.ListenerService/<AcceptLoopAsync>", System.StringComparison.Ordinal));
        var server = s.Frames.ToList().FindIndex(f => f.Symbol.StartsWith("System.Web.Http.HttpServer:SendAsync", System.StringComparison.Ordinal));
        Assert.True(accept >= 0 && server > accept, "the accept loop is nearer the root than Web API's server");
    }

    [Fact]
    public void A_dotnet_sample_names_jitted_frames_from_the_map_and_the_rest_by_their_file()
    {
        var samples = PerfScript.Parse(new StringReader(Fixture("perf-script-dotnet.txt")));

        Assert.Equal(2, samples.Count);
        Assert.Equal(".NET Sockets", samples[0].Thread);
        Assert.Equal("pvm_irq_enable", samples[0].Frames[^1].Symbol);
        Assert.Equal("[kernel.kallsyms]", samples[0].Frames[^1].Dso);
        Assert.Contains(samples[1].Frames, f => f.Symbol.Contains("[Microsoft.AspNetCore.Mvc.NewtonsoftJson] Microsoft.AspNetCore.Mvc.Formatters.NewtonsoftJsonOutputFormatter", System.StringComparison.Ordinal));
        Assert.Contains("[libcoreclr.so]", PerfScript.Fold(samples).SelectMany(f => f.Stack.Split(';')));
    }

    [Fact]
    public void A_run_of_unplaceable_frames_from_a_broken_frame_chain_reads_as_one()
    {
        var text = "worker  7    1000 \n\t     1 leaf (a.so)\n\t     2 [unknown] ([unknown])\n\t     3 [unknown] ([unknown])\n\t     4 [unknown] ([unknown])\n\t     5 main (a.so)\n\n";

        var sample = Assert.Single(PerfScript.Parse(new StringReader(text)));

        Assert.Equal(new[] { "main", "[unknown]", "leaf" }, sample.Frames.Select(f => f.Symbol));
    }

    [Fact]
    public void Folding_joins_the_thread_and_the_frames_root_first_and_counts_equal_stacks()
    {
        var sample = new StackSample("worker", 1, 1000, new[] { new StackFrame("main", "a.so"), new StackFrame("(wrapper runtime-invoke) x", "/tmp/perf-1.map"), new StackFrame("[unknown]", "/usr/lib/libz.so.1") });

        var folded = PerfScript.Fold(new[] { sample, sample with { Tid = 2 } });

        Assert.Equal(("worker;main;(wrapper runtime-invoke) x;[libz.so.1]", 2), Assert.Single(folded));
    }
}

/// <summary>The layers of profile-layers.json on real frames of both stacks: by the declaring type, never by an argument's type.</summary>
public sealed class StackLayersTests
{
    private static readonly System.Collections.Generic.IReadOnlyList<LayerRule> Rules =
        StackLayers.Load(Path.Combine(Comparator.Targets.BuildLayout.Discover().RepositoryRoot, "profile-layers.json"));

    [Theory]
    [InlineData("System.Web.Http.Dispatcher.HttpRoutingDispatcher:SendAsync (System.Net.Http.HttpRequestMessage,System.Threading.CancellationToken)", "/tmp/perf-1.map", "framework pipeline")]
    [InlineData("Comparator.ListenerHosting.ListenerService/<AcceptLoopAsync>d__5:MoveNext ()", "/tmp/perf-1.map", "project glue")]
    [InlineData("System_Threading_Tasks_Task_FinishContinuations", "/usr/lib/mono/aot-cache/amd64/mscorlib.dll.so", "runtime")]
    [InlineData("instance void [Microsoft.AspNetCore.Mvc.NewtonsoftJson] Microsoft.AspNetCore.Mvc.Formatters.NewtonsoftJsonOutputFormatter+<WriteResponseBodyAsync>d__13::MoveNext()[OptimizedTier1]", "/tmp/perf-2.map", "framework pipeline")]
    [InlineData("instance void [Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets] Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets.Internal.IOQueue::Schedule(class [System.Runtime]System.Action`1<object>,object)[OptimizedTier1]", "/tmp/perf-2.map", "host and listener")]
    [InlineData("void [Newtonsoft.Json] Newtonsoft.Json.JsonTextWriter::WriteValue(string)[OptimizedTier1]", "/tmp/perf-2.map", "serialization")]
    [InlineData("pvm_irq_enable", "[kernel.kallsyms]", "kernel")]
    [InlineData("sgen_sort_addresses", "/usr/bin/mono-sgen", "runtime: GC")]
    [InlineData("mono_jit_runtime_invoke", "/usr/bin/mono-sgen", "runtime")]
    [InlineData("void [MisbehavingService] Comparator.MisbehavingService.CostlyWork::SpinFor(int64)[OptimizedTier1]", "/tmp/perf-3.map", "service")]
    [InlineData("Comparator.WebApiSelfHostService.ListenerWebApiAdapter:HandleAsync (System.Net.HttpListenerContext)", "/tmp/perf-1.map", "project glue")]
    [InlineData("System.Net.HttpConnection:BeginReadRequest ()", "/tmp/perf-1.map", "host and listener")]
    [InlineData("System.Net.Http.HttpContent:LoadIntoBufferAsync ()", "/tmp/perf-1.map", "framework pipeline")]
    [InlineData("[unknown]", "/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.12/libcoreclr.so", "runtime")]
    public void A_frame_belongs_to_the_layer_of_the_type_that_declares_its_method(string symbol, string dso, string layer)
    {
        Assert.Equal(layer, StackLayers.Of(new StackFrame(symbol, dso), Rules));
    }

    [Fact]
    public void A_sample_counts_for_its_leaf_most_claimed_frame()
    {
        var samples = PerfScript.Parse(new StringReader(File.ReadAllText(Path.Combine(System.AppContext.BaseDirectory, "Fixtures", "perf-script-mono.txt"))));

        // Its leaf is mscorlib's Dictionary enumerator (AOT: System_Collections_Generic_...): the runtime's base library.
        Assert.Equal("runtime", StackLayers.Of(samples[0], Rules));
        var shares = StackLayers.Shares(samples, Rules);
        Assert.Equal(1.0, shares.Sum(s => s.Share), 9);
    }

    [Fact]
    public void Work_of_the_kernel_and_the_runtime_counts_on_behalf_of_the_nearest_layer_that_called_it()
    {
        var send = new StackSample("worker", 1, 1000, new[]
        {
            new StackFrame("Comparator.ListenerHosting.ListenerService/<AcceptLoopAsync>d__5:MoveNext ()", "/tmp/perf-1.map"),
            new StackFrame("System.Net.Sockets.Socket:Send (byte[])", "/tmp/perf-1.map"),
            new StackFrame("__send", "/usr/lib/x86_64-linux-gnu/libc.so.6"),
            new StackFrame("tcp_sendmsg", "[kernel.kallsyms]"),
        });
        var collector = new StackSample("SGen worker", 2, 1000, new[] { new StackFrame("sgen_sort_addresses", "/usr/bin/mono-sgen") });

        Assert.Equal("kernel", StackLayers.Of(send, Rules));
        Assert.Equal("host and listener", StackLayers.Behalf(send, Rules));
        Assert.Equal("runtime: GC", StackLayers.Behalf(collector, Rules));
        var shares = StackLayers.Shares(new[] { send, collector }, Rules, StackLayers.Behalf);
        Assert.Equal(new[] { ("host and listener", 0.5), ("runtime: GC", 0.5) }, shares.Select(l => (l.Layer, l.Share)).OrderBy(l => l.Layer).ToArray());
    }

    [Fact]
    public void Named_share_counts_only_frames_of_jit_compiled_code()
    {
        var sample = new StackSample("worker", 1, 1000, new[]
        {
            new StackFrame("[unknown]", "[unknown]"), new StackFrame("Named:Method ()", "/tmp/perf-1.map"), new StackFrame("[unknown]", "/tmp/perf-1.map"),
            new StackFrame("Named:Other ()", "/tmp/perf-1.map"), new StackFrame("[unknown]", "/usr/lib/libcoreclr.so"),
        });

        Assert.Equal(2.0 / 3, StackLayers.NamedShare(new[] { sample })!.Value, 9);
        Assert.Null(StackLayers.NamedShare(new[] { new StackSample("t", 1, 1, new[] { new StackFrame("main", "a.so") }) }));
    }
}
