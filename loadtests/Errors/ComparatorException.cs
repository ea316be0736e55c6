namespace Comparator.Errors;

/// <summary>
/// A failure the user is told about in one line ("error: " and the message), and the exit code the
/// command then ends with (<see cref="ExitCodes"/>). Every folder may throw one, or a kind of it;
/// Program catches it once. Anything else that escapes is a bug of ours, reported as internal.
/// </summary>
public class ComparatorException(int exitCode, string message) : Exception(message)
{
    public int ExitCode { get; } = exitCode;
}
