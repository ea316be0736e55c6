using System;
using System.Collections.Generic;
using Comparator.Contracts;
using Comparator.ListenerHosting;
using Comparator.WcfClassicService.Hosting;

namespace Comparator.WcfClassicService
{
    public static class Program
    {
        private const string Name = "WcfClassicService";

        public static int Main(string[] args)
        {
            // --transport is this service's own option; ServiceProcess knows only the shared ones.
            var rest = new List<string>();
            var transport = TransportKinds.Default;
            for (var i = 0; i < args.Length; i++)
            {
                if (args[i] != "--transport") { rest.Add(args[i]); continue; }
                var value = i + 1 < args.Length ? args[++i] : null;
                if (!TransportKinds.TryParse(value, out transport))
                {
                    Console.Error.WriteLine(Name + ": --transport needs 'listener' or 'stock', not '" + value + "'");
                    return ServiceExitCodes.BadArguments;
                }
            }
            return ServiceProcess.Run(Name, rest.ToArray(), options => ContractHost.Start(options, transport));
        }
    }
}
