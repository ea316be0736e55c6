using Comparator.Errors;

namespace Comparator.Cli;

/// <summary>Bad command-line input; the message is the one line the user sees, and the exit code is 2.</summary>
public sealed class UsageException(string message) : ComparatorException(ExitCodes.BadArguments, message);
