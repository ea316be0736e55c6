namespace Comparator.Errors;

/// <summary>The comparator's exit codes, every command's: a CI gate reads them, so each value is kept once it is given.</summary>
public static class ExitCodes
{
    public const int Success = 0;
    /// <summary>A target failed verification, or could not be started; diff, history and capacity: a regression.</summary>
    public const int Failed = 1;
    /// <summary>Bad arguments, or an https --target refused for its certificate (what to pass is --insecure).</summary>
    public const int BadArguments = 2;
    /// <summary>diff: the two files cannot be compared (no cell in common, foreign or unreadable files): a refusal as bad arguments are.</summary>
    public const int Incomparable = BadArguments;
    /// <summary>diff and history: too little evidence to judge (a side with fewer than two launches, a req/s not settled); a gate never passes what it cannot judge.</summary>
    public const int CannotJudge = 3;
}
