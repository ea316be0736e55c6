using System;
using System.Collections.Generic;

namespace Comparator.Scenarios;

/// <summary>
/// A scenario file, resolved: named operations, each asked of every target in its own way (path,
/// method, headers, body), and what a correct answer is. The targets come from the command line, so
/// one file serves any deployment.
/// </summary>
public sealed record Scenario(string File, IReadOnlyList<Operation> Operations)
{
    /// <summary>The request an operation sends to a target: its own, else the operation's default, else null.</summary>
    public static ScenarioRequest? RequestFor(Operation operation, string target) =>
        operation.PerTarget.TryGetValue(target, out var own) ? own : operation.Default;
}

/// <param name="Default">the request for every target the operation does not name, or null when each target must be named</param>
/// <param name="PerTarget">requests by target name</param>
public sealed record Operation(string Name, ScenarioRequest? Default, IReadOnlyDictionary<string, ScenarioRequest> PerTarget, Expectation Expect);

/// <param name="PathAndQuery">"/OrderService.svc/GetOrder?id=42": joined to the target's base URL</param>
/// <param name="BodyFile">where the body came from (for reports), or null</param>
public sealed record ScenarioRequest(string Method, string PathAndQuery, IReadOnlyList<KeyValuePair<string, string>> Headers, byte[]? Body, string? BodyFile);

/// <summary>What a correct answer is: its status, and optionally one rule on its body.</summary>
public sealed record Expectation(IReadOnlyList<int> Status, BodyRule? Body);

/// <summary>One rule on an answer's body.</summary>
public abstract record BodyRule
{
    /// <summary>The same bytes.</summary>
    public sealed record Exact(byte[] Bytes) : BodyRule;
    /// <summary>The same JSON value, whatever the order of properties and the whitespace.</summary>
    public sealed record JsonEqual(string Json) : BodyRule;
    /// <summary>Each answer equal (as bytes, or as JSON when both parse) to the named target's answer to the same operation.</summary>
    public sealed record SameAs(string Target) : BodyRule;
    public sealed record Contains(string Text) : BodyRule;
    public sealed record Matches(System.Text.RegularExpressions.Regex Pattern) : BodyRule;
}

/// <summary>A scenario file that cannot be used: one line naming the file, the line where known, the field and what was expected.</summary>
public sealed class ScenarioException(string message) : Exception(message);
