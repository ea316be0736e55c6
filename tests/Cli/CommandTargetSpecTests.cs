using System;
using System.IO;
using System.Linq;
using Comparator.Cli;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>How a command target is read: its words, its program and runtime, its targets file; every mistake one line (exit 2).</summary>
public sealed class CommandTargetSpecTests : IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("comparator-command-spec-");

    public void Dispose() => _dir.Delete(recursive: true);

    [Fact]
    public void Words_split_as_a_shell_splits_them_and_nothing_is_expanded()
    {
        var words = CommandTargetSpec.Split("""dotnet "out dir/Old.dll" --urls 'http://127.0.0.1:{port}' a\ b "x\"y" $HOME""", out var problem);
        Assert.Null(problem);
        Assert.Equal(new[] { "dotnet", "out dir/Old.dll", "--urls", "http://127.0.0.1:{port}", "a b", "x\"y", "$HOME" }, words);
        CommandTargetSpec.Split("dotnet 'Old.dll", out problem);
        Assert.Equal("a quote (') is not closed", problem);
    }

    [Fact]
    public void A_command_line_target_takes_its_port_and_its_runtime_from_its_command()
    {
        var target = CommandTargetSpec.Parse("old=cmd:dotnet out/Old.dll --port {port}", _dir.FullName);
        Assert.Equal(HostRuntime.DotNet, target.Host);
        Assert.Equal(new[] { "out/Old.dll", "--port", "8123" }, target.Command!.ArgumentsFor(8123));
        Assert.Equal(new Uri("http://127.0.0.1:8123/"), target.Command.BaseUrl(8123));
        Assert.Equal(ReadyCheck.AnyAnswer, target.Command.Ready);
        Assert.Equal(HostRuntime.NetFramework, CommandTargetSpec.Parse("old=cmd:mono Old.exe --port {port}", _dir.FullName).Host);
        Assert.Equal(HostRuntime.Other, CommandTargetSpec.Parse("old=cmd:sh -c 'exec old' {port}", _dir.FullName).Host);
    }

    [SkippableFact]
    public void An_apphost_is_found_to_be_dotnet_by_the_dll_and_runtimeconfig_beside_it()
    {
        Skip.If(OperatingSystem.IsWindows(), "the apphost here is a file made executable with chmod");
        var apphost = Path.Combine(_dir.FullName, "Orders");
        File.WriteAllText(apphost, "");
        File.SetUnixFileMode(apphost, UnixFileMode.UserRead | UnixFileMode.UserExecute);
        Assert.Equal(HostRuntime.Other, CommandTargetSpec.Parse("orders=cmd:./Orders --port {port}", _dir.FullName).Host);
        File.WriteAllText(apphost + ".dll", "");
        File.WriteAllText(apphost + ".runtimeconfig.json", "{}");
        Assert.Equal(HostRuntime.DotNet, CommandTargetSpec.Parse("orders=cmd:./Orders --port {port}", _dir.FullName).Host);
    }

    [Fact]
    public void A_targets_file_resolves_its_working_directory_from_where_it_lies_and_reads_every_field()
    {
        var service = Directory.CreateDirectory(Path.Combine(_dir.FullName, "out", "new")).FullName;
        var file = Write("""
            { "targets": [ { "name": "new", "program": "dotnet", "arguments": ["New.dll"], "workingDirectory": "out/new",
                             "environment": { "ASPNETCORE_URLS": "http://127.0.0.1:{port}" }, "ready": { "path": "/health", "status": 200 },
                             "readyTimeout": "90s", "stopGrace": "2s" } ] }
            """);
        var target = Assert.Single(TargetsFile.Load(file));
        var command = target.Command!;
        Assert.Equal(service, command.WorkingDirectory);
        Assert.Equal("http://127.0.0.1:9000", command.EnvironmentFor(9000)["ASPNETCORE_URLS"]);
        Assert.Equal(new ReadyCheck("/health", 200, null), command.Ready);
        Assert.Equal(TimeSpan.FromSeconds(90), command.ReadyTimeout);
        Assert.Equal(TimeSpan.FromSeconds(2), command.StopGrace);
        Assert.True(command.TakesPort);
    }

    [Theory]
    [InlineData("""{ "targets": [] }""", "$.targets: expected a list of one or more targets")]
    [InlineData("""{ "targets": [ { "name": "a", "program": "sleep", "argumnts": [] } ] }""", "unknown field 'argumnts'")]
    [InlineData("""{ "targets": [ { "name": "a", "arguments": ["{port}"] } ] }""", "$.targets[0].program: expected the program")]
    [InlineData("""{ "targets": [ { "name": "a b", "program": "sleep", "arguments": ["{port}"] } ] }""", "a target's name is letters, digits")]
    [InlineData("""{ "targets": [ { "name": "a", "program": "sleep", "arguments": ["{port}"], "url": "ftp://x/" } ] }""", "$.targets[0].url: expected http://")]
    [InlineData("""{ "targets": [ { "name": "a", "program": "sleep", "arguments": ["{port}"], "ready": { "status": 999 } } ] }""", "$.targets[0].ready.status: expected an HTTP status")]
    [InlineData("""{ "targets": [ { "name": "a", "program": "sleep", "arguments": ["{port}"], "ready": { "path": "/", "outputLine": "up" } } ] }""", "not both")]
    [InlineData("""{ "targets": [ { "name": "a", "program": "sleep", "arguments": ["{port}"], "ready": { "outputLine": "(" } } ] }""", "not a regular expression")]
    [InlineData("""{ "targets": [ { "name": "a", "program": "sleep", "arguments": ["{port}"], "readyTimeout": "soon" } ] }""", "expected a duration such as 30s")]
    [InlineData("""{ "targets": [ { "name": "a", "program": "sleep", "arguments": ["{port}"], "workingDirectory": "nowhere" } ] }""", "working directory")]
    [InlineData("""{ "targets": [ { "name": "a", "program": "sleep", "arguments": ["1"] } ] }""", "its command never says {port}")]
    public void A_wrong_targets_file_is_refused_in_one_line_naming_the_field(string json, string message)
    {
        var e = Assert.Throws<UsageException>(() => TargetsFile.Load(Write(json)));
        Assert.Contains(message, e.Message);
        Assert.StartsWith("run: --targets-file ", e.Message);
        Assert.DoesNotContain('\n', e.Message);
    }

    [Fact]
    public void A_fixed_url_stands_for_the_port_placeholder()
    {
        var target = Assert.Single(TargetsFile.Load(Write("""{ "targets": [ { "name": "a", "program": "sleep", "arguments": ["1"], "url": "http://127.0.0.1:5099/" } ] }""")));
        Assert.Equal(new Uri("http://127.0.0.1:5099/"), target.Command!.BaseUrl(1234));
    }

    private string Write(string json)
    {
        var file = Path.Combine(_dir.FullName, "targets.json");
        File.WriteAllText(file, json);
        return file;
    }
}
