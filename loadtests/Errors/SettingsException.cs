namespace Comparator.Errors;

/// <summary>
/// A setting this machine cannot honour, found only while it is applied (a process placed on CPUs
/// this OS cannot place it on): one line, exit 2, as the command line's own mistakes. A setting that
/// can be checked before anything runs is <see cref="Validated{T}"/> instead.
/// </summary>
public sealed class SettingsException(string message) : ComparatorException(ExitCodes.BadArguments, message);
