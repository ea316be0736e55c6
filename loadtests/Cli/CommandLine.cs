using System.CommandLine;
using System.CommandLine.Help;
using System.CommandLine.Parsing;
using System.Threading.Tasks;

namespace Comparator.Cli;

/// <summary>
/// The comparator's command line on System.CommandLine: every command and option is defined once,
/// with its description (each command's Define()), and help comes from those definitions
/// (`comparator --help`, `comparator COMMAND --help`, -h, -?). No command, or options first, means run.
/// Every mistake is one line `error: COMMAND: ...` and exit 2: an unknown option names the nearest
/// valid one, and an option that takes one value given twice is refused rather than overridden.
/// </summary>
public static class CommandLine
{
    /// <summary>
    /// An option that names several things: takes one value per occurrence, may be repeated, and
    /// the values accumulate; each value may itself be a comma list (`--sizes 500 --sizes 4KB,64KB`).
    /// </summary>
    public static Option<string[]> Many(string name, string helpName, string description) => new(name)
    {
        Description = description + " Comma list or repeated; repetitions add up.",
        HelpName = helpName,
        Arity = ArgumentArity.OneOrMore,
        AllowMultipleArgumentsPerToken = false,
    };

    /// <summary>An option that takes one value, given at most once.</summary>
    public static Option<string> One(string name, string helpName, string description) => new(name)
    {
        Description = description,
        HelpName = helpName,
        Arity = ArgumentArity.ExactlyOne,
    };

    public static Option<bool> Flag(string name, string description) => new(name) { Description = description, Arity = ArgumentArity.Zero };

    /// <summary>--ports, as every command that starts targets takes it (read by <see cref="ArgumentReader.Ports"/>).</summary>
    public static Option<string> Ports() => One("--ports", "FIRST-LAST", $"The ports the targets are started on, such as {Targets.PortRange.Example}, instead of any free one: " +
        "on Windows, one URL reservation per port of the range (netsh http add urlacl) lets the HttpListener targets run without elevation (docs/windows.md).");

    public static RootCommand Build()
    {
        var root = new RootCommand(
            "Comparator: measures the same service contract on several HTTP stacks (WCF, Web API, ASP.NET Core, Kestrel, HttpListener) " +
            "side by side. With no command, or with options only, it runs `run`.")
        {
            RunCommand.Define(),
            ServeCommand.Define(),
            VerifyCommand.Define(),
            SoakCommand.Define(),
            BenchDriverCommand.Define(),
            CalibrateCommand.Define(),
            ProfileCommand.Define(),
            SimulateCommand.Define(),
            DiffCommand.Define(),
            HistoryCommand.Define(),
            ReportCommand.Define(),
            ImportCrankCommand.Define(),
            TargetsCommand.Define(),
            PayloadsCommand.Define(),
            ScenarioCommand.Define(),
            CapacityCommand.Define(),
        };
        // Piped help (tests, the README) wraps at a fixed width; a terminal's help at the terminal's.
        if (Console.IsOutputRedirected && root.Options.OfType<HelpOption>().FirstOrDefault()?.Action is HelpAction help)
            help.MaxWidth = 120;
        return root;
    }

    private static readonly string[] HelpAliases = { "--help", "-h", "-?", "/h", "/?", "--version" };

    /// <summary>Parses and runs one command line; throws <see cref="UsageException"/> for a mistake in it.</summary>
    public static async Task<int> InvokeAsync(string[] args)
    {
        var parse = Build().Parse(Normalize(args), Configuration);
        if (parse.Action is not HelpAction && Problem(parse) is string problem) throw new UsageException(problem);
        // Our own handlers: exceptions reach Program (one line, no stack trace), and Ctrl+C reaches StopSignals.
        return await parse.InvokeAsync(new InvocationConfiguration { EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = null });
    }

    /// <summary>Parses one command's arguments alone (run's, for tests and bench-driver); throws <see cref="UsageException"/> for a mistake.</summary>
    public static ParseResult ParseOrThrow(Command command, IReadOnlyList<string> args)
    {
        var parse = command.Parse(args, Configuration);
        if (Problem(parse) is string problem) throw new UsageException(problem);
        return parse;
    }

    // No response files: an argument starting with @ is a value like any other, as it always was.
    private static ParserConfiguration Configuration => new() { ResponseFileTokenReplacer = null };

