using System.IO;

namespace Comparator.Targets;

/// <summary>
/// What a command runs and on which runtime, found from the command itself: `dotnet X.dll` and an apphost
/// (a program with X.dll and X.runtimeconfig.json beside it) are .NET, `mono X.exe` is Mono, anything else is
/// "other". The runtime decides what the run can read of it: EventPipe counters and the hold until its JIT is
/// steady on .NET, the simulated pass on Mono and other programs.
/// </summary>
public static class CommandRuntime
{
    /// <summary>The runtime of <paramref name="command"/> (its program already resolved).</summary>
    public static HostRuntime Detect(CommandSpec command)
    {
        var program = command.ResolvedProgram;
        var name = Path.GetFileNameWithoutExtension(program).ToLowerInvariant();
        if (name == "dotnet")
            return command.Arguments.FirstOrDefault(a => !a.StartsWith('-')) is string first && first.EndsWith(".dll", StringComparison.OrdinalIgnoreCase)
                ? HostRuntime.DotNet : HostRuntime.Other;
        if (name is "mono" or "mono-sgen") return HostRuntime.NetFramework;
        var directory = Path.GetDirectoryName(program) ?? ".";
        var stem = Path.GetFileNameWithoutExtension(program);
        if (File.Exists(Path.Combine(directory, stem + ".dll")) && File.Exists(Path.Combine(directory, stem + ".runtimeconfig.json")))
            return HostRuntime.DotNet;
        return HostRuntime.Other;
    }

    /// <summary>The runtime's name as a report gives it.</summary>
    public static string Describe(HostRuntime runtime) => runtime switch
    {
        HostRuntime.DotNet => ".NET (found from its command)",
        HostRuntime.NetFramework => OperatingSystem.IsWindows() ? ".NET Framework (found from its command)" : "Mono (found from its command)",
        _ => "other: neither dotnet X.dll, an apphost nor mono X.exe",
    };

    /// <summary>
    /// The program's full path: a path (it has a directory separator) taken from <paramref name="workingDirectory"/>,
    /// a bare name searched on PATH. Null with the reason when it is not there or not executable.
    /// </summary>
    public static string? Resolve(string program, string workingDirectory, out string? whyNot)
    {
        whyNot = null;
        if (program.Length == 0) { whyNot = "the command is empty"; return null; }
        var isPath = program.IndexOfAny(new[] { '/', '\\' }) >= 0;
        var found = isPath ? Path.GetFullPath(program, workingDirectory) : Measuring.ToolPath.Find(program);
        if (found is null || !File.Exists(found))
        {
            whyNot = isPath ? $"program {found} not found" : $"program '{program}' not found on PATH";
            return null;
        }
        if (!OperatingSystem.IsWindows() && (File.GetUnixFileMode(found) & (UnixFileMode.UserExecute | UnixFileMode.GroupExecute | UnixFileMode.OtherExecute)) == 0)
        {
            whyNot = $"program {found} is not executable (chmod +x it, or name its runtime: dotnet X.dll, mono X.exe)";
            return null;
        }
        return found;
    }
}
