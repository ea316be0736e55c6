namespace Comparator.Cli;

/// <summary>The comparator's exit codes.</summary>
public static class ExitCodes
{
    public const int Success = 0;
    /// <summary>A target failed verification, or could not be started.</summary>
    public const int Failed = 1;
    public const int BadArguments = 2;
}
