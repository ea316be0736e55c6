using System.CommandLine;
using Comparator.Errors;
using Comparator.Reports;
using Comparator.Running;
using Comparator.Statistics;
using Comparator.Reports.Sections;

namespace Comparator.Cli;

/// <summary>
/// simulate: the rule's error rates and power, by simulation, at the spreads a user's machine shows
/// (calibrate prints them per cell). Nothing is measured: each simulated cell draws one log ratio per
/// launch and is judged exactly as a run judges it, looks, boundaries and stopping included.
/// </summary>
public static class SimulateCommand
{
    public static Command Define()
    {
        var simulate = new Command("simulate",
            "The rule's outcomes by simulation: per spread (the standard deviation of a cell's per-launch log ratio, which calibrate reports), " +
            "the share of cells that end higher, lower, equivalent or not settled, and the launches they took. Nothing is measured.")
        {
            CommandLine.Many("--spread", "PERCENT", "Per-launch spreads to simulate. Default: 2%,4%,8%,15%."),
            CommandLine.Many("--ratio", "R", "True ratios to simulate (1 is an A/A pair; 1.05 sits at the default margin). Default: 1."),
            CommandLine.One("--cells", "N", "Simulated cells per spread and ratio (100 to 1000000). Default: 10000."),
            CommandLine.One("--launches", "N", "A fixed launch count (one look) instead of launches added until settled."),
            CommandLine.One("--max-launches", "N", $"The design's horizon. Default: {SequentialDesign.DefaultMaxLaunches}."),
            CommandLine.One("--budget-launches", "N", "The most launches a cell may get before the budget ends it (at most the horizon). Default: the horizon."),
            CommandLine.One("--budget", "DURATION", "Simulate whole default runs instead of single cells: the default run's judged cells, each launch costing the load of the cells " +
                "still measured (as run counts it), within this budget of load (5m, 10m)."),
            CommandLine.One("--min-effect", "PERCENT", "As run's. Default: 3%."),
            CommandLine.One("--equivalence", "PERCENT", "As run's. Default: 5%."),
            CommandLine.One("--confidence", "PERCENT", "As run's. Default: 99%."),
            CommandLine.One("--seed", "N", "The first seed; each spread and ratio uses the next. Default: 1."),
            CommandLine.Flag("--boundaries", "Also print the design's t boundary at every launch count, for a lead (each direction) and for each side of equivalence."),
        };
        simulate.SetAction(parse => Run(new ArgumentReader(parse)));
        return simulate;
    }

