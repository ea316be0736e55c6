using Comparator.Results;

namespace Comparator.Reports.Sections;

/// <summary>A scenario run's operations: how each target was asked and what a correct answer was, so every cell can be traced to its requests.</summary>
public static class ScenarioOperations
{
    public static string Explanation(ScenarioSpec scenario) =>
        $"The cells are the operations of the scenario file {scenario.File}. Each target was asked in its own way, verified before load, " +
        "and every answer under load was checked by the rule below (a wrong one is a failed request, with samples in results.json).";

    /// <summary>One row per operation (and size) and target; null for a run of the contract's endpoints.</summary>
    public static TextTable? Build(RunResult run)
    {
        if (run.Spec.Scenario is not ScenarioSpec scenario) return null;
        var rows = new List<IReadOnlyList<string>>();
        foreach (var op in scenario.Operations)
        foreach (var r in op.Requests)
            rows.Add(new[]
            {
                op.Name, op.Size ?? CellSizes.NoSize, r.Target, $"{r.Method} {r.PathAndQuery}", string.Join("; ", r.Headers),
                r.BodyFile is null ? "-" : string.Create(CultureInfo.InvariantCulture, $"{r.BodyFile} ({r.BodyBytes} B)"), r.Expect,
            });
        return new TextTable(new[] { "operation", "size", "target", "request", "headers", "body", "correct answer" }, rows);
    }

    /// <summary>
    /// "requests that vary: create-order ({seq} in the path; {uuid} in the body)" and what the placeholders
    /// are, for the settings; null when every operation sends one fixed request.
    /// </summary>
    public static string? VaryingText(RunSpec s)
    {
        var varying = (s.Scenario?.Operations ?? Array.Empty<OperationSpec>()).Select(o =>
        {
            var vary = o.Requests.Where(r => r.Varies is not null).ToList();
            if (vary.Count == 0) return null;
            return vary.Count == o.Requests.Count && vary.Select(r => r.Varies).Distinct().Count() == 1
                ? $"{o.Name} ({vary[0].Varies})"
                : $"{o.Name} ({string.Join(", ", vary.Select(r => $"{r.Target}: {r.Varies}"))})";
        }).OfType<string>().Distinct().ToList(); // an operation with sizes is listed once
        return varying.Count == 0 ? null
            : $"requests that vary: {string.Join("; ", varying)}. {{seq}} counts 1, 2, 3, ... on each connection of the socket driver (each worker " +
              "of httpclient), from 1 again in every cell of every launch; {uuid} is a fresh GUID per request; ab and wrk send one fixed request, so they are n/a there";
    }

    /// <summary>"operations get-order, create-order from scenarios/orders.json", or the endpoints and sizes with their files: the cells line of a report.</summary>
    public static string CellsText(RunSpec s) => s.Scenario is ScenarioSpec scenario
        ? $"operations {string.Join(", ", s.Endpoints)} from {scenario.File}" + (s.Sizes.Count > 0 ? $"; sizes {string.Join(", ", s.Sizes.Select(p => p.Label))}" : "")
        : string.Create(CultureInfo.InvariantCulture, $"endpoints {string.Join(", ", s.Endpoints)}; sizes {string.Join(", ", s.Sizes.Select(p => $"{p.Label} ({p.Source})"))}; json items {s.JsonItems}");
}
