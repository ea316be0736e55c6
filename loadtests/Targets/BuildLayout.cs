using System.IO;
using System.Reflection;

namespace Comparator.Targets;

/// <summary>
/// Where already-built targets live: artifacts/bin/PROJECT/CONFIG/ under the repository root
/// (Directory.Build.props sets UseArtifactsOutput). The configuration is the one this assembly
/// was built with, so a Release comparator starts Release services.
/// </summary>
public sealed class BuildLayout
{
    public BuildLayout(string repositoryRoot, string configuration)
    {
        RepositoryRoot = repositoryRoot;
        Configuration = configuration;
    }

    public string RepositoryRoot { get; }
    public string Configuration { get; }

    public string PayloadDirectory => Path.Combine(RepositoryRoot, "payloads");

    public string AssemblyPath(TargetDefinition target) => AssemblyPath(target.ProjectName, target.TargetFramework, target.AssemblyFile);

    public string AssemblyPath(string projectName, string? targetFramework, string assemblyFile)
    {
        var folder = Configuration.ToLowerInvariant();
        if (targetFramework is string framework) folder += "_" + framework; // the artifacts layout of a multi-targeted project
        return Path.Combine(RepositoryRoot, "artifacts", "bin", projectName, folder, assemblyFile);
    }

    /// <summary>Finds the repository (the folder holding Comparator.sln) above this program.</summary>
    public static BuildLayout Discover()
    {
        var configuration = typeof(BuildLayout).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir != null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Comparator.sln")))
                return new BuildLayout(dir.FullName, configuration);
        }
        throw new LaunchException("cannot find Comparator.sln above " + AppContext.BaseDirectory + "; run the comparator from its repository");
    }
}
