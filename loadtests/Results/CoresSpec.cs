namespace Comparator.Results;

/// <summary>One allotment of cores: its label (the cells' CellKey.Cores), the CPUs the servers and the driver were pinned to (null: every core), and in words.</summary>
public sealed record CoresSpec(string Label, string? ServerCpus, string? DriverCpus, string Description)
{
    /// <summary>The label of servers and driver on every core, unpinned (and of services given by URL, so such runs pair up in a diff).</summary>
    public const string SharedLabel = "shared";

    /// <summary>The description of services given by URL: the comparator does not place them; their cores are whatever started them gave.</summary>
    public const string AsStarted = "on the cores they were started with (services given by URL)";
}
