using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Comparator.Cli;
using Comparator.Contracts;
using Comparator.Targets;
using Xunit;
using YamlDotNet.RepresentationModel;

namespace Comparator.Tests;

/// <summary>
/// crank/comparator.yml, read as crank's controller reads it (YAML, then {{variables}} and
/// {% if %} filled in): every target of the catalogue is a job that builds its own project and
/// starts it with the service options every service takes, and the load job's command line is one
/// the comparator accepts. crank itself is not needed: what it would send is checked here.
/// </summary>
public class CrankConfigTests
{
    private static readonly string Root = BuildLayout.Discover().RepositoryRoot;
    private static readonly YamlMappingNode Config = Load();

    private static YamlMappingNode Load()
    {
        var yaml = new YamlStream();
        using var reader = new StreamReader(Path.Combine(Root, "crank", "comparator.yml"));
        yaml.Load(reader);
        return (YamlMappingNode)yaml.Documents[0].RootNode;
    }

    private static YamlMappingNode Map(YamlMappingNode node, string key) => (YamlMappingNode)node.Children[new YamlScalarNode(key)];
    private static string? Text(YamlMappingNode node, string key) =>
        node.Children.TryGetValue(new YamlScalarNode(key), out var v) && v is YamlScalarNode s ? s.Value : null;
    private static YamlMappingNode Jobs => Map(Config, "jobs");
    private static Dictionary<string, string> Variables(YamlMappingNode? extra = null)
    {
        var vars = Map(Config, "variables").Children.ToDictionary(p => ((YamlScalarNode)p.Key).Value!, p => ((YamlScalarNode)p.Value).Value ?? "");
        if (extra is not null) foreach (var p in extra.Children) vars[((YamlScalarNode)p.Key).Value!] = ((YamlScalarNode)p.Value).Value ?? "";
        return vars;
    }

    /// <summary>What crank's templates make of a value: {% if windows %}, {% unless windows %}, then {{name}}, repeated for variables that hold variables.</summary>
    private static string Render(string template, IReadOnlyDictionary<string, string> vars)
    {
        var windows = vars.TryGetValue("windows", out var w) && w == "true";
        var text = Regex.Replace(template, @"\{% if windows %\}(.*?)\{% else %\}(.*?)\{% endif %\}", m => windows ? m.Groups[1].Value : m.Groups[2].Value);
        text = Regex.Replace(text, @"\{% unless windows %\}(.*?)\{% endunless %\}", m => windows ? "" : m.Groups[1].Value);
        for (var i = 0; i < 3 && text.Contains("{{"); i++)
            text = Regex.Replace(text, @"\{\{\s*(\w+)\s*\}\}", m => vars.TryGetValue(m.Groups[1].Value, out var v) ? v : throw new Xunit.Sdk.XunitException($"variable '{m.Groups[1].Value}' is not defined"));
        Assert.DoesNotContain("{", text);
        return text;
    }

    private static string[] Split(string commandLine) => commandLine.Split(' ', StringSplitOptions.RemoveEmptyEntries);

    public static IEnumerable<object[]> Targets() => TargetCatalog.All.Select(t => new object[] { t.Name });

    [Theory]
    [MemberData(nameof(Targets))]
    public void Every_target_of_the_catalogue_is_a_job_that_builds_its_own_project_and_waits_for_the_ready_line(string name)
    {
        var target = TargetCatalog.Find(name)!;
        Assert.True(Jobs.Children.ContainsKey(new YamlScalarNode(name)), $"crank/comparator.yml has no job '{name}'");
        var job = Map(Jobs, name);
        Assert.Equal(ReadyLine.Marker.Trim(), Text(job, "readyStateText"));
        Assert.Equal("..", Text(Map(job, "source"), "localFolder"));
        var vars = Variables();
        var project = $"src/{target.ProjectName}/{target.ProjectName}.csproj";
        Assert.True(File.Exists(Path.Combine(Root, project)), project);
        if (target.Host == HostRuntime.DotNet)
        {
            Assert.Equal(project, Text(Map(job, "source"), "project"));
            Assert.Equal("net10.0", Text(job, "framework"));
            Assert.Equal("true", Text(Map(job, "options"), "collectCounters")); // the thread pool and GC, as a local run reads them
        }
        else
        {
            Assert.StartsWith("dotnet build " + project + " -c Release", Render(Text(job, "beforeScript")!, vars));
            var exe = Path.GetRelativePath(Root, new BuildLayout(Root, "Release").AssemblyPath(target)).Replace('\\', '/');
            Assert.Equal("/usr/bin/mono", Render(Text(job, "executable")!, vars));
            Assert.StartsWith(exe + " ", Render(Text(job, "arguments")!, vars));
            var onWindows = new Dictionary<string, string>(vars) { ["windows"] = "true" };
            Assert.Equal(exe, Render(Text(job, "executable")!, onWindows));
            Assert.StartsWith("--", Render(Text(job, "arguments")!, onWindows));
        }

        // The service's own options, as every service parses them: its variant, the port and the agent machine's address.
        var arguments = Split(Render(Text(job, "arguments")!, vars)).SkipWhile(a => !a.StartsWith("--", StringComparison.Ordinal)).ToArray();
        Assert.Equal(target.VariantArguments, arguments.Take(target.VariantArguments.Count));
        var service = ServiceOptions.Parse(arguments.Skip(target.VariantArguments.Count).ToArray(), out var error);
        Assert.True(service is not null, error);
        Assert.Equal(vars["serverAddress"], service!.Address);
    }

