using System.Collections.Generic;
using System.Linq;
using Comparator.Comparing;
using Comparator.Measuring;
using Comparator.Reports.Text;
using Comparator.Results;
using Comparator.Running;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The answer's sentence on the kind of a cost gap's work, on injected figures: where the costlier side makes fewer system calls
/// (settled) its extra is not the kernel's calls; where it allocates more (settled) the collector's work is part of it, without a
/// share; nothing where the count is not settled, and no claim on the kernel from a user-mode count.
/// </summary>
public sealed class KindsOfWorkTests
{
    /// <summary>One launch's window: <paramref name="calls"/> system calls and <paramref name="bytes"/> allocated a request, each wobbling as launches do.</summary>
    private static Measurement W(int launch, double calls, double bytes, double wobble, int phase)
    {
        const double rps = 1000;
        var counted = CellMeasurer.WithCounts(ResultsTests.Window(rps),
            new CpuCounterWindow(new Dictionary<string, double> { ["systemCalls"] = calls * (1 + wobble * ((launch + phase) % 3)) * rps }, false));
        return TargetRuntimeCounters.WithCollector(counted, new CollectorWork((long)(bytes * (1 + 0.001 * (launch % 2)) * rps), 1)) with { Launch = launch };
    }

    /// <summary>aspnetcore at 4,500 bytes against kestrel's 2,900, and <paramref name="aspCalls"/> system calls against kestrel's 4; a settled cost lead of kestrel's in <paramref name="cost"/>.</summary>
    private static RunResult Run(double aspCalls, double callWobble, MetricDescriptor cost)
    {
        var run = InjectedRun.Pair(VerdictTests.AspNetCore, VerdictTests.Kestrel,
            InjectedRun.Cell("aspnetcore", "json", 0, Enumerable.Range(0, 5).Select(l => W(l, aspCalls, 4500, callWobble, 0)).ToArray()),
            InjectedRun.Cell("kestrel", "json", 0, Enumerable.Range(0, 5).Select(l => W(l, 4, 2900, callWobble, 1)).ToArray()));
        var key = run.Cells[0].Key;
        var lead = new CellVerdict(key, "kestrel", cost.VerdictId!, 1.4, 1.3, 1.5, 0.99, "kestrel", null, CellVerdict.Higher, Launches: 5);
        return run with { Verdicts = run.Verdicts!.Append(lead).ToList() };
    }

    private static string Answered(RunResult run) => string.Join(" ", Answer.Sentences(run));

    [Fact]
    public void A_costlier_stack_that_makes_fewer_system_calls_and_allocates_more_is_said_so()
    {
        var answer = Answered(Run(aspCalls: 3, callWobble: 0.001, Metrics.InstructionsPerRequest));

        Assert.Contains("Where aspnetcore costs more than kestrel in instructions per request, it makes no more system calls per request at json 500B " +
                        "(3 against 4 a request): its extra work is not in the kernel's calls.", answer);
        Assert.Contains("Where aspnetcore costs more than kestrel in instructions per request, it allocates more bytes per request at json 500B " +
                        "(4500 against 2900 a request): the collector's work is part of its extra work, how large a part these counts do not say", answer);
    }

    [Fact]
    public void A_count_not_settled_says_nothing_of_the_kind_of_work()
    {
        var answer = Answered(Run(aspCalls: 3, callWobble: 0.3, Metrics.InstructionsPerRequest));
        Assert.DoesNotContain("system calls per request at json 500B", answer);
        Assert.Contains("allocates more bytes per request at json 500B", answer);
    }

    [Fact]
    public void A_user_mode_count_says_nothing_of_the_kernel_but_may_of_the_collector()
    {
        var answer = Answered(Run(aspCalls: 3, callWobble: 0.001, Metrics.SimulatedInstructionsPerRequest));
        Assert.DoesNotContain("the kernel's calls", answer);
        Assert.Contains("Where aspnetcore costs more than kestrel in simulated instructions per request (user mode), it allocates more bytes per request", answer);
    }
}
