using System;
using System.Globalization;
using Comparator.ListenerHosting;

namespace Comparator.FixedWorkService
{
    /// <summary>
    /// `FixedWorkService N[:K[:S@B]] [service options]`: answers the contract as httplistener-mono does, after N
    /// rounds of fixed arithmetic per request. Not a timed spin: under the simulator a timed spin shrinks
    /// with the slowdown (the clock runs on while the simulated CPU crawls), where N rounds are the same
    /// instructions on any CPU and at any speed. A twin with N &gt; 0 against one with N = 0 is a service
    /// made costlier by a known count of instructions a request, the gap the simulated figure must find.
    /// K: K rounds more per KB (1,024 bytes) of a request body whose Content-Length is given (echo-post; a chunked
    /// body, echo-put, has none), the known cost per KB the size model must find; S@B: S rounds more for a body of
    /// B bytes or more, a cost that steps at a size, which the model's linearity check must name.
    /// </summary>
    public static class Program
    {
        public static int Main(string[] args)
        {
            if (args.Length < 1 || !Work.TryParse(args[0], out var work))
            {
                Console.Error.WriteLine("FixedWorkService: usage: FixedWorkService ROUNDS[:PER_KB[:STEP@BYTES]] [service options] (each a whole number, 0 or more)");
                return Contracts.ServiceExitCodes.BadArguments;
            }
            var rest = new string[args.Length - 1];
            Array.Copy(args, 1, rest, 0, rest.Length);
            return ServiceProcess.Run("FixedWorkService", rest, options =>
            {
                var handler = new HttpListenerService.ContractHandler(options);
                return ListenerService.Start(options, context =>
                {
                    FixedWork.Run(work.RoundsFor(context.Request.ContentLength64));
                    return handler.HandleAsync(context);
                });
            });
        }
    }

    /// <summary>The rounds a request does: fixed, per KB of its declared body, and a step from a body size on.</summary>
    public sealed class Work
    {
        public int Fixed { get; private set; }
        public int PerKb { get; private set; }
        public int Step { get; private set; }
        public long StepFrom { get; private set; } = long.MaxValue;

        /// <summary>The rounds for a body of <paramref name="contentLength"/> bytes (-1: not declared, no per-KB rounds).</summary>
        public int RoundsFor(long contentLength) =>
            contentLength <= 0 ? Fixed : (int)(Fixed + PerKb * contentLength / 1024 + (contentLength >= StepFrom ? Step : 0));

        /// <summary>"N", "N:K" or "N:K:S@B".</summary>
        public static bool TryParse(string text, out Work work)
        {
            work = new Work();
            var parts = text.Split(':');
            if (parts.Length > 3 || !Whole(parts[0], out var n)) return false;
            work.Fixed = n;
            if (parts.Length > 1)
            {
                if (!Whole(parts[1], out var k)) return false;
                work.PerKb = k;
            }
            if (parts.Length > 2)
            {
                var step = parts[2].Split('@');
                if (step.Length != 2 || !Whole(step[0], out var s) || !Whole(step[1], out var b)) return false;
                work.Step = s;
                work.StepFrom = b;
            }
            return true;
        }

        private static bool Whole(string text, out int value) => int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value);
    }

    /// <summary>The extra work: xorshift rounds whose result is kept, so no compiler can drop the loop.</summary>
    public static class FixedWork
    {
        /// <summary>Written after every request's rounds; read by nobody, which is the point: the loop's result escapes.</summary>
        public static ulong Sink;

        public static void Run(int rounds)
        {
            var x = 0x9E3779B97F4A7C15UL;
            for (var i = 0; i < rounds; i++)
            {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
            }
            Sink = x;
        }
    }
}