    [Fact]
    public void Every_target_listens_on_a_port_of_its_own_so_any_pair_runs_on_one_agent()
    {
        var vars = Variables();
        var jobs = TargetCatalog.All.Select(t => (Job: t.Name, Target: t)).Append((Job: "webapi-selfhost-again", Target: TargetCatalog.Find("webapi-selfhost")!));
        var ports = jobs.Select(j => ServiceOptions.Parse(Split(Render(Text(Map(Jobs, j.Job), "arguments")!, vars))
            .SkipWhile(a => !a.StartsWith("--", StringComparison.Ordinal)).Skip(j.Target.VariantArguments.Count).ToArray(), out _)!.Port).ToList();
        Assert.Equal(ports.Count, ports.Distinct().Count());
        // The A/A copy is the same job but for its port.
        Assert.Equal(Text(Map(Jobs, "webapi-selfhost"), "beforeScript"), Text(Map(Jobs, "webapi-selfhost-again"), "beforeScript"));
    }

    public static IEnumerable<object[]> Scenarios() =>
        Map(Config, "scenarios").Children.Keys.Select(k => new object[] { ((YamlScalarNode)k).Value! });

    [Theory]
    [MemberData(nameof(Scenarios))]
    public void Every_scenario_runs_its_targets_jobs_and_a_comparator_command_line_that_measures_them(string scenario)
    {
        var roles = Map(Map(Config, "scenarios"), scenario);
        var load = Map(roles, "load");
        Assert.Equal("comparator", Text(load, "job"));
        var targets = roles.Children.Keys.Select(k => ((YamlScalarNode)k).Value!).Where(r => r != "load").ToList();
        Assert.NotEmpty(targets);
        foreach (var role in targets)
        {
            // The role is named after its target, so import-crank finds each target's job by name
            // (the a-a scenario's second copy of a target is that target's name with -again).
            Assert.NotNull(TargetCatalog.Find(role) ?? TargetCatalog.Find(role.Replace("-again", "")));
            Assert.Equal(role, Text(Map(roles, role), "job"));
            foreach (var profile in new[] { "one-machine", "two-machines" })
                Assert.True(Map(Map(Map(Config, "profiles"), profile), "jobs").Children.ContainsKey(new YamlScalarNode(role)), $"profile {profile} has no endpoint for {role}");
        }

        var vars = Variables(Map(load, "variables"));
        var comparator = Map(Jobs, "comparator");
        Assert.Equal("loadtests/Comparator.csproj", Text(Map(comparator, "source"), "project"));
        Assert.Equal("true", Text(comparator, "waitForExit"));
        var args = Split(Render(Text(comparator, "arguments")!, vars));
        Assert.Equal("run", args[0]);
        Assert.Contains("--crank", args);
        // The comparator's own parser takes the line as it is (no unknown option, every value well formed)...
        var parse = CommandLine.ParseOrThrow(RunCommand.Define(), args.Skip(1).ToList());
        var reader = new ArgumentReader(parse);
        // ...and it measures exactly the scenario's target jobs, at their ports on the server agent's address.
        var measured = reader.Values("--target").Select(ExternalTarget.Parse).ToList();
        Assert.Equal(targets.OrderBy(t => t), measured.Select(m => m.Name).OrderBy(t => t));
        foreach (var (name, url) in measured)
        {
            var target = TargetCatalog.Find(name) ?? TargetCatalog.Find(name.Replace("-again", ""))!;
            var service = ServiceOptions.Parse(Split(Render(Text(Map(Jobs, name), "arguments")!, vars))
                .SkipWhile(a => !a.StartsWith("--", StringComparison.Ordinal)).Skip(target.VariantArguments.Count).ToArray(), out _)!;
            Assert.Equal(service.Port, url.Port);
            Assert.Equal(vars["serverAddress"], url.Host);
        }
        if (reader.Value("--scenario") is string file)
            Assert.True(File.Exists(Path.GetFullPath(Path.Combine(Root, "loadtests", "published", file))), $"{file}, from the load job's folder (loadtests/published)");
    }

    [Fact]
    public void The_default_windows_are_long_enough_for_the_agents_one_second_samples()
    {
        var args = Split(Render(Text(Map(Jobs, "comparator"), "arguments")!, Variables(Map(Map(Map(Map(Config, "scenarios"), "default-pair"), "load"), "variables"))));
        var duration = new ArgumentReader(CommandLine.ParseOrThrow(RunCommand.Define(), args.Skip(1).ToList())).Value("--duration");
        Assert.NotNull(duration);
        Assert.True(Cli.OptionValues.Duration("--duration", duration!, allowZero: false) >= TimeSpan.FromSeconds(3));
    }
}
