using System.Threading.Tasks;
using Comparator.Cli;
using Comparator.Targets;

namespace Comparator;

public static class Program
{
    public static async Task<int> Main(string[] args)
    {
        Drivers.InlineSocketCompletions.Enable();
        try
        {
            // Every command, option and help text is defined in Cli/CommandLine.cs and each command's Define().
            return await CommandLine.InvokeAsync(args);
        }
        catch (UsageException e)
        {
            Console.Error.WriteLine("error: " + e.Message);
            return ExitCodes.BadArguments;
        }
        catch (Scenarios.ScenarioException e)
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
        catch (CheckoutMissingException e)
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
