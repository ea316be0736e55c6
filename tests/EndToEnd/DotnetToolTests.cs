using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The comparator as a .NET tool, as a user without the repository gets it: packed (dotnet pack),
/// installed (dotnet tool install) from a local folder, and run from a folder outside the repository
/// against a service at a URL.
/// </summary>
[Trait(TestTiers.Trait, TestTiers.Processes)]
public sealed class DotnetToolTests : IClassFixture<DotnetToolTests.InstalledTool>
{
    private readonly InstalledTool _tool;

    public DotnetToolTests(InstalledTool tool) => _tool = tool;

    [Fact]
    public async Task The_installed_tool_measures_a_service_at_a_url_and_writes_the_run_into_results_of_the_current_directory()
    {
        using var serve = await ComparatorProcess.StartAndWaitForAsync("ready", "serve", "--targets", "kestrel");
        var url = serve.Stdout.Split('\n').Select(l => l.Trim()).Single(l => l.StartsWith("kestrel ", StringComparison.Ordinal)).Split(' ')[1];

        var (exit, stdout, stderr) = await _tool.RunAsync("run", "--quick", "--target", "k=" + url, "--endpoints", "time,echo-post", "--sizes", "500");

        Assert.True(exit == 0, $"exit {exit}\n{stdout}\n{stderr}");
        var run = Assert.Single(Directory.GetDirectories(Path.Combine(_tool.WorkingDirectory, "results")));
        Assert.True(File.Exists(Path.Combine(run, "results.json")), "no results.json in " + run);
        // The 500 B body is the payload packed next to the tool, not a generated one.
        Assert.Contains("payloads/payload-500B.txt", File.ReadAllText(Path.Combine(run, "results.json")));
    }

    [Fact]
    public async Task Without_the_repository_a_command_that_needs_a_catalogue_target_says_how_to_get_it_and_exits_2()
    {
        var (exit, stdout, stderr) = await _tool.RunAsync("run", "--quick");

        Assert.Equal(2, exit);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("scripts/build.sh", line);
        Assert.Contains("--target NAME=URL", line);
        Assert.DoesNotContain(" at ", stdout + stderr); // no stack trace
    }

    /// <summary>The tool packed and installed once into a temporary folder, and an empty working folder outside the repository.</summary>
    [Trait(TestTiers.Trait, TestTiers.Processes)]
    public sealed class InstalledTool : IAsyncLifetime
    {
        private static readonly TimeSpan Patience = TimeSpan.FromMinutes(5);
        private readonly string _root = Path.Combine(Path.GetTempPath(), "comparator-tool-" + Guid.NewGuid().ToString("N"));

        public string WorkingDirectory => Path.Combine(_root, "work");
        private string ToolPath => Path.Combine(_root, "tools");

        public async Task InitializeAsync()
        {
            var repository = BuildLayout.Discover().RepositoryRoot;
            Assert.False(_root.StartsWith(repository, StringComparison.Ordinal), "the working folder must be outside the repository");
            var packages = Path.Combine(_root, "packages");
            Directory.CreateDirectory(WorkingDirectory);
            // The tool's package carries every dependency, so the local folder is the only source it needs.
            var config = Path.Combine(_root, "nuget.config");
            File.WriteAllText(config, $"<configuration><packageSources><clear /><add key=\"local\" value=\"{packages}\" /></packageSources></configuration>");

            await Succeed("dotnet", repository, "pack", Path.Combine(repository, "loadtests"), "-c", BuildLayout.Discover().Configuration, "--no-build", "-nologo", "-o", packages);
            await Succeed("dotnet", _root, "tool", "install", "--tool-path", ToolPath, "--configfile", config, PackageId, "--version", Version);
        }

        public Task DisposeAsync()
        {
            try { Directory.Delete(_root, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
            return Task.CompletedTask;
        }

        public Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(params string[] args) =>
            Run(Path.Combine(ToolPath, OperatingSystem.IsWindows() ? "comparator.exe" : "comparator"), WorkingDirectory, args);

        private const string PackageId = "Comparator.Tool";

        /// <summary>The package's version: the comparator's own (Version in loadtests/Comparator.csproj).</summary>
        private static string Version =>
            typeof(Program).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()!.InformationalVersion.Split('+')[0];

        private static async Task Succeed(string file, string directory, params string[] args)
        {
            var (exit, stdout, stderr) = await Run(file, directory, args);
            Assert.True(exit == 0, $"{file} {string.Join(' ', args)}: exit {exit}\n{stdout}\n{stderr}");
        }

        private static async Task<(int ExitCode, string Stdout, string Stderr)> Run(string file, string directory, params string[] args)
        {
            var info = new ProcessStartInfo(file) { WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            foreach (var a in args) info.ArgumentList.Add(a);
            return await ComparatorProcess.RunToEndAsync(Process.Start(info)!, Patience);
        }
    }
}