    /// <summary>No arguments, or options first (`comparator --quick`): run. `help [COMMAND]`: that command's --help.</summary>
    private static string[] Normalize(string[] args)
    {
        if (args.Length == 0) return new[] { "run" };
        if (args[0] == "help") return args.Skip(1).Append("--help").ToArray();
        if (args[0].StartsWith('-') && !HelpAliases.Contains(args[0])) return args.Prepend("run").ToArray();
        return args;
    }

    /// <summary>The first mistake in a parsed command line, as the one line the user sees; null when there is none.</summary>
    public static string? Problem(ParseResult parse)
    {
        var command = parse.CommandResult.Command;
        var prefix = command is RootCommand ? "" : command.Name + ": ";

        foreach (var given in parse.CommandResult.Children.OfType<OptionResult>())
        {
            var name = given.Option.Name;
            // System.CommandLine hands an option the next token even when that is an option (`--out --quick`).
            if (given.Tokens.Any(t => t.Value.StartsWith("--", StringComparison.Ordinal)))
                return $"{prefix}{name} needs a value";
            if (given.IdentifierTokenCount > 1 && given.Option.ValueType != typeof(string[]))
            {
                var times = given.IdentifierTokenCount == 2 ? "twice" : $"{given.IdentifierTokenCount} times";
                return given.Tokens.Count > 0
                    ? $"{prefix}{name} given {times} ({string.Join(", ", given.Tokens.Select(t => $"'{t.Value}'"))}); it takes one value, give it once"
                    : $"{prefix}{name} given {times}; give it once";
            }
        }

        var unmatched = parse.UnmatchedTokens;
        var unknownOption = unmatched.FirstOrDefault(LooksLikeOption);
        if (unknownOption is not null)
        {
            var names = command.Options.Where(o => o is not VersionOption || command is RootCommand)
                .SelectMany(o => o.Aliases.Prepend(o.Name)).Where(n => n.StartsWith("--", StringComparison.Ordinal));
            return $"{prefix}unknown option '{unknownOption}'" + Suggestion(unknownOption, names, command);
        }
        if (unmatched.Count > 0)
        {
            if (command is RootCommand)
            {
                var suggestion = Suggestion(unmatched[0], command.Subcommands.Select(c => c.Name), command);
                return $"unknown command '{unmatched[0]}'" +
                       (suggestion.Length > 0 ? suggestion : $"; commands: {string.Join(", ", command.Subcommands.Select(c => c.Name))}");
            }
            return $"{prefix}unexpected argument '{unmatched[0]}'; see 'comparator {command.Name} --help'";
        }

        foreach (var error in parse.Errors)
        {
            if (error.SymbolResult is OptionResult { Tokens.Count: 0 } missing && missing.Option.Arity.MinimumNumberOfValues > 0)
                return $"{prefix}{missing.Option.Name} needs a value";
            return prefix + error.Message.Split('\n')[0].Trim();
        }
        return null;
    }

    private static bool LooksLikeOption(string token) =>
        token.Length > 1 && token[0] == '-' && !char.IsDigit(token[1]) && token[1] != '.';

    /// <summary>"; did you mean '--endpoints'?" for the nearest name, else where to look.</summary>
    private static string Suggestion(string typed, IEnumerable<string> names, Command command)
    {
        var best = names.Distinct()
            .Select(n => (Name: n, Distance: n.StartsWith(typed, StringComparison.Ordinal) && typed.Length >= 4 ? 0 : Levenshtein(typed, n)))
            .OrderBy(c => c.Distance).ThenBy(c => c.Name.Length).FirstOrDefault();
        if (best.Name is not null && best.Distance <= Math.Max(2, typed.Length / 3))
            return $"; did you mean '{best.Name}'?";
        return command is RootCommand ? "" : $"; see 'comparator {command.Name} --help'";
    }

    public static int Levenshtein(string a, string b)
    {
        var previous = Enumerable.Range(0, b.Length + 1).ToArray();
        var current = new int[b.Length + 1];
        for (var i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            for (var j = 1; j <= b.Length; j++)
                current[j] = Math.Min(Math.Min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
            (previous, current) = (current, previous);
        }
        return previous[b.Length];
    }
}
