using Comparator.Errors;

namespace Comparator.Cli;

/// <summary>Bad command-line input; the message is the one line the user sees, and the exit code is 2.</summary>
public sealed class UsageException(string message) : ComparatorException(ExitCodes.BadArguments, message);

public static class ValidatedSettings
{
    /// <summary>The value of a setting checked below the command line, or the command refused with its line (exit 2).</summary>
    public static T OrUsage<T>(this Validated<T> setting) => setting.IsValid ? setting.Value : throw new UsageException(setting.Error!);
}
