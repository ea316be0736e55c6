using System;
using System.Runtime.InteropServices;

namespace Comparator.ListenerHosting
{
    /// <summary>
    /// How a service process ends once its service has stopped: the one way out after a start, whatever
    /// asked for the stop (stdin's end, SIGTERM, Ctrl+C, the comparator's death). Under Mono on POSIX the
    /// process ends there and then, with _exit, instead of returning from Main into Mono's own shutdown.
    /// That shutdown (mono_thread_manage, threads.c) aborts every background thread still alive and waits
    /// for each, and Mono 6.8 loses that race in two ways, both reproduced here by stopping
    /// httplistener-mono in a loop: a thread-pool worker parked in mono_coop_sem_timedwait misses the abort
    /// and the process hangs until the park's random 5–60 s timeout ends (mono/mono#9000 and #7167; the
    /// fixes, mono/mono#9025 and #9042, were never merged), and a worker still running the closed
    /// listener's callbacks, aborted mid-throw, fails to make its exception and the process aborts, exit 134:
    /// "* Assertion at exception.c:109, condition `is_ok (error)' not met, function:mono_exception_new_by_name_domain,
    /// ... type:ThreadAbortException" (mono/mono#20181). Nothing is left to do by then: the listener is
    /// closed and the output flushed. .NET 10 and .NET Framework return from Main as usual.
    /// </summary>
    internal static class ProcessEnd
    {
        public static int AfterStop(int exitCode)
        {
            if (!StopSignals.IsMono || Environment.OSVersion.Platform != PlatformID.Unix) return exitCode;
            try
            {
                Console.Out.Flush();
                Console.Error.Flush();
            }
            catch (System.IO.IOException)
            {
                // a reader that is gone (the comparator died): nothing to flush to
            }
            _exit(exitCode);
            return exitCode; // not reached
        }

        [DllImport("libc", EntryPoint = "_exit")]
        private static extern void _exit(int status);
    }
}
