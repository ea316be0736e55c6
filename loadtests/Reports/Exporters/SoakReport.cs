using System.IO;
using System.Text;
using System.Text.Json;
using Comparator.Results;

namespace Comparator.Reports.Exporters;

/// <summary>A soak's outputs: soak.json (the whole result) and a plain table; both only read the result.</summary>
public static class SoakReport
{
    public static string Serialize(SoakResult soak) => JsonSerializer.Serialize(soak, ResultStore.Options);

    public static SoakResult Deserialize(string json) =>
        JsonSerializer.Deserialize<SoakResult>(json, ResultStore.Options) ?? throw new InvalidDataException("soak.json holds no soak");

    /// <summary>Writes soak.json into a new soak-STAMP directory under the out directory; returns that directory.</summary>
    public static string Write(SoakResult soak, string outDirectory)
    {
        var directory = OutputFiles.CreateNewDirectory(outDirectory, "soak-", soak.StartedAt);
        OutputFiles.WriteAtomically(Path.Combine(directory, "soak.json"), Serialize(soak));
        return directory;
    }

    public static string Table(SoakResult soak)
    {
        var text = new StringBuilder();
        string F(double? mb) => mb is double v ? v.ToString("0.0", CultureInfo.InvariantCulture) : "-";
        text.AppendLine(string.Create(CultureInfo.InvariantCulture,
            $"{"target",-15} {"requests",10} {"req/s",8} {"failed",7} {"non-2xx",8} {"socket",7} {"timeout",8} {"passes",6}  {"RSS MiB: start",14} {"pass 1",7} {"later",7} {"end",7} {"peak",7}  growth"));
        foreach (var t in soak.Targets)
        {
            if (t.NotRunReason is not null)
            {
                text.AppendLine($"{t.Name,-15} not run: {t.NotRunReason}");
                continue;
            }
            var rate = t.ElapsedSeconds > 0 ? t.Requests / t.ElapsedSeconds : 0;
            text.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"{t.Name,-15} {t.Requests,10} {rate,8:0} {t.Failed,7} {t.Non2xx,8} {t.Errors,7} {t.Timeouts,8} {t.Passes,6}  {F(t.RssStartMb),14} {F(t.RssAfterFirstPassMb),7} {F(t.RssLateMedianMb),7} {F(t.RssEndMb),7} {F(t.RssPeakMb),7}  {t.Growth}: {t.GrowthDetail}"));
            if (t.RssAtPassEndsMb.Count > 0)
                text.AppendLine($"{"",15} RSS MiB at each pass end: {string.Join(", ", t.RssAtPassEndsMb.Select(v => F(v)))}");
            if (t.PastDurationSeconds is double past)
                text.AppendLine(string.Create(CultureInfo.InvariantCulture,
                    $"{"",15} loaded to {past:0.0} s, past the {soak.Spec.DurationSeconds:0.#} s asked, to finish the {t.Passes} passes memory growth is judged on"));
            if (t.ExitedDuringSoak) text.AppendLine($"{"",15} the target process exited during the soak");
            foreach (var sample in t.FailureSamples) text.AppendLine($"{"",15} failure: {sample}");
        }
        text.AppendLine("'pass 1' is RSS at the end of the first pass, 'later' the median at the ends of the later half of the passes");
        text.AppendLine("memory growth is " + soak.Spec.GrowthRule);
        text.AppendLine("req/s here is under a shared load on shared cores: a soak checks staying power, not speed");
        return text.ToString();
    }
}
