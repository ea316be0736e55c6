using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Xunit;

namespace Comparator.Tests;

/// <summary>`comparator profile` as a user runs it: where it cannot sample, one line and exit 0; a bad file or duration, one line and exit 2.</summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
[Collection(TestTiers.Alone)]
public sealed class ProfileCommandTests
{
    private static string Out() => Path.Combine(Path.GetTempPath(), "comparator-profile-cli-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task Where_perf_cannot_be_had_the_profile_is_one_line_and_exit_0()
    {
        var output = Out();
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync("profile", "--targets", "kestrel", "--endpoints", "time", "--perf", "/nonexistent/perf", "--out", output);

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        Assert.Contains("sampling profiles: not available: no perf at /nonexistent/perf (--perf)", stdout);
        Assert.DoesNotContain("Exception", stdout + stderr);
        var directory = Assert.Single(Directory.GetDirectories(output));
        Assert.Contains("sampling profiles: not available: no perf at /nonexistent/perf (--perf)", File.ReadAllText(Path.Combine(directory, "profile.md")));
        Assert.True(File.Exists(Path.Combine(directory, "profile.json")));
    }

    [Theory]
    [InlineData("--layers /nonexistent/layers.json", "--layers: no file at /nonexistent/layers.json")]
    [InlineData("--profile-duration 0s", "--profile-duration")]
    public async Task A_bad_setting_is_refused_with_one_line_and_exit_2_before_any_target_starts(string setting, string message)
    {
        var (exit, stdout, stderr) = await ComparatorProcess.RunAsync(new[] { "profile", "--targets", "kestrel", "--out", Out() }.Concat(setting.Split(' ')).ToArray());

        Assert.Equal(2, exit);
        Assert.Contains(message, stderr);
        Assert.DoesNotContain("starting", stdout);
        Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
    }

    [Fact]
    public async Task A_layers_file_that_is_not_one_is_named_and_refused()
    {
        var file = Path.Combine(Path.GetTempPath(), Guid.NewGuid().ToString("N") + ".json");
        await File.WriteAllTextAsync(file, "{\"layers\": [{\"types\": [\"My.Service\"]}]}");
        try
        {
            var (exit, _, stderr) = await ComparatorProcess.RunAsync("profile", "--targets", "kestrel", "--layers", file, "--out", Out());

            Assert.Equal(2, exit);
            Assert.Contains($"--layers: {file}: a layer without a \"layer\" name", stderr);
        }
        finally
        {
            File.Delete(file);
        }
    }
}
