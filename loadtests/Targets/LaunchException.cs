namespace Comparator.Targets;

/// <summary>A target could not be started; the message is one line fit for the user.</summary>
public sealed class LaunchException : Exception
{
    public LaunchException(string message) : base(message) { }
}
