using System.IO;
using Comparator.Cli;
using Comparator.Running;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// `report RUN_DIR` rebuilds a died run from its journal into that directory, and a run's files are never overwritten: a directory that lost
/// its results.json but kept another of the run's files is refused with the way out, before anything is written (no temporary file left).
/// </summary>
public sealed class RebuildRefusalTests : System.IDisposable
{
    private readonly DirectoryInfo _dir = Directory.CreateTempSubdirectory("comparator-rebuild-");

    public void Dispose() => _dir.Delete(recursive: true);

    [Fact]
    public void A_run_directory_without_results_json_but_with_its_csv_is_refused_with_the_way_out()
    {
        File.WriteAllText(Path.Combine(_dir.FullName, RunJournal.FileName), "");
        File.WriteAllText(Path.Combine(_dir.FullName, "results.csv"), "kept\n");

        var refused = Assert.Throws<IncomparableException>(() => JournaledRun.RebuildIfDied(_dir.FullName));

        Assert.Equal(2, refused.ExitCode);
        Assert.Contains("it has no results.json but holds results.csv", refused.Message);
        Assert.Contains("copy journal.jsonl into an empty directory", refused.Message);
        Assert.Equal(new[] { "journal.jsonl", "results.csv" }, System.Linq.Enumerable.Order(System.Linq.Enumerable.Select(_dir.GetFiles(), f => f.Name)));
        Assert.Equal("kept\n", File.ReadAllText(Path.Combine(_dir.FullName, "results.csv")));
    }
}
