namespace Comparator.Errors;

/// <summary>The comparator's exit codes.</summary>
public static class ExitCodes
{
    public const int Success = 0;
    /// <summary>A target failed verification, or could not be started.</summary>
    public const int Failed = 1;
    /// <summary>Bad arguments, or an https --target refused for its certificate (what to pass is --insecure).</summary>
    public const int BadArguments = 2;
}
