using System.Text.Json;
using System.Text.Json.Serialization;

namespace Comparator.Results;

/// <summary>
/// A window in results.json and the journal: each stored figure a property of its own, named by its
/// descriptor (the names every schema has used), then what describes the window, then the derived
/// figures readers of older files expect. Reading takes the stored figures by the catalogue's names and
/// ignores the derived ones (they are computed again), so files of every schema read alike.
/// </summary>
public sealed class MeasurementJson : JsonConverter<Measurement>
{
    // The runtime's EventPipe counters were "counters" in every schema; the property says whose counters they are, the file keeps the name.
    private const string RuntimeCountersName = "Counters";

    public override void Write(Utf8JsonWriter writer, Measurement value, JsonSerializerOptions options)
    {
        var skipNulls = options.DefaultIgnoreCondition == JsonIgnoreCondition.WhenWritingNull;
        void Number(string name, double? v)
        {
            if (v is double d) { writer.WritePropertyName(name); JsonSerializer.Serialize(writer, d, options); }
            else if (!skipNulls) writer.WriteNull(name);
        }
        void Value<T>(string property, T v)
        {
            if (v is null && skipNulls) return;
            writer.WritePropertyName(Name(property, options));
            JsonSerializer.Serialize(writer, v, options);
        }

        writer.WriteStartObject();
        foreach (var m in Metrics.StoredFigures) Number(m.Id, m.Of(value));
        Value(nameof(Measurement.FailureSamples), value.FailureSamples);
        Value(nameof(Measurement.Limitations), value.Limitations);
        Value(nameof(Measurement.WindowStartedAt), value.WindowStartedAt);
        Value(nameof(Measurement.Launch), value.Launch);
        Value(nameof(Measurement.Round), value.Round);
        Value(nameof(Measurement.ProcessId), value.ProcessId);
        Value(RuntimeCountersName, value.RuntimeCounters);
        Value(nameof(Measurement.LatencyDistribution), value.LatencyDistribution);
        Value(nameof(Measurement.LatencyHistogram), value.LatencyHistogram);
        Value(nameof(Measurement.Threads), value.Threads);
        foreach (var m in Metrics.All.Where(m => m.Storage == MetricStorage.Derived && m.Written)) Number(m.Id, m.Of(value));
        writer.WriteEndObject();
    }

    public override Measurement Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        using var doc = JsonDocument.ParseValue(ref reader);
        if (doc.RootElement.ValueKind != JsonValueKind.Object) throw new JsonException("a window is not an object");
        var root = doc.RootElement;
        var figures = new Dictionary<string, double>();
        foreach (var m in Metrics.StoredFigures)
            if (root.TryGetProperty(m.Id, out var e) && FigureOf(e) is double v) figures[m.Id] = v;
        T? Get<T>(string property) =>
            root.TryGetProperty(Name(property, options), out var e) && e.ValueKind != JsonValueKind.Null ? e.Deserialize<T>(options) : default;
        return new Measurement(figures)
        {
            FailureSamples = Get<List<string>>(nameof(Measurement.FailureSamples)) ?? new List<string>(),
            Limitations = Get<List<string>>(nameof(Measurement.Limitations)) ?? new List<string>(),
            WindowStartedAt = Get<DateTimeOffset?>(nameof(Measurement.WindowStartedAt)),
            Launch = Get<int?>(nameof(Measurement.Launch)),
            Round = Get<int?>(nameof(Measurement.Round)),
            ProcessId = Get<int?>(nameof(Measurement.ProcessId)),
            RuntimeCounters = Get<RuntimeCounters>(RuntimeCountersName),
            LatencyDistribution = Get<List<PercentilePoint>>(nameof(Measurement.LatencyDistribution)),
            LatencyHistogram = Get<string>(nameof(Measurement.LatencyHistogram)),
            Threads = Get<ThreadActivity>(nameof(Measurement.Threads)),
        };
    }

    /// <summary>A figure as written: a number, or "NaN"/"Infinity" where named literals were allowed; null stays absent.</summary>
    private static double? FigureOf(JsonElement e) => e.ValueKind switch
    {
        JsonValueKind.Number => e.GetDouble(),
        JsonValueKind.String when double.TryParse(e.GetString(), NumberStyles.Float, CultureInfo.InvariantCulture, out var d) => d,
        JsonValueKind.String => e.GetString() switch { "NaN" => double.NaN, "Infinity" => double.PositiveInfinity, "-Infinity" => double.NegativeInfinity, _ => null },
        _ => null,
    };

    private static string Name(string property, JsonSerializerOptions options) => options.PropertyNamingPolicy?.ConvertName(property) ?? property;
}
