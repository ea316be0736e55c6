using System.IO;
using System.Linq;
using Comparator.Measuring;
using Comparator.Simulating;
using Xunit;

namespace Comparator.Tests;

/// <summary>callgrind's per-thread dump files read on fixed text: the thread's total, its self cost by object file, a call's cost left out of it.</summary>
public sealed class CallgrindDumpTests
{
    // A dump as callgrind 3.19 writes one thread of it (--dump-instr=no): names compressed as "(id) name", then "(id)".
    private const string Serving = """
        # callgrind format
        version: 1
        creator: callgrind-3.19.0
        pid: 7452
        part: 1
        thread: 7

        positions: line
        events: Ir
        summary: 1000

        ob=(1) /usr/bin/mono-sgen
        fl=(1) ???
        fn=(1) mono_lock_free_queue_dequeue
        0 300
        cob=(2) /usr/lib/libc.so.6
        cfn=(2) memcpy
        calls=1 0
        0 9999
        0 100
        ob=(2)
        fn=(2)
        0 200
        ob=(1)
        fn=(3) 0x00000000002dd710
        +2 400

        totals: 1000
        """;

    private const string Compiling = """
        summary: 5000
        ob=(1) /usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/libclrjit.so
        fn=(1) Compiler::compCompile
        0 4000
        ob=(2) /usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/libcoreclr.so
        fn=(2) ThreadNative::Sleep
        0 1000
        """;

    [Fact]
    public void A_threads_total_is_its_self_cost_and_goes_to_the_object_it_ran_in()
    {
        var thread = CallgrindDump.Parse(Serving, 7);

        Assert.Equal(7, thread.Thread);
        Assert.Equal(1000, thread.Instructions);
        // mono-sgen's own 300 + 100 + 400 of the 1000 self cost; the call's 9999 is memcpy's inclusive cost, not the caller's.
        Assert.Equal("/usr/bin/mono-sgen", thread.TopObject);
        Assert.Equal(0.8, thread.TopShare, 3);
        Assert.False(thread.Compiling);
    }

    // Mono's main thread as callgrind 3.19 dumped it in a window where it sat waiting: the call it sat in carries +1,027,474,044 of
    // inclusive cost (the -1,027,474,040 of the dump before, taken back), and the summary line took it in.
    private const string Waiting = """
        summary: 1027474044
        ob=(3) /usr/lib/x86_64-linux-gnu/libc.so.6
        fl=(161) ./csu/../csu/libc-start.c
        fn=(870) __libc_start_main@@GLIBC_2.34
        cfi=(163) ./csu/../sysdeps/nptl/libc_start_call_main.h
        cfn=(894) (below main)
        calls=0 29
        360 1027474044
        fl=(306) ./nptl/./nptl/pthread_sigmask.c
        fn=(3288) pthread_sigmask@@GLIBC_2.32
        25 20
        +5 10
        """;

    [Fact]
    public void A_thread_that_sat_in_a_call_across_dumps_counts_what_it_ran_not_the_calls_carried_cost()
    {
        var thread = CallgrindDump.Parse(Waiting, 1);

        Assert.Equal(30, thread.Instructions);
    }

    [Fact]
    public void A_thread_that_spent_most_of_the_window_in_the_JIT_is_compiling()
    {
        var thread = CallgrindDump.Parse(Compiling, 12);

        Assert.Equal(5000, thread.Instructions);
        Assert.EndsWith("libclrjit.so", thread.TopObject);
        Assert.True(thread.Compiling);
        Assert.Equal(4000, thread.JitInstructions); // the JIT's library alone, wherever the rest went
        Assert.Equal(0, CallgrindDump.Parse(Serving, 7).JitInstructions);
    }

    // A request thread of kestrel (tiering off) whose call into the JIT names libclrjit on the cob= line; the ob= line that comes to
    // the JIT's own code later gives only its id, as callgrind 3.19 wrote it.
    private const string CompiledAtFirstCall = """
        ob=(5) /usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/libcoreclr.so
        fl=(9) ???
        fn=(40) 0x00000000001ff180
        cob=(6) /usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/libclrjit.so
        cfi=(9)
        cfn=(41) 0x0000000000322080
        calls=1 0
        0 2500
        0 500
        ob=(6)
        fl=(9)
        fn=(41)
        0 2000
        """;

    [Fact]
    public void An_object_named_first_on_a_call_line_is_known_by_its_id_after()
    {
        var thread = CallgrindDump.Parse(CompiledAtFirstCall, 14);

        Assert.Equal(2500, thread.Instructions);
        Assert.Equal(2000, thread.JitInstructions);
        Assert.EndsWith("libclrjit.so", thread.TopObject);
    }

    [Fact]
    public void A_dump_is_read_thread_by_thread_from_its_own_files_only()
    {
        var dir = Directory.CreateTempSubdirectory("callgrind-");
        try
        {
            File.WriteAllText(Path.Combine(dir.FullName, "callgrind.out.42.2-01"), "summary: 10\n");
            File.WriteAllText(Path.Combine(dir.FullName, "callgrind.out.42.2-07"), Serving);
            File.WriteAllText(Path.Combine(dir.FullName, "callgrind.out.42.2-12"), Compiling);
            File.WriteAllText(Path.Combine(dir.FullName, "callgrind.out.42.1-07"), "summary: 777\n"); // the dump before
            File.WriteAllText(Path.Combine(dir.FullName, "callgrind.out.43.2-07"), "summary: 888\n"); // another process

            var threads = CallgrindDump.Read(dir.FullName, "callgrind.out.42", 2);

            Assert.Equal(new[] { 1, 7, 12 }, threads.Select(t => t.Thread));
            Assert.Equal(new[] { 10L, 1000L, 5000L }, threads.Select(t => t.Instructions));
        }
        finally { dir.Delete(recursive: true); }
    }
}
