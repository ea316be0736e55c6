using Comparator.Errors;

namespace Comparator.Scenarios;

/// <summary>
/// A scenario file, resolved: named operations, each asked of every target in its own way (path,
/// method, headers, body), and what a correct answer is. The targets come from the command line, so
/// one file serves any deployment. An operation with sizes is expanded here into one operation per
/// size (same name, its <see cref="Operation.Size"/> set), so every later step sees one request each.
/// </summary>
public sealed record Scenario(string File, IReadOnlyList<Operation> Operations)
{
    /// <summary>The request an operation sends to a target: its own, else the operation's default, else null.</summary>
    public static ScenarioRequest? RequestFor(Operation operation, string target) =>
        operation.PerTarget.TryGetValue(target, out var own) ? own : operation.Default;

    /// <summary>What a correct answer of a target is: its request's own expectation, else the operation's.</summary>
    public static Expectation ExpectFor(Operation operation, string target) => RequestFor(operation, target)?.Expect ?? operation.Expect;
}

/// <param name="Default">the request for every target the operation does not name, or null when each target must be named</param>
/// <param name="PerTarget">requests by target name</param>
/// <param name="Size">the body size this copy of the operation sends (from the file's "sizes"), or null</param>
public sealed record Operation(string Name, ScenarioRequest? Default, IReadOnlyDictionary<string, ScenarioRequest> PerTarget, Expectation Expect,
    OperationSize? Size = null)
{
    /// <summary>"create-order" or "create-order 4KB": how verify and the progress lines name it.</summary>
    public string Label => Size is null ? Name : Name + " " + Size.Label;
}

/// <summary>One of an operation's sizes: the label as written ("4KB", which replaced {size} in its body paths) and its bytes.</summary>
public sealed record OperationSize(string Label, long Bytes);

/// <param name="PathAndQuery">"/OrderService.svc/GetOrder?id=42", as written, placeholders and all (what reports show; <see cref="Parts"/> is what is sent)</param>
/// <param name="Headers">as written, placeholders and all</param>
/// <param name="Body">the body file's bytes as read, placeholders and all</param>
/// <param name="BodyFile">where the body came from (for reports), or null</param>
/// <param name="Expect">this target's own rule for a correct answer (a SOAP envelope beside JSON), or null for the operation's</param>
public sealed record ScenarioRequest(string Method, string PathAndQuery, IReadOnlyList<KeyValuePair<string, string>> Headers, byte[]? Body, string? BodyFile,
    Expectation? Expect = null)
{
    private readonly RequestParts? _parts;

    /// <summary>What is sent: {env:NAME} written in, {seq} and {uuid} as slots (from the parser; a request built otherwise is sent as written).</summary>
    public RequestParts Parts
    {
        get => _parts ?? RequestParts.AsWritten(PathAndQuery, Headers, Body);
        init => _parts = value;
    }
}

/// <summary>What a correct answer is: its status, and optionally one rule on its body.</summary>
public sealed record Expectation(IReadOnlyList<int> Status, BodyRule? Body)
{
    /// <summary>"200, same as webapi": one line for reports.</summary>
    public string Describe() => "status " + (Status.Count == 0 ? "2xx" : string.Join(" or ", Status)) + (Body is null ? "" : ", " + Body.Describe());
}

/// <summary>One rule on an answer's body.</summary>
public abstract record BodyRule
{
    public abstract string Describe();

    /// <summary>The target whose answer to the same operation this rule compares with, or null.</summary>
    public virtual string? Reference => null;

    /// <summary>The same bytes.</summary>
    public sealed record Exact(byte[] Bytes) : BodyRule
    {
        public override string Describe() => $"exactly {Bytes.Length} given bytes";
    }

    /// <summary>The same JSON value, whatever the order of properties and the whitespace.</summary>
    public sealed record JsonEqual(string Json) : BodyRule
    {
        public override string Describe() => "JSON equal to the given value";
    }

    /// <summary>Each answer equal (as bytes, or as JSON when both parse) to the named target's answer to the same operation.</summary>
    public sealed record SameAs(string Target) : BodyRule
    {
        public override string Describe() => $"same as {Target}'s answer";
        public override string? Reference => Target;
    }

    /// <summary>
    /// Named values equal to the same values in the named target's answer, each found by XPath in an
    /// XML (SOAP) answer and by JSONPath in a JSON one: the old service's data against its successor's,
    /// whatever the format. See <see cref="FieldValues"/>.
    /// </summary>
    public sealed record SameFields(string Target, IReadOnlyList<FieldPath> Fields, IReadOnlyDictionary<string, string> Namespaces) : BodyRule
    {
        public override string Describe() => $"fields {string.Join(", ", Fields.Select(f => f.Name))} same as {Target}'s";
        public override string? Reference => Target;
    }

    public sealed record Contains(string Text) : BodyRule
    {
        public override string Describe() => $"contains \"{Text}\"";
    }

    public sealed record Matches(System.Text.RegularExpressions.Regex Pattern) : BodyRule
    {
        public override string Describe() => $"matches /{Pattern}/";
    }
}

/// <summary>
/// One value compared by same-fields: its name, and where to find it: a path by target name, else by
/// the answer's kind ("xml": XPath, "json": JSONPath).
/// </summary>
public sealed record FieldPath(string Name, IReadOnlyDictionary<string, string> ByTarget, string? Xml, string? Json)
{
    /// <summary>The path for a target's answer, and whether it is JSONPath; null when the field has none for it.</summary>
    public (string Path, bool IsJson)? For(string target, bool answerIsXml) =>
        ByTarget.TryGetValue(target, out var own) ? (own, own.StartsWith('$'))
        : answerIsXml ? Xml is null ? null : (Xml, false)
        : Json is null ? null : (Json, true);
}

/// <summary>A scenario file that cannot be used: one line naming the file, the line where known, the field and what was expected; the exit code is 2.</summary>
public sealed class ScenarioException(string message) : ComparatorException(ExitCodes.BadArguments, message);
