using System.Text.RegularExpressions;

namespace Comparator.Targets;

/// <summary>
/// A user's own service, started by command every launch as a built target is (as crank's agent starts an
/// executable job): the program and its arguments, where and with what environment it runs, how it is told its
/// port and how it is known to be ready. Read from `--target NAME=cmd:...` or a targets file.
/// </summary>
/// <param name="Program">the program as given (a name on PATH, or a path, relative to <paramref name="WorkingDirectory"/>)</param>
/// <param name="Arguments">its arguments, "{port}" in any of them replaced by the port it is to listen on</param>
/// <param name="WorkingDirectory">the full path it starts in</param>
public sealed record CommandSpec(string Program, IReadOnlyList<string> Arguments, string WorkingDirectory)
{
    /// <summary>The placeholder replaced by the port chosen for a launch, in the arguments and the environment's values.</summary>
    public const string PortPlaceholder = "{port}";

    public static readonly TimeSpan DefaultReadyTimeout = TimeSpan.FromSeconds(30);

    /// <summary>How long a service has after SIGTERM before its process group is killed.</summary>
    public static readonly TimeSpan DefaultStopGrace = TimeSpan.FromSeconds(5);

    /// <summary>Variables it is started with besides this process's own, "{port}" replaced in each value.</summary>
    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>The URL it always listens at (its own configuration fixes the port); null: it is told a free port through "{port}".</summary>
    public Uri? FixedUrl { get; init; }

    public ReadyCheck Ready { get; init; } = ReadyCheck.AnyAnswer;

    public TimeSpan ReadyTimeout { get; init; } = DefaultReadyTimeout;

    public TimeSpan StopGrace { get; init; } = DefaultStopGrace;

    /// <summary>The program's full path, found when the command was read (<see cref="CommandRuntime.Resolve"/>).</summary>
    public string ResolvedProgram { get; init; } = Program;

    /// <summary>Whether "{port}" appears in an argument or an environment value: the service is told its port.</summary>
    public bool TakesPort => Arguments.Any(HasPlaceholder) || Environment.Values.Any(HasPlaceholder);

    private static bool HasPlaceholder(string text) => text.Contains(PortPlaceholder, StringComparison.Ordinal);

    /// <summary>Where it listens in a launch given <paramref name="port"/>: its fixed URL, or http://127.0.0.1:PORT/.</summary>
    public Uri BaseUrl(int port) => FixedUrl ?? new Uri($"http://127.0.0.1:{port.ToString(System.Globalization.CultureInfo.InvariantCulture)}/");

    public IReadOnlyList<string> ArgumentsFor(int port) => Arguments.Select(a => Substitute(a, port)).ToList();

    public IReadOnlyDictionary<string, string> EnvironmentFor(int port) => Environment.ToDictionary(e => e.Key, e => Substitute(e.Value, port));

    private static string Substitute(string text, int port) => text.Replace(PortPlaceholder, port.ToString(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);

    /// <summary>The command as a reader would type it, for reports: "dotnet out/Old.dll --port {port}".</summary>
    public string CommandLine => string.Join(" ", new[] { Program }.Concat(Arguments).Select(Quote));

    private static string Quote(string word) => word.Length > 0 && word.All(c => !char.IsWhiteSpace(c) && c is not ('\'' or '"')) ? word : "'" + word.Replace("'", "'\\''") + "'";
}

/// <summary>
/// How a started service is known to be ready: an HTTP answer at <paramref name="Path"/> (any status, or
/// <paramref name="Status"/> when given), or a line of its output matching <paramref name="OutputLine"/>.
/// </summary>
public sealed record ReadyCheck(string? Path, int? Status, Regex? OutputLine)
{
    /// <summary>The default: any HTTP answer at / (a 404 is an answer: the server is up).</summary>
    public static ReadyCheck AnyAnswer { get; } = new("/", null, null);

    public string Describe() => OutputLine is not null ? $"a line of its output matching /{OutputLine}/"
        : $"an HTTP answer at {Path}" + (Status is int s ? $" with status {s}" : " (any status)");
}
