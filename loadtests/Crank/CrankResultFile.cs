using System.IO;
using System.Text.Json;

namespace Comparator.Crank;

/// <summary>One timestamped value an agent recorded for a job (crank's Measurement).</summary>
public sealed record CrankSample(string Name, DateTimeOffset Timestamp, double Value);

/// <summary>
/// One job of a crank controller's result: what its agent said about the machine (GET /info: cores,
/// OS, hardware name) and every measurement it recorded for the job's process, in time order.
/// </summary>
public sealed record CrankJob(
    string Name,
    IReadOnlyList<CrankSample> Samples,
    int? Cores,
    string? OperatingSystem,
    string? Hardware,
    string? AgentVersion,
    IReadOnlyDictionary<string, double> Results,
    IReadOnlyDictionary<string, string> Texts)
{
    // Texts: measurements whose value is text (the last of each name), such as a load job's raw output.

    public IReadOnlyList<CrankSample> Series(string name) => Samples.Where(s => s.Name == name).OrderBy(s => s.Timestamp).ToList();
}

/// <summary>
/// The file `crank --json FILE` writes: jobResults.jobs.NAME with results (aggregates),
/// measurements (one array per job instance, each { name, timestamp, value }) and environment (the
/// agent's /info). Only what the comparator uses is read; anything else in the file is left alone.
/// </summary>
public sealed record CrankResultFile(string Source, IReadOnlyList<CrankJob> Jobs)
{
    public const string CpuRaw = "benchmarks/cpu/raw";
    public const string WorkingSet = "benchmarks/working-set";

    public CrankJob? Job(string name) => Jobs.FirstOrDefault(j => string.Equals(j.Name, name, StringComparison.OrdinalIgnoreCase));

    public static CrankResultFile Load(string path)
    {
        if (!File.Exists(path)) throw new FileNotFoundException($"no crank result file at {path}; write one with crank's --json FILE", path);
        return Parse(File.ReadAllText(path), path);
    }

    public static CrankResultFile Parse(string json, string source)
    {
        JsonDocument doc;
        try { doc = JsonDocument.Parse(json); }
        catch (JsonException e) { throw new InvalidDataException($"{source} is not JSON: {e.Message}"); }
        using (doc)
        {
            if (!TryGet(doc.RootElement, "jobResults", out var jobResults) || !TryGet(jobResults, "jobs", out var jobs) || jobs.ValueKind != JsonValueKind.Object)
                throw new InvalidDataException($"{source} is not a crank result: it has no jobResults.jobs (write it with crank's --json FILE)");
            var list = new List<CrankJob>();
            foreach (var job in jobs.EnumerateObject())
                list.Add(ReadJob(job.Name, job.Value));
            return new CrankResultFile(source, list);
        }
    }

    private static CrankJob ReadJob(string name, JsonElement job)
    {
        var samples = new List<CrankSample>();
        var texts = new Dictionary<string, string>(StringComparer.Ordinal);
        if (TryGet(job, "measurements", out var sets) && sets.ValueKind == JsonValueKind.Array)
        {
            foreach (var set in sets.EnumerateArray().Where(s => s.ValueKind == JsonValueKind.Array))
            foreach (var m in set.EnumerateArray())
            {
                if (!TryGet(m, "name", out var n) || n.ValueKind != JsonValueKind.String) continue;
                if (!TryGet(m, "timestamp", out var t) || t.ValueKind != JsonValueKind.String ||
                    !DateTimeOffset.TryParse(t.GetString(), CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out var at)) continue;
                if (!TryGet(m, "value", out var v)) continue;
                if (Number(v) is double value) samples.Add(new CrankSample(n.GetString()!, at, value));
                else if (v.ValueKind == JsonValueKind.String) texts[n.GetString()!] = v.GetString()!;
            }
        }
        var results = new Dictionary<string, double>(StringComparer.Ordinal);
        if (TryGet(job, "results", out var r) && r.ValueKind == JsonValueKind.Object)
            foreach (var p in r.EnumerateObject())
                if (Number(p.Value) is double d) results[p.Name] = d;
        int? cores = null;
        string? os = null, hardware = null, version = null;
        if (TryGet(job, "environment", out var env) && env.ValueKind == JsonValueKind.Object)
        {
            if (TryGet(env, "proc", out var proc) && Number(proc) is double c) cores = (int)c;
            os = Text(env, "os");
            hardware = Text(env, "hw");
            version = Text(env, "version");
        }
        return new CrankJob(name, samples, cores, os, hardware, version, results, texts);
    }

    private static bool TryGet(JsonElement e, string name, out JsonElement value)
    {
        value = default;
        if (e.ValueKind != JsonValueKind.Object) return false;
        foreach (var p in e.EnumerateObject())
            if (string.Equals(p.Name, name, StringComparison.OrdinalIgnoreCase)) { value = p.Value; return true; }
        return false;
    }

    private static double? Number(JsonElement e) => e.ValueKind switch
    {
        JsonValueKind.Number => e.GetDouble(),
        JsonValueKind.String when double.TryParse(e.GetString(), NumberStyles.Float, CultureInfo.InvariantCulture, out var d) => d,
        _ => null,
    };

    private static string? Text(JsonElement e, string name) =>
        TryGet(e, name, out var v) ? v.ValueKind switch { JsonValueKind.String => v.GetString(), JsonValueKind.Null => null, _ => v.ToString() } : null;
}
