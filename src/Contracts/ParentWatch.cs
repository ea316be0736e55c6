using System;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Threading;

namespace Comparator.Contracts
{
    /// <summary>
    /// Stops a service whose comparator has died. The launcher puts its own process id in
    /// <see cref="Variable"/>; when this process's parent is no longer that process (it was killed
    /// with SIGKILL and could not stop its children, so the kernel re-parented them), the service
    /// stops itself instead of living on as an orphan that holds a port and a core.
    /// Polling getppid() is used rather than prctl(PR_SET_PDEATHSIG): that signal follows the
    /// parent *thread* that forked, and the runtime may fork from a pool thread that later retires.
    /// Kept beside <see cref="StdinWatch"/>, not folded into it: the end of stdin is the stop request
    /// on every OS (and the only guard on Windows, which has no getppid), this a second guard on POSIX.
    /// </summary>
    public static class ParentWatch
    {
        public const string Variable = "COMPARATOR_PARENT_PID";
        private static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(250);
        private static Timer? _timer;

        /// <summary>Starts watching when the launcher asked for it; calls <paramref name="parentGone"/> once.</summary>
        public static void StartIfAsked(Action parentGone)
        {
            var raw = Environment.GetEnvironmentVariable(Variable);
            if (raw == null || !int.TryParse(raw, NumberStyles.None, CultureInfo.InvariantCulture, out var expected)) return;
            var fired = 0;
            _timer = new Timer(_ =>
            {
                var parent = ParentProcessId();
                if (parent == null) { _timer?.Dispose(); return; } // cannot tell here: never stop on a guess
                if (parent == expected || Interlocked.Exchange(ref fired, 1) == 1) return;
                Console.Error.WriteLine("service: the comparator (pid " + expected + ") is gone; stopping");
                parentGone();
            }, null, Interval, Interval);
        }

        private static int? ParentProcessId()
        {
            try { return getppid(); }
            catch (Exception e) when (e is DllNotFoundException || e is EntryPointNotFoundException) { return null; }
        }

        [DllImport("libc")]
        private static extern int getppid();
    }
}
