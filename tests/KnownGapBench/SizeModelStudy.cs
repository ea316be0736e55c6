using System;
using System.Globalization;
using System.Linq;
using System.Threading.Tasks;
using Comparator.Comparing;
using Comparator.Results;
using Comparator.Statistics;
using Comparator.Targets;

namespace Comparator.KnownGapBench;

/// <summary>
/// `dotnet run --project tests/KnownGapBench -c Release -- size-model [PER_KB[:STEP@BYTES]] [run options]` (`size-model-dotnet`: on .NET 10):
/// the known effect for the size model. First the work counted apart: FixedWorkService against its twin doing 20,000 rounds a request at
/// /api/time, whose extra count a request over 20,000 is one round's instructions. Then FixedWorkService ("0:0") against its twin doing
/// PER_KB rounds more per KB of a declared body ("0:PER_KB", and STEP rounds more from BYTES on where given) at echo-post over 500B, 4KB and
/// 64KB: the model must find the twin's cost per KB higher by PER_KB rounds' instructions, its fixed cost the same, and a step named off the line.
/// </summary>
public static class SizeModelStudy
{
    private const int ApartRounds = 20000;

    public static async Task<int> RunAsync(string[] args, HostRuntime host)
    {
        var work = args.Length > 0 && !args[0].StartsWith('-') ? args[0] : "400";
        var extra = args.Length > 0 && !args[0].StartsWith('-') ? args[1..] : args;
        var perKb = int.Parse(work.Split(':')[0], CultureInfo.InvariantCulture);
        var progress = new Program.QuietProgress();

        var apart = await SimulatedStudy.PairAsync(ApartRounds, extra, progress, System.IO.Path.GetTempPath(), host);
        double Mean(RunResult run, string target) => run.Cells.Single(c => c.Key.Target == target).WindowsOf(Metrics.SimulatedInstructionsPerRequest)
            .Average(m => Metrics.SimulatedInstructionsPerRequest.Of(m) ?? double.NaN);
        var perRound = (Mean(apart, "twin") - Mean(apart, "base")) / ApartRounds;
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"counted apart at /api/time: {ApartRounds} rounds add {perRound * ApartRounds:0} instructions a request, {perRound:0.00} a round; {perKb} rounds a KB: {perKb * perRound:0} a KB"));

        var sized = await SimulatedStudy.PairAsync("0:0", "0:" + work, new[] { "--endpoints", "echo-post", "--sizes", "500,4096,65536" }.Concat(extra).ToList(),
            progress, System.IO.Path.GetTempPath(), host);
        var set = SizeModelFit.Build(sized);
        foreach (var m in set.Models)
            Console.WriteLine(FormattableString.Invariant($"{m.Target}: fixed {m.Fixed.Value:0} ({m.Fixed.Low:0}–{m.Fixed.High:0}), per KB {m.PerKb.Value:0.0} ({m.PerKb.Low:0.0}–{m.PerKb.High:0.0}); points ") +
                string.Join(", ", m.Points.Select(p => FormattableString.Invariant($"{p.SizeLabel} {p.Mean:0}"))) + "; residuals " +
                string.Join(", ", m.Residuals.Select(r => FormattableString.Invariant($"{r.SizeLabel} {r.OffBy:+0.0%;-0.0%} ({r.Low:+0.0%;-0.0%}–{r.High:+0.0%;-0.0%}){(r.OffTheLine ? " OFF" : "")}"))));
        var (b, t) = (set.Models.Single(m => m.Target == "base"), set.Models.Single(m => m.Target == "twin"));
        var added = t.PerKb.Value - b.PerKb.Value;
        var expected = perKb * perRound;
        var pair = set.Comparisons.Single();
        Console.WriteLine(FormattableString.Invariant($"per KB added: {added:0.0} against {expected:0.0} counted apart ({added / expected - 1:+0.0%;-0.0%}); per-launch added ") +
            string.Join(", ", b.Launches.Join(t.Launches, x => x.Launch, y => y.Launch, (x, y) => (y.PerKb - x.PerKb).ToString("0.0", CultureInfo.InvariantCulture))));
        Console.WriteLine($"fixed twin/base: {pair.Fixed.Outcome ?? pair.Fixed.Reason} {Format.Ratio(pair.Fixed.Ratio ?? double.NaN)} ({Format.Ratio(pair.Fixed.Low ?? double.NaN)}–{Format.Ratio(pair.Fixed.High ?? double.NaN)})");
        Console.WriteLine($"per KB twin/base: {pair.PerKb.Outcome ?? pair.PerKb.Reason} {Format.Ratio(pair.PerKb.Ratio ?? double.NaN)} ({Format.Ratio(pair.PerKb.Low ?? double.NaN)}–{Format.Ratio(pair.PerKb.High ?? double.NaN)})");
        Console.WriteLine(pair.Crossing.Said);
        return 0;
    }
}
