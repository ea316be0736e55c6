using System;
using System.Globalization;
using Comparator.ListenerHosting;

namespace Comparator.FixedWorkService
{
    /// <summary>
    /// `FixedWorkService N [service options]`: answers the contract as httplistener-mono does, after N
    /// rounds of fixed arithmetic per request. Not a timed spin: under the simulator a timed spin shrinks
    /// with the slowdown (the clock runs on while the simulated CPU crawls), where N rounds are the same
    /// instructions on any CPU and at any speed. A twin with N &gt; 0 against one with N = 0 is a service
    /// made costlier by a known count of instructions a request, the gap the simulated figure must find.
    /// </summary>
    public static class Program
    {
        public static int Main(string[] args)
        {
            if (args.Length < 1 || !int.TryParse(args[0], NumberStyles.None, CultureInfo.InvariantCulture, out var rounds))
            {
                Console.Error.WriteLine("FixedWorkService: usage: FixedWorkService ROUNDS [service options] (ROUNDS: a whole number, 0 or more)");
                return Contracts.ServiceExitCodes.BadArguments;
            }
            var rest = new string[args.Length - 1];
            Array.Copy(args, 1, rest, 0, rest.Length);
            return ServiceProcess.Run("FixedWorkService", rest, options =>
            {
                var handler = new HttpListenerService.ContractHandler(options);
                return ListenerService.Start(options, context =>
                {
                    FixedWork.Run(rounds);
                    return handler.HandleAsync(context);
                });
            });
        }
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
