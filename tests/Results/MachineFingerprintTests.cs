using System.Collections.Generic;
using Comparator.Cli;
using Comparator.Errors;
using Comparator.Results;
using Comparator.Running;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>What a run records of what it measured: the machine's fingerprint (what two runs must share to stand in one series), and revisions.</summary>
public sealed class MachineFingerprintTests
{
    private static MachineInfo Machine(int cores = 2, string name = "runner-1") =>
        new(name, "Debian GNU/Linux 12", "AMD EPYC 7B13", cores, ".NET 10.0.12", new Dictionary<string, string>())
        {
            MemoryGiB = 23.4, Kernel = "6.1.0-27-cloud-amd64", Mono = "6.8.0.105", CpuCounters = false,
        };

    [Fact]
    public void The_fingerprint_is_the_same_for_the_same_facts_whatever_the_machines_name_and_differs_when_a_fact_does()
    {
        Assert.Equal(Machine(name: "runner-1").FingerprintOfFacts(), Machine(name: "runner-2").FingerprintOfFacts());
        Assert.Matches("^[0-9a-f]{12}$", Machine().FingerprintOfFacts());
        Assert.NotEqual(Machine(cores: 2).FingerprintOfFacts(), Machine(cores: 4).FingerprintOfFacts());
        Assert.NotEqual(Machine().FingerprintOfFacts(), (Machine() with { CpuCounters = true }).FingerprintOfFacts());
        Assert.NotEqual(Machine().FingerprintOfFacts(), (Machine() with { Kernel = "6.12.0" }).FingerprintOfFacts());
    }

    [Fact]
    public void This_machine_is_described_with_its_memory_kernel_and_fingerprint()
    {
        var machine = MachineDescription.Current();

        Assert.True(machine.MemoryGiB > 0);
        Assert.Equal(machine.FingerprintOfFacts(), machine.Fingerprint);
        if (System.OperatingSystem.IsLinux()) Assert.False(string.IsNullOrEmpty(machine.Kernel));
    }

    private static readonly TargetPlan[] Targets = { new("kestrel", null, null), new("webapi-selfhost", null, null) };

    [Fact]
    public void A_revision_names_a_target_of_the_run_or_else_is_the_runs_own()
    {
        var revisions = RunOptionsParser.Revisions(new[] { "kestrel=abc", "build=42" }, Targets, "run")!;

        Assert.Equal("abc", revisions["kestrel"]);
        Assert.Equal("build=42", revisions[""]); // 'build' is no target: the whole value is the run's
    }

    [Theory]
    [InlineData("abc", "def", "--revision given twice for the run")]
    [InlineData("kestrel=a", "kestrel=b", "--revision given twice for kestrel")]
    [InlineData("kestrel=", "x", "--revision 'kestrel=' gives no revision")]
    public void A_revision_given_twice_or_empty_is_refused_with_one_line(string first, string second, string message)
    {
        var e = Assert.Throws<UsageException>(() => RunOptionsParser.Revisions(new[] { first, second }, Targets, "run"));
        Assert.Contains(message, e.Message);
    }
}
