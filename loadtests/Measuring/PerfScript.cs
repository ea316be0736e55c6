using System.IO;
using System.Text.RegularExpressions;

namespace Comparator.Measuring;

/// <summary>One frame of a sampled stack: the symbol perf named (a perf map's managed name, an AOT or native symbol, or "[unknown]") and the file it lies in.</summary>
public sealed record StackFrame(string Symbol, string Dso)
{
    /// <summary>How a folded stack names the frame: the symbol, or the file where perf could not name it ("[unknown] (libcoreclr.so)").</summary>
    public string Folded => Symbol == "[unknown]" ? $"[{Path.GetFileName(Dso.Trim('[', ']'))}]" : Symbol.Replace(';', ',');
}

/// <summary>One sample of `perf script`: the thread's name and id, its period (ns of cpu-clock), and its frames from the root to the leaf.</summary>
public sealed record StackSample(string Thread, int Tid, long Period, IReadOnlyList<StackFrame> Frames);

/// <summary>
/// Reads the text of `perf script -F comm,tid,period,ip,sym,dso` (a header line, then one tab-indented frame a line,
/// leaf first, then a blank line) and folds it as stackcollapse does ("thread;root;...;leaf COUNT"). Unlike
/// stackcollapse-perf.pl, frames whose name begins with "(" are kept: Mono's "(wrapper ...)" frames are real work.
/// </summary>
public static partial class PerfScript
{
    // "Thread Pool Wor  3896    2004008 ": the name may hold spaces; the tid and the period are the last two numbers.
    [GeneratedRegex(@"^(?<comm>.*?)\s+(?<tid>\d+)\s+(?<period>\d+)\s*$")]
    private static partial Regex Header();

    // "\t        4076f27c System.Web.Http...:Method (args) (/tmp/perf-3854.map)": the address, the symbol, and the dso in the last parentheses.
    [GeneratedRegex(@"^\s*(?<ip>[0-9a-f]+)\s+(?<sym>.*)\s\((?<dso>[^()]*)\)\s*$")]
    private static partial Regex FrameLine();

    public static IReadOnlyList<StackSample> Parse(TextReader text)
    {
        var samples = new List<StackSample>();
        (string Comm, int Tid, long Period)? header = null;
        var frames = new List<StackFrame>();
        void Flush()
        {
            if (header is { } h) samples.Add(new StackSample(h.Comm, h.Tid, h.Period, Enumerable.Reverse(frames).ToList()));
            header = null;
            frames = new List<StackFrame>();
        }
        for (var line = text.ReadLine(); line is not null; line = text.ReadLine())
        {
            if (line.Trim().Length == 0) { Flush(); continue; }
            if (!line.StartsWith('\t') && !line.StartsWith(' ') && Header().Match(line) is { Success: true } m)
            {
                Flush();
                header = (m.Groups["comm"].Value.Trim(), int.Parse(m.Groups["tid"].Value, CultureInfo.InvariantCulture), long.Parse(m.Groups["period"].Value, CultureInfo.InvariantCulture));
                continue;
            }
            if (header is not null && FrameLine().Match(line) is { Success: true } f)
            {
                var frame = new StackFrame(f.Groups["sym"].Value.Trim(), f.Groups["dso"].Value);
                // A frame-pointer walk that left the chain (through libc or a runtime built without frame pointers) reads on through
                // stack words as return addresses: a run of unplaceable frames, sometimes a hundred deep. One stands for them all.
                if (frame is { Symbol: "[unknown]", Dso: "[unknown]" } && frames.Count > 0 && frames[^1] == frame) continue;
                frames.Add(frame);
            }
        }
        Flush();
        return samples;
    }

    /// <summary>Folded stacks, each "thread;root;...;leaf" with its sample count, the most frequent first.</summary>
    public static IReadOnlyList<(string Stack, int Count)> Fold(IEnumerable<StackSample> samples) =>
        samples.GroupBy(s => string.Join(";", new[] { s.Thread.Replace(';', ',') }.Concat(s.Frames.Select(f => f.Folded))))
            .Select(g => (g.Key, g.Count())).OrderByDescending(x => x.Item2).ThenBy(x => x.Key, StringComparer.Ordinal).ToList();
}
