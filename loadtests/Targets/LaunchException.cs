using Comparator.Errors;

namespace Comparator.Targets;

/// <summary>A target could not be started; the message is one line fit for the user; the exit code is 1.</summary>
public sealed class LaunchException(string message) : ComparatorException(ExitCodes.Failed, message);
