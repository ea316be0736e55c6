using Comparator.Contracts;
using Comparator.Drivers;
using Comparator.Results;
using Comparator.Scenarios;

namespace Comparator.Running;

/// <summary>
/// A cell of the plan, the same on every target: its key with no target yet (<see cref="CellKey.AnyTarget"/>)
/// and no rate (a fixed-rate pass's rate is known only once its closed loop measured a capacity), the
/// size's label, and the rate as asked. <see cref="For"/> gives the one key every record of the cell uses.
/// </summary>
public sealed record CellPlan(CellKey Key, string SizeLabel, RateSpec? Rate = null)
{
    /// <summary>The cell on one target, at the rate the run resolved (null for the closed loop).</summary>
    public CellKey For(string target, double? rate) => Key with { Target = target, Rate = rate };
}

/// <summary>A cell to measure on every target: a contract endpoint at a size, or a scenario's operation; with what measures it.</summary>
public sealed record PlannedCell(CellPlan Plan, EndpointSpec? Contract, Operation? Operation, Payload Payload, ILoadDriver Driver, CoreAllotment Cores)
{
    public bool HasSize => Contract?.SendsBody ?? Operation?.Size is not null;

    /// <summary>"echo-post 4KB c=100 socket": the cell in progress lines (the asked rate is added where known).</summary>
    public string Label => $"{Plan.Key.Endpoint}{(HasSize ? " " + Payload.Spec.Label : "")} c={Plan.Key.Concurrency} {Driver.Name}";
}

/// <summary>
/// The run's plan: every cell, allotment of cores by allotment (the outermost axis: each starts the
/// targets afresh), then endpoint (or operation), size, concurrency and driver, each closed-loop cell
/// followed by its fixed-rate passes where the driver holds a rate.
/// </summary>
public sealed class RunPlan
{
    private static readonly Payload None = new(new PayloadSpec(CellSizes.NoSize, 0, "none"), Array.Empty<byte>());
    private readonly CellGrid _grid;
    private readonly IReadOnlyList<ILoadDriver> _drivers;

    public RunPlan(CellGrid grid, IReadOnlyList<ILoadDriver> drivers)
    {
        _grid = grid;
        _drivers = drivers;
        Cells = grid.Allotments.SelectMany(CellsUnder).ToList();
    }

    public IReadOnlyList<PlannedCell> Cells { get; }

    /// <summary>The sizes a scenario's operations were measured at, in the order of the cells.</summary>
    public IReadOnlyList<PayloadSpec> ScenarioSizes => Cells.Where(c => c.HasSize).Select(c => c.Payload.Spec).DistinctBy(p => (p.Label, p.Bytes)).ToList();

    private IEnumerable<PlannedCell> CellsUnder(CoreAllotment cores)
    {
        if (_grid.Scenario is Scenario scenario)
        {
            foreach (var operation in scenario.Operations)
            {
                var size = operation.Size is OperationSize s ? new Payload(new PayloadSpec(s.Label, s.Bytes, BodySource(operation)), Array.Empty<byte>()) : None;
                foreach (var concurrency in _grid.Concurrency)
                foreach (var driver in _drivers)
                foreach (var cell in WithRates(Cell(operation.Name, null, operation, size, concurrency, driver, cores)))
                    yield return cell;
            }
            yield break;
        }
        foreach (var endpoint in _grid.Endpoints)
        foreach (var payload in endpoint.SendsBody ? _grid.Sizes : new[] { None })
        foreach (var concurrency in _grid.Concurrency)
        foreach (var driver in _drivers)
        foreach (var cell in WithRates(Cell(endpoint.Name, endpoint, null, payload, concurrency, driver, cores)))
            yield return cell;
    }

    private static PlannedCell Cell(string name, EndpointSpec? contract, Operation? operation, Payload payload, int concurrency, ILoadDriver driver, CoreAllotment cores) =>
        new(new CellPlan(new CellKey(CellKey.AnyTarget, name, payload.Spec.Bytes, concurrency, driver.Name, Cores: cores.Label), payload.Spec.Label), contract, operation, payload, driver, cores);

    /// <summary>A closed-loop cell, then its fixed-rate passes where the driver holds a rate.</summary>
    private IEnumerable<PlannedCell> WithRates(PlannedCell closed)
    {
        yield return closed;
        if (!closed.Driver.HoldsRate) yield break;
        foreach (var rate in _grid.Rates) yield return closed with { Plan = closed.Plan with { Rate = rate } };
    }

    /// <summary>The body files an operation's requests send at this size, for the payload's source.</summary>
    private static string BodySource(Operation operation) =>
        string.Join(", ", operation.PerTarget.Values.Append(operation.Default).Select(r => r?.BodyFile).OfType<string>().Distinct());
}
