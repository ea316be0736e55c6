using System.Linq;
using System.Threading.Tasks;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>What the catalogue says about the .NET Framework lane and the default pair, and what `targets` prints of it.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class CatalogTests
{
    private static readonly string[] FrameworkLane = { "wcf-classic", "wcf-classic-stock", "webapi-selfhost", "httplistener-mono" };

    [Fact]
    public void The_net472_targets_run_where_mono_is_installed_and_say_how_to_get_it_where_it_is_not()
    {
        foreach (var target in FrameworkLane.Select(n => TargetCatalog.Find(n)!))
        {
            Assert.Equal(HostRuntime.NetFramework, target.Host);
            if (MonoRuntime.Path is not null)
            {
                Assert.True(target.IsAvailable, $"{target.Name}: {target.UnavailableReason}");
                Assert.StartsWith("Mono " + MonoRuntime.Version, target.Runtime); // the report names the runtime and its version
            }
            else
            {
                Assert.Contains("apt-get install mono-complete", target.UnavailableReason);
            }
        }
    }

    [Fact]
    public void Without_the_named_twins_the_default_pair_is_classic_wcf_against_web_api_self_hosted_with_web_api_as_baseline()
    {
        var twinsRun = TargetCatalog.Find("wcf")!.IsAvailable && TargetCatalog.Find("webapi")!.IsAvailable;
        var pair = TargetCatalog.Pair;
        if (twinsRun)
        {
            Assert.Equal(("wcf", "webapi"), (pair!.Wcf.Name, pair.Baseline.Name));
        }
        else if (MonoRuntime.Path is not null)
        {
            Assert.Equal(("wcf-classic", "webapi-selfhost"), (pair!.Wcf.Name, pair.Baseline.Name));
            Assert.Contains(TargetCatalog.MissingFromBetterPairs(), t => t.Name is "wcf" or "webapi");
        }
        Assert.Equal(pair is null ? TargetCatalog.Available.Select(t => t.Name) : new[] { pair.Wcf.Name, pair.Baseline.Name },
            TargetCatalog.DefaultRunTargets.Select(t => t.Name));
    }

    [Fact]
    public async Task Targets_lists_every_target_with_its_stack_and_names_the_default_pair_and_why()
    {
        var (exit, stdout, _) = await ComparatorProcess.RunAsync("targets");

        Assert.Equal(0, exit);
        foreach (var t in TargetCatalog.All) Assert.Contains(t.Name + " ", stdout);
        if (TargetCatalog.Pair is DefaultPair pair)
            Assert.Contains($"default pair of run: {pair.Wcf.Name} against {pair.Baseline.Name} (baseline of the ratios)", stdout);
        Assert.Contains("run --targets all", stdout);
    }

    [Fact]
    public void The_stock_wcf_transport_is_a_variant_of_wcf_classic_started_with_its_own_flag()
    {
        var stock = TargetCatalog.Find("wcf-classic-stock")!;
        Assert.Equal("wcf-classic", stock.VariantOf);
        Assert.Equal(new[] { "--transport", "stock", "--port", "5000", "--tcp-nodelay", "on" }, stock.ServiceArguments(5000, ServiceSwitches.Default));
        Assert.DoesNotContain(TargetsFixture.UnderTest, t => t.VariantOf is not null && System.Environment.GetEnvironmentVariable("COMPARATOR_TEST_TARGETS") is null);
    }
}

/// <summary>The named twins' reason comes from what scripts/build.sh found, not from a fixed sentence.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class OptionalBuildTests : System.IDisposable
{
    private const string Project = "NoSuchTwinService";
    private readonly string _status = System.IO.Path.Combine(BuildLayout.Discover().RepositoryRoot, "artifacts", OptionalBuild.StatusFolder, Project + ".missing");

    public OptionalBuildTests() => System.IO.Directory.CreateDirectory(System.IO.Path.GetDirectoryName(_status)!);

    public void Dispose() => System.IO.File.Delete(_status);

    [Fact]
    public void A_twin_skipped_for_missing_packages_names_the_ids_restore_reported()
    {
        System.IO.File.WriteAllText(_status, "missing: CoreWCF.Primitives, CoreWCF.Http\n");
        var reason = OptionalBuild.Reason(Project, Project + ".dll");
        Assert.StartsWith("not built: CoreWCF.Primitives, CoreWCF.Http not in this machine's NuGet sources", reason);
    }

    [Fact]
    public void A_twin_whose_restore_failed_otherwise_says_so_and_one_never_tried_says_not_built_yet()
    {
        Assert.Equal($"not built yet: scripts/build.sh builds src/{Project} where its packages restore", OptionalBuild.Reason(Project, Project + ".dll"));
        System.IO.File.WriteAllText(_status, "restore failed: NU1301: Unable to load the service index\n");
        Assert.Equal($"not built: src/{Project} restore failed: NU1301: Unable to load the service index", OptionalBuild.Reason(Project, Project + ".dll"));
    }

    [SkippableFact]
    public async Task Where_the_twins_are_not_built_every_listing_gives_the_build_s_reason()
    {
        var unbuilt = new[] { "wcf", "webapi" }.Select(n => TargetCatalog.Find(n)!).Where(t => !t.IsAvailable).ToList();
        Skip.If(unbuilt.Count == 0, "both twins are built here: the conformance suite covers them");
        var (_, stdout, _) = await ComparatorProcess.RunAsync("targets");
        foreach (var twin in unbuilt)
        {
            Assert.StartsWith("not built", twin.UnavailableReason);
            Assert.Contains("NOT AVAILABLE: " + twin.UnavailableReason, stdout);
            Assert.DoesNotContain("issue", twin.UnavailableReason, System.StringComparison.OrdinalIgnoreCase);
        }
    }
}
