namespace Comparator.Drivers;

/// <summary>
/// The comparator's sockets run their completions on the runtime's epoll thread instead of handing
/// each one to the thread pool (DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1, which the runtime
/// reads once, when the first socket starts): measured with `comparator bench-driver`, it takes the
/// socket driver from 1.5x to 1.16x wrk's CPU per request, and the httpclient driver from 1.57x to
/// 1.35x. It is the comparator's own setting: the targets it starts get the environment the user
/// gave the comparator, without it (<see cref="Targets.TargetLauncher"/>). A driver's per-answer work
/// (parsing, checking the body) then runs on that thread, which is why it is kept small.
/// </summary>
public static class InlineSocketCompletions
{
    public const string Variable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>The user's own value, or null: what the targets get.</summary>
    public static string? UsersValue { get; private set; }

    /// <summary>Call first thing in Main, before any socket exists.</summary>
    public static void Enable()
    {
        UsersValue = Environment.GetEnvironmentVariable(Variable);
        Environment.SetEnvironmentVariable(Variable, "1");
    }

    /// <summary>Gives a child process the user's value back (or none).</summary>
    public static void Restore(System.Collections.Generic.IDictionary<string, string?> environment)
    {
        if (UsersValue is null) environment.Remove(Variable);
        else environment[Variable] = UsersValue;
    }
}
