using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Measuring;

namespace Comparator.Simulating;

/// <summary>
/// Valgrind's callgrind as the simulated pass uses it: a target started under it runs on a simulated CPU that counts every user-mode
/// instruction of every thread (CodSpeed's and iai-callgrind's way of counting on machines without CPU counters). The counts of a
/// window are bracketed from outside the process: `callgrind_control -d PID` dumps the counts since the last dump, one file per
/// thread, and starts the next count from zero. What it leaves out: the kernel's work on the server's behalf, waits and cache misses; it is a count of work, not
/// a time.
/// </summary>
public sealed class CallgrindSimulator
{
    /// <summary>The file stem of every dump, in the pass's folder; valgrind adds the process id, then ".N-TT" per dump and thread.</summary>
    public const string Stem = "callgrind.out";

    // Settings the pass starts every target with, both sides alike (the report names them):
    // --instr-atstart=no: a target starts, is verified and warms every cell on valgrind's bare translation (some 5 times slower than the
    //   real CPU, not callgrind's 50): a Mono start came up in 6-9 s, not 23-33; the pass turns counting on (InstrumentAsync) once the
    //   warm-up is over, and the first window after it is not read;
    // --separate-threads: a file per thread, so the JIT's background compiler can be told apart;
    // --smc-check=all-non-file: JIT-written code is re-read when it changes (without it one start of a Mono service in two died
    //   inside valgrind, "VALGRIND INTERNAL ERROR ... SIGSEGV"; none did with it);
    // --valgrind-stacksize=8 MiB: valgrind's own stack (1 MiB by default) ran out translating a Mono service's JIT code: one start of
    //   wcf-classic in two died at its first request ("VALGRIND INTERNAL ERROR: ... SIGSEGV", the fault beside its stack pointer);
    //   three of three started with 8 MiB answered;
    // --dump-instr=no, --collect-jumps=no: per function, which is all a total needs, and smaller dumps.
    public static readonly IReadOnlyList<string> Options = new[]
    {
        "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes", "--smc-check=all-non-file", "--valgrind-stacksize=8388608", "--dump-instr=no",
        "--collect-jumps=no",
    };

    public string Valgrind { get; }
    public string Control { get; }

    private CallgrindSimulator(string valgrind, string control) => (Valgrind, Control) = (valgrind, control);

    /// <summary>The simulator where valgrind and callgrind_control are on PATH; otherwise null and the one line that says why and how to get it.</summary>
    public static async Task<(CallgrindSimulator? Simulator, string Line)> FindAsync()
    {
        if (OperatingSystem.IsWindows()) return (null, "simulated instructions: not counted: valgrind runs on Linux only");
        var valgrind = ToolPath.Find("valgrind");
        var control = ToolPath.Find("callgrind_control");
        if (valgrind is null || control is null)
            return (null, "simulated instructions: not counted: valgrind is not installed (Debian package valgrind: apt-get install valgrind)");
        var (exit, version, _) = await RunAsync(valgrind, TimeSpan.FromSeconds(30), "--version");
        return exit == 0
            ? (new CallgrindSimulator(valgrind, control), $"simulated instructions: {version.Trim()} callgrind, user mode, every thread; {string.Join(" ", Options)}")
            : (null, "simulated instructions: not counted: valgrind --version failed");
    }

    /// <summary>
    /// The command line that runs <paramref name="host"/> with <paramref name="arguments"/> under the simulator, its dumps in <paramref name="folder"/>
    /// and valgrind's own messages in <paramref name="log"/> (%p: the process id), apart from the service's output, so a start that valgrind
    /// itself ended can say so in valgrind's words (<see cref="SimulatorLog"/>).
    /// </summary>
    public (string Host, IReadOnlyList<string> Arguments) Wrap(string host, IReadOnlyList<string> arguments, string folder, string log) =>
        (Valgrind, Options.Append($"--callgrind-out-file={Path.Combine(folder, Stem)}.%p").Append($"--log-file={log}").Append(host).Concat(arguments).ToList());

    /// <summary>Turns counting on in a process started with --instr-atstart=no: its code is translated afresh with callgrind's counting; null when done, else why not.</summary>
    public async Task<string?> InstrumentAsync(int pid, Uri wake) => (await CommandAsync(new[] { "-i", "on" }, pid, wake)).Failure;

    /// <summary>
    /// Dumps every thread's counts since the last dump (or zero), one file per thread, and starts the next count; null when done, else
    /// why not. vgdb hands callgrind the command: a busy service reads it at once, an idle one in about 0.2 s (vgdb interrupts its
    /// threads' waits in the kernel with ptrace). Where vgdb cannot (ptrace not allowed), after two seconds without an answer a connection is
    /// opened to <paramref name="wake"/> and closed every 50 ms, so the service's accept loop runs and reads it; that work is counted.
    /// </summary>
    public async Task<string?> DumpAsync(int pid, Uri wake)
    {
        Interlocked.Increment(ref _dumps);
        var (failure, woken) = await CommandAsync(new[] { "-d" }, pid, wake);
        if (woken) Interlocked.Increment(ref _woken);
        return failure;
    }

    private static readonly TimeSpan WakeAfter = TimeSpan.FromSeconds(2);

    private int _dumps;
    private int _woken;

    /// <summary>How many dumps were asked, and how many of them waited for wake-up connections (whose work their window counts).</summary>
    public (int Dumps, int Woken) DumpCounts => (Volatile.Read(ref _dumps), Volatile.Read(ref _woken));

    private async Task<(string? Failure, bool Woken)> CommandAsync(IReadOnlyList<string> flags, int pid, Uri wake)
    {
        var command = RunAsync(Control, TimeSpan.FromSeconds(120), flags.Append(pid.ToString(CultureInfo.InvariantCulture)).ToArray());
        await Task.WhenAny(command, Task.Delay(WakeAfter));
        var woken = !command.IsCompleted;
        while (!command.IsCompleted)
        {
            try
            {
                using var client = new System.Net.Sockets.TcpClient();
                await client.ConnectAsync(wake.Host, wake.Port).WaitAsync(TimeSpan.FromSeconds(5));
            }
            catch (Exception e) when (e is System.Net.Sockets.SocketException or TimeoutException or IOException) { }
            await Task.WhenAny(command, Task.Delay(50));
        }
        var (exit, output, error) = await command;
        return (exit == 0 ? null : $"callgrind_control {string.Join(" ", flags)} {pid} failed: {error ?? ToolProcess.LastLine(output) ?? $"exit {exit}"}", woken);
    }

    // ToolProcess.Capture bounds the run by its limit and the reading of its output after it exits; off the caller's thread, so the
    // wake-up connections go on while callgrind_control waits.
    private static Task<(int Exit, string Output, string? Error)> RunAsync(string file, TimeSpan limit, params string[] arguments) =>
        Task.Run(() => ToolProcess.Capture(file, limit, arguments));
}
