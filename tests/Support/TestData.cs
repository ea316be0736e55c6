using System.Collections.Generic;
using System.IO;
using System.Linq;
using Comparator.Contracts;
using Comparator.Targets;

namespace Comparator.Tests;

/// <summary>Theory data: every available target crossed with the echo bodies (0 B, 1 B, every payload file).</summary>
public static class TestData
{
    public static IEnumerable<string> BodyNames()
    {
        yield return "empty";
        yield return "one-byte";
        foreach (var file in PayloadCatalogue.ListFiles(BuildLayout.Discover().PayloadDirectory))
            yield return file.Name;
    }

    public static byte[] Body(string name) => name switch
    {
        "empty" => new byte[0],
        "one-byte" => new[] { (byte)'x' },
        _ => File.ReadAllBytes(Path.Combine(BuildLayout.Discover().PayloadDirectory, name)),
    };

    public static IEnumerable<object[]> TargetsAndBodies() =>
        from t in TargetsFixture.UnderTest
        from b in BodyNames()
        select new object[] { t.Name, b };

    public static IEnumerable<object[]> TargetsAndItems() =>
        from t in TargetsFixture.UnderTest
        from n in new[] { 0, 1, 3, 100 }
        select new object[] { t.Name, n };

    public static IEnumerable<object[]> TargetsAndBadItems() =>
        from t in TargetsFixture.UnderTest
        from raw in new[] { "-1", "10001", "abc", "" }
        select new object[] { t.Name, raw };
}
