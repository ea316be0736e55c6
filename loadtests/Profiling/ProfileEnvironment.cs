using System.IO;

namespace Comparator.Profiling;

/// <summary>
/// The switches a profiled target starts with, the same on every side of a comparison, so that a sampled frame of JIT-compiled
/// code has its method's name: each runtime writes /tmp/perf-PID.map, which `perf script` reads. None of them is set on a
/// measured target: they change what the runtime does (a map line per compiled method; .NET without its precompiled code).
/// </summary>
public static class ProfileEnvironment
{
    /// <summary>What each switch is for, as the report states it.</summary>
    public const string Description =
        "Mono: --jitmap (its JIT map) and MONO_DEBUG=disable_omit_fp (frame pointers, for the stack walk); " +
        ".NET: DOTNET_PerfMapEnabled=3 (its JIT map), DOTNET_EnableWriteXorExecute=0 (with W^X on, JIT code runs from a double mapping perf cannot name) " +
        "and DOTNET_ReadyToRun=0 (the framework's precompiled code is not in the map: it is compiled like the rest)";

    /// <summary>The variables, each appended to what this process has of it (a user's own MONO_ENV_OPTIONS stays).</summary>
    public static IReadOnlyDictionary<string, string> Variables()
    {
        static string With(string name, string value, string separator) =>
            Environment.GetEnvironmentVariable(name) is { Length: > 0 } own ? own + separator + value : value;
        return new Dictionary<string, string>
        {
            ["MONO_ENV_OPTIONS"] = With("MONO_ENV_OPTIONS", "--jitmap", " "),
            ["MONO_DEBUG"] = With("MONO_DEBUG", "disable_omit_fp", ","),
            ["DOTNET_PerfMapEnabled"] = "3",
            ["DOTNET_EnableWriteXorExecute"] = "0",
            ["DOTNET_ReadyToRun"] = "0",
        };
    }

    /// <summary>Removes the JIT map a profiled process left (after `perf script` has read it): nothing of a run is left in /tmp.</summary>
    public static void RemoveMaps(int pid)
    {
        foreach (var dir in new[] { "/tmp", Path.GetTempPath() }.Distinct())
        foreach (var name in new[] { $"perf-{pid}.map", $"perfinfo-{pid}.map" })
        {
            try { File.Delete(Path.Combine(dir, name)); }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException) { }
        }
    }
}
