using Comparator.Errors;

namespace Comparator.Targets;

/// <summary>
/// A command needs the repository (a catalogue target, its build) and the comparator runs without
/// one, installed as a .NET tool. The message is one line that says how to get it; the exit code is 2.
/// </summary>
public sealed class CheckoutMissingException(string message) : ComparatorException(ExitCodes.BadArguments, message);
