using System;
using System.Collections.Generic;

namespace Comparator.Cli;

/// <summary>
/// Reads "--name value" and "--flag" arguments for one command; anything it was not asked for
/// is an error, so a typo never silently runs with defaults.
/// </summary>
public sealed class ArgumentReader
{
    private readonly string _command;
    private readonly Dictionary<string, string?> _values = new(StringComparer.Ordinal);

    public ArgumentReader(string command, IReadOnlyList<string> args, IReadOnlyCollection<string> valueOptions, IReadOnlyCollection<string> flagOptions)
    {
        _command = command;
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            if (Contains(flagOptions, name))
                _values[name] = null;
            else if (Contains(valueOptions, name))
            {
                if (i + 1 >= args.Count || args[i + 1].StartsWith("--", StringComparison.Ordinal))
                    throw new UsageException($"{command}: {name} needs a value");
                _values[name] = args[++i];
            }
            else
                throw new UsageException($"{command}: unknown option '{name}'; options: {string.Join(' ', valueOptions)} {string.Join(' ', flagOptions)}".TrimEnd());
        }
    }

    public string? Value(string name) => _values.TryGetValue(name, out var v) ? v : null;

    public bool Flag(string name) => _values.ContainsKey(name);

    public long? PositiveLong(string name)
    {
        var raw = Value(name);
        if (raw is null) return null;
        if (!long.TryParse(raw, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var v) || v < 1)
            throw new UsageException($"{_command}: {name} needs a positive whole number, not '{raw}'");
        return v;
    }

    /// <summary>"on" or "off" (the default when absent); anything else is an error.</summary>
    public bool OnOff(string name) => Value(name) switch
    {
        null or "off" => false,
        "on" => true,
        var other => throw new UsageException($"{_command}: {name} takes on or off, not '{other}'"),
    };

    private static bool Contains(IReadOnlyCollection<string> set, string name)
    {
        foreach (var s in set) if (s == name) return true;
        return false;
    }
}
