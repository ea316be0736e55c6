using System;
using System.Threading;

// Prints something that is not the ready line, then hangs: the launcher must give up after its
// ready timeout, say so, and kill this process. Neither SIGTERM nor the end of stdin
// (--stop-on-stdin-close, which the launcher passes) is handled here, on purpose.
Console.WriteLine("starting, but never ready");
Thread.Sleep(Timeout.Infinite);
