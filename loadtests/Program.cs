using System;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Cli;
using Comparator.Targets;

namespace Comparator;

public static class Program
{
    private const string Usage =
        "usage: comparator COMMAND [options]\n" +
        "  " + RunCommand.Usage + "\n" +
        "  " + ServeCommand.Usage + "\n" +
        "  " + BenchDriverCommand.Usage + "\n" +
        "  " + DiffCommand.Usage + "\n" +
        "  " + ReportCommand.Usage + "\n" +
        "  " + VerifyCommand.Usage + "\n" +
        "  " + SoakCommand.Usage + "\n" +
        "  " + PayloadsCommand.Usage + "\n" +
        "  targets                                list every target, its stack, runtime and server, and whether it runs here";

    public static async Task<int> Main(string[] args)
    {
        var command = args.Length == 0 ? "run" : args[0];
        var rest = args.Skip(1).ToArray();
        try
        {
            switch (command)
            {
                case "run": return await RunCommand.RunAsync(rest);
                case "serve": return await ServeCommand.RunAsync(rest);
                case "bench-driver": return await BenchDriverCommand.RunAsync(rest);
                case "diff": return DiffCommand.Run(rest);
                case "report": return ReportCommand.Run(rest);
                case "verify": return await VerifyCommand.RunAsync(rest);
                case "soak": return await SoakCommand.RunAsync(rest);
                case "targets": return TargetsCommand.Run(rest);
                case "payloads": return PayloadsCommand.Run(rest);
                case "help": case "--help": case "-h":
                    Console.WriteLine(Usage);
                    return ExitCodes.Success;
                default:
                    throw new UsageException($"unknown command '{command}'; commands: run, serve, bench-driver, diff, report, verify, soak, targets, payloads, help");
            }
        }
        catch (UsageException e)
        {
            Console.Error.WriteLine("error: " + e.Message);
            return ExitCodes.BadArguments;
        }
        catch (IncomparableException e)
        {
            Console.Error.WriteLine("error: " + e.Message);
            return DiffCommand.Incomparable;
        }
        catch (Measuring.ToolMissingException e)
        {
            Console.Error.WriteLine("error: " + e.Message);
            return ExitCodes.BadArguments;
        }
        catch (LaunchException e)
        {
            Console.Error.WriteLine("error: " + e.Message);
            return ExitCodes.Failed;
        }
        catch (Exception e) when (Environment.GetEnvironmentVariable("COMPARATOR_DEBUG") is null)
        {
            // A bug of ours: one line for the user; COMPARATOR_DEBUG=1 shows the stack trace.
            Console.Error.WriteLine($"error: internal: {e.GetType().Name}: {e.Message} (set COMPARATOR_DEBUG=1 for details)");
            return ExitCodes.Failed;
        }
    }
}
