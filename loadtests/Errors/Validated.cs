namespace Comparator.Errors;

/// <summary>
/// A setting checked: its value, or the one line that says why it is refused. The checks below the
/// command line return one rather than throw; Cli refuses the command with the line (exit 2).
/// </summary>
public sealed class Validated<T>
{
    private readonly T? _value;

    private Validated(T? value, string? error) => (_value, Error) = (value, error);

    /// <summary>Why the setting is refused, in one line; null when it is valid.</summary>
    public string? Error { get; }

    public bool IsValid => Error is null;

    /// <summary>The value of a valid setting; asking it of a refused one is a bug of the caller.</summary>
    public T Value => Error is null ? _value! : throw new InvalidOperationException("a refused setting has no value: " + Error);

    public static Validated<T> Valid(T value) => new(value, null);

    public static Validated<T> Refused(string error) => new(default, error);
}
