using Comparator.Contracts;
using Comparator.Errors;
using Comparator.Results;

namespace Comparator.Running;

/// <summary>
/// Which cells a run measures on every target: the contract's endpoints by sizes (or a scenario's operations) by connection
/// counts, for each driver and its fixed-rate passes, under each allotment of cores.
/// </summary>
/// <param name="Rates">--rate, the fixed-rate passes after each closed-loop cell, for drivers that hold a rate (socket)</param>
/// <param name="Scenario">--scenario, whose operations are the cells instead of Endpoints x Sizes; null for the contract's endpoints</param>
/// <param name="Pin">--pin, the one placement of the targets and the driver, made once by the command; null when not given</param>
/// <param name="ServerCores">--server-cores as asked, each allotment its own set of cells placed by the run; null when not given</param>
/// <param name="Allotments">the allotments of cores the cells are measured under, in order: --server-cores, else --pin's, else shared (or external)</param>
public sealed record CellGrid(
    IReadOnlyList<EndpointSpec> Endpoints,
    IReadOnlyList<Payload> Sizes,
    IReadOnlyList<int> Concurrency,
    IReadOnlyList<string> Drivers,
    IReadOnlyList<RateSpec> Rates,
    Scenarios.Scenario? Scenario,
    int JsonItems,
    CpuPin? Pin,
    IReadOnlyList<CoreAllotment>? ServerCores,
    IReadOnlyList<CoreAllotment> Allotments)
{
    /// <summary>The allotments when --server-cores gives none: --pin's, else every core shared (a service given by URL runs where it was started).</summary>
    public static IReadOnlyList<CoreAllotment> AllotmentsOf(IReadOnlyList<CoreAllotment>? serverCores, CpuPin? pin, bool allExternal, int machineCores) =>
        serverCores ?? new[]
        {
            pin is CpuPin p ? CoreAllotment.FromPin(p) : allExternal ? CoreAllotment.External() : CoreAllotment.Shared(machineCores),
        };

    /// <summary>Cells per closed-loop cell for a driver: itself, and a fixed-rate pass per rate where the driver holds one.</summary>
    public int PassesFor(string driver) => 1 + (driver == Comparator.Drivers.SocketDriver.DriverName ? Rates.Count : 0);

    /// <summary>The cells of one target: every allotment, driver and pass.</summary>
    public int PerTarget
    {
        get
        {
            var closedLoop = Scenario is null ? 0 : Scenario.Operations.Count * Concurrency.Count;
            foreach (var e in Scenario is null ? Endpoints : Array.Empty<EndpointSpec>()) closedLoop += (e.SendsBody ? Sizes.Count : 1) * Concurrency.Count;
            return closedLoop * Drivers.Sum(PassesFor) * Allotments.Count;
        }
    }

    /// <summary>Something to measure: a connection count, a driver and an allotment at least (the parser refuses an empty list; a caller that builds one must not either).</summary>
    public Validated<CellGrid> Validate() => Concurrency.Count == 0 || Drivers.Count == 0 || Allotments.Count == 0 || (Scenario is null && Endpoints.Count == 0)
        ? Validated<CellGrid>.Refused("run: no cell to measure: give at least one endpoint, connection count and driver")
        : Validated<CellGrid>.Valid(this);
}

/// <summary>A payload as the run uses it: its label and source for the results, its bytes for the driver.</summary>
public sealed record Payload(PayloadSpec Spec, byte[] Bytes);

/// <summary>
/// A fixed-rate pass of every cell (open model): an absolute rate in requests/s, or a share of the
/// lower closed-loop capacity of the compared targets in that cell (taken from the first launch).
/// </summary>
public sealed record RateSpec(double? PerSecond, double? ShareOfCapacity)
{
    public string Describe() => PerSecond is double r
        ? r.ToString("0.#", System.Globalization.CultureInfo.InvariantCulture) + " req/s"
        : (ShareOfCapacity!.Value * 100).ToString("0.#", System.Globalization.CultureInfo.InvariantCulture) + "% of the lower closed-loop capacity of the compared targets";
}
