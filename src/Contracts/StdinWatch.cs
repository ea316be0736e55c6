using System;
using System.IO;
using System.Threading;

namespace Comparator.Contracts
{
    /// <summary>
    /// Stops a service when its standard input reaches end-of-file, if it was started with
    /// <see cref="Switch"/>. The launcher gives each target a pipe as stdin and holds its end open
    /// while the target runs; closing it is the stop request. It works on every OS and runtime
    /// (.NET 10, Mono, .NET Framework), where SIGTERM does not: Windows has none. A launcher that
    /// dies, however it dies, has its end closed by the OS, so the target stops then too; on
    /// Windows this is the only guard against orphans, on POSIX <see cref="ParentWatch"/> (getppid)
    /// stays a second one, kept for a pipe whose end some other process might still hold.
    /// Only when asked: a service a user starts by hand reads a terminal or /dev/null (at once at
    /// end-of-file) and must not stop for that.
    /// </summary>
    public static class StdinWatch
    {
        public const string Switch = "--stop-on-stdin-close";

        /// <summary>
        /// When asked, calls <paramref name="closed"/> once stdin ends, unless the returned watch was
        /// disposed first (the service stopped another way and its stop action may be gone).
        /// </summary>
        public static IDisposable Start(bool asked, Action closed)
        {
            var watch = new Watch(closed);
            if (!asked) return watch;
            // A thread of its own, not the pool: it blocks in a read for the service's whole life.
            // The raw stream rather than Console.In: no reader, no lock that Console.Out could wait on
            // under .NET Framework. Read returns 0 at end-of-file on every runtime, a broken pipe included.
            new Thread(watch.Run) { IsBackground = true, Name = "stdin watch" }.Start();
            return watch;
        }

        private sealed class Watch : IDisposable
        {
            private Action? _closed;

            public Watch(Action closed) => _closed = closed;

            public void Run()
            {
                try
                {
                    using (var stdin = Console.OpenStandardInput())
                    {
                        var buffer = new byte[256];
                        while (stdin.Read(buffer, 0, buffer.Length) > 0) { } // what is written is not a command: only the end counts
                    }
                }
                catch (IOException e)
                {
                    Console.Error.WriteLine("service: standard input cannot be read (" + e.Message + "); stopping");
                }
                Interlocked.Exchange(ref _closed, null)?.Invoke();
            }

            public void Dispose() => Interlocked.Exchange(ref _closed, null);
        }
    }
}
