using System.Collections.Generic;
using System.IO;
using Comparator.Measuring;
using Comparator.Running;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// How a tool is found on PATH (Windows through PATHEXT, elsewhere the bare name), with PATH, PATHEXT
/// and the files given, so the Windows rule is checked here; and CPU lists as Windows affinity masks.
/// </summary>
public sealed class ToolPathTests
{
    private static readonly string Apache = Path.Combine(@"C:\Apache24\bin", "ab.exe");

    [Fact]
    public void Windows_tries_each_pathext_extension_in_each_directory()
    {
        var files = new HashSet<string> { Apache };
        Assert.Equal(Apache, ToolPath.Find("ab", @"C:\Windows;""C:\Apache24\bin""", ".COM;.EXE;.BAT", windows: true, files.Contains));
    }

    [Fact]
    public void Windows_without_pathext_uses_its_default_extensions()
    {
        var files = new HashSet<string> { Apache };
        Assert.Equal(Apache, ToolPath.Find("ab", @"C:\Apache24\bin", null, windows: true, files.Contains));
    }

    [Fact]
    public void A_name_with_its_extension_is_found_as_given_on_windows()
    {
        var files = new HashSet<string> { Apache };
        Assert.Equal(Apache, ToolPath.Find("ab.exe", @"C:\Apache24\bin", ".COM", windows: true, files.Contains));
    }

    [Fact]
    public void Elsewhere_only_the_bare_name_counts()
    {
        var files = new HashSet<string> { "/opt/ab.exe", "/usr/bin/ab" };
        Assert.Equal("/usr/bin/ab", ToolPath.Find("ab", "/opt:/usr/bin", ".EXE", windows: false, files.Contains));
        Assert.Null(ToolPath.Find("wrk", "/opt:/usr/bin", ".EXE", windows: false, files.Contains));
    }

    [Fact]
    public void A_tool_on_this_machines_path_is_found() => Assert.NotNull(ToolProcess.TryLocate("sh"));

    [Theory]
    [InlineData("0", 0b1)]
    [InlineData("1", 0b10)]
    [InlineData("0-1", 0b11)]
    [InlineData("0,2", 0b101)]
    [InlineData("0-2,5", 0b100111)]
    public void Cpu_lists_are_affinity_masks_and_back(string cpus, long mask)
    {
        Assert.Equal((nint)mask, CpuAffinity.Mask(cpus));
        Assert.Equal(cpus, CpuAffinity.ListOf((nint)mask));
    }
}
