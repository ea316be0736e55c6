using System.IO;
using System.Linq;
using Comparator.Measuring;
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
    public void Folding_joins_the_thread_and_the_frames_root_first_and_counts_equal_stacks()
    {
        var sample = new StackSample("worker", 1, 1000, new[] { new StackFrame("main", "a.so"), new StackFrame("(wrapper runtime-invoke) x", "/tmp/perf-1.map"), new StackFrame("[unknown]", "/usr/lib/libz.so.1") });

        var folded = PerfScript.Fold(new[] { sample, sample with { Tid = 2 } });

        Assert.Equal(("worker;main;(wrapper runtime-invoke) x;[libz.so.1]", 2), Assert.Single(folded));
    }
}
