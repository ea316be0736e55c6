using System.Threading.Tasks;
using Comparator.Cli;
using Comparator.Errors;

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
        catch (ComparatorException e)
        {
            // Bad arguments, a scenario or a tool missing, two results that cannot be compared, a target that cannot start: one line, its exit code.
            Console.Error.WriteLine("error: " + e.Message);
            return e.ExitCode;
        }
        catch (Exception e) when (Environment.GetEnvironmentVariable("COMPARATOR_DEBUG") is null)
        {
            // A bug of ours: one line for the user; COMPARATOR_DEBUG=1 shows the stack trace.
            Console.Error.WriteLine($"error: internal: {e.GetType().Name}: {e.Message} (set COMPARATOR_DEBUG=1 for details)");
            return ExitCodes.Failed;
        }
    }
}