    public static int Run(ArgumentReader a)
    {
        double Pct(string option, string raw) => OptionValues.Percent("simulate", option, raw, 0, 50);
        var spreads = (a.Defines("--spread") && a.Values("--spread").Count > 0 ? a.Values("--spread") : new[] { "2%", "4%", "8%", "15%" })
            .SelectMany(v => v.Split(',', StringSplitOptions.RemoveEmptyEntries)).Select(v => Pct("--spread", v)).ToList();
        var ratios = (a.Defines("--ratio") && a.Values("--ratio").Count > 0 ? a.Values("--ratio") : new[] { "1" })
            .SelectMany(v => v.Split(',', StringSplitOptions.RemoveEmptyEntries))
            .Select(v => double.TryParse(v, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var r) && r > 0.1 && r < 10 ? r
                : throw new UsageException($"simulate: --ratio takes a ratio such as 1 or 1.05, not '{v}'")).ToList();
        int Whole(string option, int min, int max, int fallback) => a.Value(option) is string raw
            ? int.TryParse(raw, NumberStyles.None, CultureInfo.InvariantCulture, out var v) && v >= min && v <= max ? v
                : throw new UsageException($"simulate: {option} takes a whole number from {min} to {max}, not '{raw}'")
            : fallback;
        var cells = Whole("--cells", 100, 1_000_000, 10_000);
        var seed = Whole("--seed", 0, int.MaxValue - 1000, 1);
        var fixedLaunches = a.Value("--launches") is not null ? Whole("--launches", 2, 50, 6) : (int?)null;
        var horizon = Whole("--max-launches", SequentialDesign.DefaultFirstLook, 50, SequentialDesign.DefaultMaxLaunches);
        var budget = a.Value("--budget-launches") is not null ? Whole("--budget-launches", 1, horizon, horizon) : (int?)null;
        var rule = new LeadRule(
            a.Value("--confidence") is string c ? OptionValues.Percent("simulate", "--confidence", c, 50, 99.99) : LeadRule.DefaultConfidence,
            a.Value("--min-effect") is string m ? Pct("--min-effect", m) : LeadRule.DefaultMinEffect,
            a.Value("--equivalence") is string e ? Pct("--equivalence", e) : LeadRule.DefaultEquivalence,
            fixedLaunches is null ? new SequentialDesign(SequentialDesign.DefaultFirstLook, horizon) : null);

        Console.WriteLine($"simulate: {cells} cells per row; {rule.Statement}" +
                          (fixedLaunches is int f ? $"; a fixed {f} launches" : budget is int b ? $"; at most {b} launches a cell (budget)" : ""));
        var rows = new List<IReadOnlyList<string>>();
        var budgetSeconds = a.Value("--budget") is string bs ? OptionValues.Duration("--budget", bs, allowZero: false, command: "simulate").TotalSeconds : (double?)null;
        if (budgetSeconds is not null && fixedLaunches is not null) throw new UsageException("simulate: --budget simulates launches added until settled; it does not take --launches");
        // The default run under this budget, its horizon planned from the budget as run plans it.
        if (budgetSeconds is not null) Targets.BuildLayout.Discover().RequireCheckout("simulate --budget"); // it plans from the default run's targets
        var defaults = budgetSeconds is null ? null : RunOptionsParser.Parse(new[] { "--budget", a.Value("--budget")!, "--max-launches", horizon.ToString(CultureInfo.InvariantCulture) },
            Targets.BuildLayout.Discover());
        if (defaults is not null) rule = rule with { Design = defaults.Judging.Rule.Design };
        if (defaults is not null)
            Console.WriteLine($"whole default runs: {defaults.Cells.PerTarget} judged cells each, {budgetSeconds:0} s of load at most, " +
                              $"horizon {rule.Design!.MaxLaunches} launches, {Math.Max(1, cells / (defaults.Cells.PerTarget))} runs per row");
        var i = 0;
        foreach (var ratio in ratios)
        foreach (var spread in spreads)
        {
            var r = defaults is null
                ? RuleSimulation.Run(rule, ratio, spread, cells, seed + i++, fixedLaunches ?? budget)
                : RuleSimulation.RunBudgeted(rule, ratio, spread, defaults.Cells.PerTarget, Math.Max(1, cells / (defaults.Cells.PerTarget)),
                    seed + i++, open => defaults.LaunchLoadSeconds(open * defaults.Targets.Plans.Count), budgetSeconds!.Value);
            rows.Add(new[]
            {
                Format.Ratio(ratio), Format.Percent(spread), Share(r, r.Higher), Share(r, r.Lower), Share(r, r.Equivalent), Share(r, r.Unsettled),
                r.MeanLaunches.ToString("0.0", CultureInfo.InvariantCulture),
            });
        }
        Console.Write(new TextTable(new[] { "true ratio", "spread", "higher", "lower", "equivalent", "not settled", "mean launches" }, rows).ToText());
        if (a.Flag("--boundaries")) Console.Write(Boundaries(rule, fixedLaunches).ToText());
        return ExitCodes.Success;
    }

    /// <summary>The t boundary at each launch count: the design's (repeated intervals), or Student's quantile at a fixed count.</summary>
    private static TextTable Boundaries(LeadRule rule, int? fixedLaunches)
    {
        var counts = rule.Design is SequentialDesign d ? Enumerable.Range(2, d.MaxLaunches - 1) : new[] { fixedLaunches ?? 6 };
        string T(double t) => double.IsPositiveInfinity(t) ? "∞" : t.ToString("0.000", CultureInfo.InvariantCulture);
        return new TextTable(new[] { "launches", $"lead t (α {Format.Percent(rule.LeadAlpha)} each way)", $"equivalence t (α {Format.Percent(LeadRule.EquivalenceAlpha)} each side)", "claims" },
            counts.Select(n => (IReadOnlyList<string>)new[]
            {
                n.ToString(CultureInfo.InvariantCulture), T(rule.Boundary(rule.LeadAlpha, n)), T(rule.Boundary(LeadRule.EquivalenceAlpha, n)),
                rule.Design is SequentialDesign s && n < s.FirstLook ? "none (below the first look)" : "yes",
            }).ToList());
    }

    private static string Share(SimulatedRates r, int count) => (100.0 * count / r.Cells).ToString("0.00", CultureInfo.InvariantCulture) + "%";
}
