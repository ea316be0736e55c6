using System.CommandLine;
using System.CommandLine.Parsing;

namespace Comparator.Cli;

/// <summary>
/// One command's options as System.CommandLine parsed them (see <see cref="CommandLine"/>), read by
/// name. The values stay text here: each command turns them into durations, sizes and targets with
/// its own one-line messages. An option that names several things (<see cref="CommandLine.Many"/>)
/// reads as every value given, from every repetition, in order.
/// </summary>
public sealed class ArgumentReader
{
    private readonly string _command;
    private readonly ParseResult _parse;
    private readonly Command _definition;

    public ArgumentReader(ParseResult parse)
    {
        _parse = parse;
        _definition = parse.CommandResult.Command;
        _command = _definition.Name;
    }

    /// <summary>The command's name, as its messages start ("run", "calibrate").</summary>
    public string CommandName => _command;

    /// <summary>Whether this command has the option at all (calibrate shares run's parser but not every option).</summary>
    public bool Defines(string name) => _definition.Options.Any(o => o.Name == name);

    /// <summary>The value given; for an option that takes several, all of them joined with commas. Null when the option was not given.</summary>
    public string? Value(string name)
    {
        var option = Find(name);
        if (_parse.GetResult(option) is not OptionResult { Implicit: false }) return null;
        return option switch
        {
            Option<string[]> many => string.Join(',', _parse.GetValue(many) ?? Array.Empty<string>()),
            Option<string> one => _parse.GetValue(one),
            _ => throw new InvalidOperationException($"{_command}: {name} is a flag, not an option with a value"),
        };
    }

    /// <summary>Every item given to an option that names several things: both the comma form and repetition, accumulated.</summary>
    public IReadOnlyList<string> Values(string name) =>
        (Value(name) ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    public bool Flag(string name) => Find(name) is Option<bool> flag
        ? _parse.GetValue(flag)
        : throw new InvalidOperationException($"{_command}: {name} is not a flag");

    public long? PositiveLong(string name)
    {
        var raw = Value(name);
        if (raw is null) return null;
        if (!long.TryParse(raw, NumberStyles.None, CultureInfo.InvariantCulture, out var v) || v < 1)
            throw new UsageException($"{_command}: {name} needs a positive whole number, not '{raw}'");
        return v;
    }

    /// <summary>"on" or "off" (the default when absent, off unless said); anything else is an error.</summary>
    public bool OnOff(string name, bool absent = false) => Value(name) switch
    {
        null => absent,
        "off" => false,
        "on" => true,
        var other => throw new UsageException($"{_command}: {name} takes on or off, not '{other}'"),
    };

    /// <summary>--ports: the range of ports targets are started on, or null when not given.</summary>
    public Targets.PortRange? Ports() => Value("--ports") is not string raw ? null
        : Targets.PortRange.TryParse(raw, out var range) ? range
        : throw new UsageException($"{_command}: --ports takes a range of ports from 1 to 65535 such as {Targets.PortRange.Example}, not '{raw}'");

    /// <summary>A positional argument's values (diff's files, report's file).</summary>
    public IReadOnlyList<string> Arguments(string name)
    {
        var argument = _definition.Arguments.FirstOrDefault(a => a.Name == name)
            ?? throw new InvalidOperationException($"{_command} has no argument {name}");
        return argument switch
        {
            Argument<string[]> many => _parse.GetValue(many) ?? Array.Empty<string>(),
            Argument<string?> one => _parse.GetValue(one) is string v ? new[] { v } : Array.Empty<string>(),
            _ => throw new InvalidOperationException($"{_command}: argument {name} is of type {argument.ValueType}"),
        };
    }

    private Option Find(string name) =>
        _definition.Options.FirstOrDefault(o => o.Name == name)
        ?? throw new InvalidOperationException($"{_command} has no option {name}");
}
