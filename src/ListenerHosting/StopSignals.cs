using System;
using System.Reflection;
using System.Threading;
#if NET
using System.Runtime.InteropServices;
#endif

namespace Comparator.ListenerHosting
{
    /// <summary>
    /// Calls back once when the process is asked to stop: SIGTERM (how the launcher stops a target)
    /// or SIGINT / Ctrl+C. .NET 10 has PosixSignalRegistration. Mono does not turn SIGTERM into
    /// anything managed code sees (the process just dies, exit 143, no clean stop), so under Mono the
    /// signals are taken through Mono.Posix's UnixSignal, which ships with every Mono (mono-complete)
    /// but is in no reference assembly, hence reflection. .NET Framework on Windows has no SIGTERM:
    /// Ctrl+C (Console.CancelKeyPress) is its stop request.
    /// </summary>
    public static class StopSignals
    {
        public static IDisposable Register(Action stop)
        {
#if NET
            void OnSignal(PosixSignalContext context) { context.Cancel = true; stop(); }
            var term = PosixSignalRegistration.Create(PosixSignal.SIGTERM, OnSignal);
            var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, OnSignal);
            return new Registrations(() => { term.Dispose(); interrupt.Dispose(); });
#else
            ConsoleCancelEventHandler onCancel = (_, e) => { e.Cancel = true; stop(); };
            Console.CancelKeyPress += onCancel;
            var unix = IsMono ? MonoUnixSignals.Watch(stop) : null;
            return new Registrations(() => { Console.CancelKeyPress -= onCancel; unix?.Dispose(); });
#endif
        }

        public static bool IsMono => Type.GetType("Mono.Runtime") != null;

        private sealed class Registrations : IDisposable
        {
            private Action? _release;
            public Registrations(Action release) => _release = release;
            public void Dispose() => Interlocked.Exchange(ref _release, null)?.Invoke();
        }

#if !NET
        /// <summary>Mono.Unix.UnixSignal for SIGTERM and SIGINT, waited on by one background thread.</summary>
        private sealed class MonoUnixSignals : IDisposable
        {
            private const string MonoPosix = "Mono.Posix, Version=4.0.0.0, Culture=neutral, PublicKeyToken=0738eb9f132ed756";
            private readonly Array _signals;
            private volatile bool _disposed;

            private MonoUnixSignals(Array signals) => _signals = signals;

            public static MonoUnixSignals? Watch(Action stop)
            {
                var unixSignal = Type.GetType("Mono.Unix.UnixSignal, " + MonoPosix);
                var signum = Type.GetType("Mono.Unix.Native.Signum, " + MonoPosix);
                if (unixSignal == null || signum == null)
                {
                    Console.Error.WriteLine("service: Mono.Posix is not installed; SIGTERM will end this process without a clean stop");
                    return null;
                }
                var signals = Array.CreateInstance(unixSignal, 2);
                signals.SetValue(Activator.CreateInstance(unixSignal, Enum.Parse(signum, "SIGTERM")), 0);
                signals.SetValue(Activator.CreateInstance(unixSignal, Enum.Parse(signum, "SIGINT")), 1);
                var waitAny = unixSignal.GetMethod("WaitAny", BindingFlags.Public | BindingFlags.Static, null, new[] { signals.GetType(), typeof(int) }, null)!;
                var watcher = new MonoUnixSignals(signals);
                var thread = new Thread(() =>
                {
                    // Wake every 250 ms so a disposed watcher's thread ends; an index below the array length is a signal.
                    while (!watcher._disposed)
                    {
                        int index;
                        try
                        {
                            index = (int)waitAny.Invoke(null, new object[] { signals, 250 })!;
                        }
                        catch (TargetInvocationException) when (watcher._disposed)
                        {
                            return; // disposed between the check and the wait: WaitAny refuses a disposed UnixSignal
                        }
                        if (index >= 0 && index < signals.Length && !watcher._disposed) { stop(); return; }
                    }
                }) { IsBackground = true, Name = "stop signals" };
                thread.Start();
                return watcher;
            }

            public void Dispose()
            {
                _disposed = true;
                foreach (IDisposable signal in _signals) signal.Dispose();
            }
        }
#endif
    }
}
