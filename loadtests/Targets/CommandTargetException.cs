using Comparator.Errors;

namespace Comparator.Targets;

/// <summary>A command target that did not start at its first try: a mistake in its command, refused in one line with exit 2.</summary>
public sealed class CommandTargetException(string message) : ComparatorException(ExitCodes.BadArguments, message);
