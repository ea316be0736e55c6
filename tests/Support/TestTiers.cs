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
