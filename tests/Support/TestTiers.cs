using System;

namespace Comparator.Tests;

/// <summary>
/// The suite's two tiers. The quick tier (`bash scripts/test.sh --quick`) runs every test that starts no process: parsers, verdicts,
/// reports, ledgers, the architecture; the full suite (`bash scripts/test.sh`, `.ci/run`) runs those and every test that starts a service,
/// the comparator, Mono, valgrind or perf. A class that starts processes carries <c>[Trait(TestTiers.Trait, TestTiers.Processes)]</c>
/// (TierTests finds the ones that lack it), and the helpers that start them refuse to in the quick tier, naming the test's class.
/// </summary>
public static class TestTiers
{
    public const string Trait = "Tier";
    public const string Processes = "processes";

    /// <summary>
    /// The collection of the classes that start processes and must have the machine to themselves: whatever they read under load (a
    /// rate, a latency, CPU time, a flag, perf's records) moves when another test runs beside them. xunit runs it after every other
    /// collection, one class at a time (<see cref="AloneCollection"/>). The fixture of running services (TargetsCollection) runs so too.
    /// </summary>
    public const string Alone = "alone";

    /// <summary>
    /// The classes that start processes and may run beside others, two tests at a time (xunit.runner.json), in the suite's first phase with
    /// the quick tier: what they assert is a count (instructions under the simulator, heap bytes) or a behaviour (a stop, a restart, a
    /// refusal), which another test's load slows but does not change. Their waits (a simulated service's start, the heap test's idle shots,
    /// a stop's grace) then overlap other work. RunCommandTests checks what a run writes and how it stops, never a figure's value. Every
    /// other class that starts a process is in <see cref="Alone"/>; TierTests holds both.
    /// </summary>
    public static readonly string[] Alongside =
    {
        nameof(SimulatedKnownGapTests), nameof(HeapGrowthTests), nameof(StdinStopTests), nameof(CommandTargetTests), nameof(DotnetToolTests),
        nameof(RunCommandTests),
    };

    /// <summary>The variable scripts/test.sh --quick sets: the helpers below refuse to start a process while it is set.</summary>
    public const string QuickVariable = "COMPARATOR_TEST_TIER";

    public static bool Quick => Environment.GetEnvironmentVariable(QuickVariable) == "quick";

    /// <summary>Throws in the quick tier: a test that starts <paramref name="what"/> belongs to the full suite, tagged so.</summary>
    public static void RefuseInQuickTier(string what)
    {
        if (Quick)
            throw new InvalidOperationException($"the quick tier starts no process, and this test starts {what}: give its class " +
                                                $"[Trait(TestTiers.Trait, TestTiers.Processes)] so that only the full suite runs it");
    }
}

/// <summary>The collection of <see cref="TestTiers.Alone"/>: run after the parallel phase, alone.</summary>
[Xunit.CollectionDefinition(TestTiers.Alone, DisableParallelization = true)]
public sealed class AloneCollection
{
}
