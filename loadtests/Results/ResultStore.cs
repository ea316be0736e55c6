using System.IO;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Comparator.Results;

/// <summary>results.json: the whole <see cref="RunResult"/>, versioned, read back exactly as written.</summary>
public static class ResultStore
{
    /// <summary>The JSON shape of every file the comparator saves (results.json, soak.json).</summary>
    internal static readonly JsonSerializerOptions Options = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    /// <summary>The run in this comparator's shape, so under its schema version whatever version the run was read from.</summary>
    public static string Serialize(RunResult run) => JsonSerializer.Serialize(Current(run), Options);

    /// <summary>The same shape; on one line where <paramref name="indented"/> is false (for a tool that reads lines).</summary>
    public static string Serialize(RunResult run, bool indented) =>
        indented ? Serialize(run) : JsonSerializer.Serialize(Current(run), new JsonSerializerOptions(Options) { WriteIndented = false });

    /// <summary>profile.json of the profile command: the profile alone, in the same shape.</summary>
    public static string Serialize(ProfileResult profile) => JsonSerializer.Serialize(profile, Options);

    /// <summary>A profile.json read back, as <see cref="Serialize(ProfileResult)"/> wrote it.</summary>
    public static ProfileResult DeserializeProfile(string json) =>
        JsonSerializer.Deserialize<ProfileResult>(json, Options) ?? throw new JsonException("profile.json holds no profile");

    private static RunResult Current(RunResult run) => run with { SchemaVersion = RunResult.CurrentSchemaVersion };

    /// <summary>
    /// Reads a results file as it was written; a file of another schema version or no result at all is an error with one line.
    /// A file saved before the verdicts were stored has none here: Comparing's SavedRun.Read judges it.
    /// </summary>
    public static RunResult Deserialize(string json, string source)
    {
        int version;
        try
        {
            using var doc = JsonDocument.Parse(json);
            version = doc.RootElement.TryGetProperty("schemaVersion", out var v) && v.TryGetInt32(out var n) ? n : -1;
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"{source} is not JSON: {e.Message}");
        }
        if (version < RunResult.OldestReadableSchemaVersion || version > RunResult.CurrentSchemaVersion)
            throw new InvalidDataException($"{source} has schema version {(version < 0 ? "none" : version)}; this comparator reads versions " +
                                           $"{RunResult.OldestReadableSchemaVersion} to {RunResult.CurrentSchemaVersion}");
        RunResult? run;
        try
        {
            run = JsonSerializer.Deserialize<RunResult>(json, Options);
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"{source} is not a comparator result: {e.Message}");
        }
        // A file of the right version but the wrong shape (hand-edited, truncated, foreign) is refused
        // here, not half-read: every renderer may rely on these being present.
        var missing = run is null ? "everything"
            : run.Spec is null ? "spec"
            : run.Spec.Drivers is null ? "spec.drivers"
            : run.Spec.Machine is null ? "spec.machine"
            : run.Targets is null ? "targets"
            : run.Cells is null ? "cells"
            : run.Cells.Any(c => c?.Key is null || c.Repeats is null || c.Flags is null) ? "a cell's key, repeats or flags"
            : null;
        if (missing is not null) throw new InvalidDataException($"{source} is not a complete comparator result: {missing} missing");
        return run!;
    }
}
