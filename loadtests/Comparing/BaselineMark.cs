using System.IO;
using System.Text.Json;
using Comparator.Results;

namespace Comparator.Comparing;

/// <summary>
/// A run marked as an intended new baseline (`history --mark-baseline RUN`): a change at it was meant, so a history looks for
/// changes on either side of it but never across it, and only changes after the newest mark gate. Kept as baseline.json beside
/// the run's results.json, so that the mark travels with the run (a CI artifact, a copied folder) and results.json stays as measured.
/// </summary>
public sealed record BaselineMark(DateTimeOffset MarkedAt, string? Reason)
{
    public const string FileName = "baseline.json";

    /// <summary>The mark of a run directory; null when it has none. A mark that cannot be read is an error with one line.</summary>
    public static BaselineMark? Read(string runDirectory)
    {
        var path = Path.Combine(runDirectory, FileName);
        if (!File.Exists(path)) return null;
        try
        {
            return JsonSerializer.Deserialize<BaselineMark>(File.ReadAllText(path), ResultStore.Options) ?? throw new InvalidDataException($"{path} holds no baseline mark");
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"{path} is not a baseline mark: {e.Message}");
        }
    }

    public static void Write(string runDirectory, BaselineMark mark) =>
        File.WriteAllText(Path.Combine(runDirectory, FileName), JsonSerializer.Serialize(mark, ResultStore.Options));

    /// <summary>Takes a run's mark away; false when it had none.</summary>
    public static bool Remove(string runDirectory)
    {
        var path = Path.Combine(runDirectory, FileName);
        if (!File.Exists(path)) return false;
        File.Delete(path);
        return true;
    }
}
