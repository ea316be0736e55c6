using System.IO;
using System.Reflection;

namespace Comparator.Targets;

/// <summary>
/// Where already-built targets live: artifacts/bin/PROJECT/CONFIG/ under the repository root
/// (Directory.Build.props sets UseArtifactsOutput). The configuration is the one this assembly
/// was built with, so a Release comparator starts Release services.
/// Installed as a .NET tool there is no repository: no target is built, the payloads are the ones
/// packed next to the tool (or generated), and results go to ./results.
/// </summary>
public sealed class BuildLayout
{
    /// <summary>What a command that needs a catalogue target says outside a checkout.</summary>
    public const string NotInCheckout =
        "the catalogue targets are built from the comparator's repository: clone it and run scripts/build.sh, or measure your services with --target NAME=URL";

    private readonly string? _root;

    public BuildLayout(string repositoryRoot, string configuration) : this(configuration) => _root = repositoryRoot;

    /// <summary>No repository: the comparator runs as an installed tool.</summary>
    private BuildLayout(string configuration) => Configuration = configuration;

    /// <summary>False when the comparator runs without its repository (installed with dotnet tool install).</summary>
    public bool IsCheckout => _root is not null;

    /// <summary>The repository; outside one, a <see cref="CheckoutMissingException"/> that says how to get it.</summary>
    public string RepositoryRoot => _root ?? throw new CheckoutMissingException(NotInCheckout);

    public string Configuration { get; }

    /// <summary>payloads/ of the repository, else the one packed next to the tool (sizes not found there are generated).</summary>
    public string PayloadDirectory => Path.Combine(_root ?? AppContext.BaseDirectory, "payloads");

    /// <summary>The layers a profile's frames are read by (profile-layers.json): the repository's, or the one packed beside the tool.</summary>
    public string ProfileLayersFile => Path.Combine(_root ?? AppContext.BaseDirectory, "profile-layers.json");

    /// <summary>Where run directories go by default: results/ in the repository, else in the current directory.</summary>
    public string ResultsDirectory => Path.Combine(_root ?? Environment.CurrentDirectory, "results");

    /// <summary>
    /// A file given on the command line (a scenario): as given when it exists, else the same relative
    /// path in the repository or next to the tool, where the examples (scenarios/) are.
    /// </summary>
    public string Resolve(string file)
    {
        if (File.Exists(file) || Path.IsPathRooted(file)) return file;
        var beside = Path.Combine(_root ?? AppContext.BaseDirectory, file);
        return File.Exists(beside) ? beside : file;
    }

    /// <summary>Throws the one line that says how to get the catalogue targets when there is no repository.</summary>
    public void RequireCheckout(string command)
    {
        if (_root is null) throw new CheckoutMissingException(command + ": " + NotInCheckout);
    }

    public string AssemblyPath(TargetDefinition target) => AssemblyPath(target.ProjectName, target.TargetFramework, target.AssemblyFile);

    public string AssemblyPath(string projectName, string? targetFramework, string assemblyFile)
    {
        var folder = Configuration.ToLowerInvariant();
        if (targetFramework is string framework) folder += "_" + framework; // the artifacts layout of a multi-targeted project
        return Path.Combine(RepositoryRoot, "artifacts", "bin", projectName, folder, assemblyFile);
    }

    private static readonly Lazy<BuildLayout> Discovered = new(Find);

    /// <summary>The repository (the folder holding Comparator.sln) above this program, or none: see <see cref="IsCheckout"/>.</summary>
    public static BuildLayout Discover() => Discovered.Value;

    private static BuildLayout Find()
    {
        var configuration = typeof(BuildLayout).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir != null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Comparator.sln")))
                return new BuildLayout(dir.FullName, configuration);
        }
        return new BuildLayout(configuration);
    }
}
