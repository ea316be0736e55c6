namespace Comparator.Targets;

/// <summary>
/// How the catalogue's targets stand one layer apart: the lineup in order, the steps between neighbours
/// that change one layer (framework, runtime and server, or the bare platform under a framework), and
/// the bare platform (ceiling) of each target's lane. "Where the difference comes from" reads this.
/// </summary>
public static class TargetLayers
{
    /// <param name="RuntimeOnly">the two targets run the same application code and differ only in runtime and server</param>
    public sealed record Step(string From, string To, string Label, bool RuntimeOnly);

    /// <summary>The lineup, one layer apart from its neighbours; a target not in the run is left out.</summary>
    public static readonly IReadOnlyList<string> Lineup = new[]
    {
        "wcf-classic", "webapi-selfhost", "httplistener-mono",
        "webapi", "webapi-kestrel", "wcf", "aspnetcore", "minimal", "kestrel", "httplistener",
    };

    public static readonly IReadOnlyList<Step> Steps = new Step[]
    {
        new("wcf-classic", "webapi-selfhost", "WCF vs Web API 2 on one runtime and listener: wcf-classic − webapi-selfhost", false),
        new("webapi-selfhost", "httplistener-mono", "Web API 2 over the bare listener: webapi-selfhost − httplistener-mono", false),
        new("webapi-selfhost", "webapi-kestrel", "runtime+server: webapi-selfhost − webapi-kestrel", true),
        new("webapi", "webapi-kestrel", "runtime+server: webapi − webapi-kestrel", true),
        new("httplistener-mono", "httplistener", "runtime, same listener code: httplistener-mono − httplistener", true),
        new("wcf", "webapi-kestrel", "WCF vs Web API 2 on one host: wcf − webapi-kestrel", false),
        new("webapi-kestrel", "aspnetcore", "framework: webapi-kestrel − aspnetcore", false),
        new("aspnetcore", "kestrel", "MVC over the bare platform: aspnetcore − kestrel", false),
    };

    /// <summary>The steps whose two targets run the same application code and differ only in runtime and server.</summary>
    public static IEnumerable<(string From, string To)> RuntimeSteps => Steps.Where(s => s.RuntimeOnly).Select(s => (s.From, s.To));

    /// <summary>The bare platform each target is shown against (x ceiling): its own lane's.</summary>
    public static readonly IReadOnlyDictionary<string, string> Ceilings = new Dictionary<string, string>
    {
        ["wcf-classic"] = "httplistener-mono", ["webapi-selfhost"] = "httplistener-mono",
        ["webapi"] = "kestrel", ["webapi-kestrel"] = "kestrel", ["wcf"] = "kestrel", ["aspnetcore"] = "kestrel", ["minimal"] = "kestrel",
    };
}
