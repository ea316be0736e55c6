namespace Comparator.Scenarios.Drafting;

/// <summary>
/// One operation of a service document as a drafted scenario request: how to ask it (method, path,
/// headers, a sample body to write beside the scenario) and what a correct answer is (a status and,
/// for SOAP, a regex on the answer).
/// </summary>
/// <param name="Name">the document's name for it: the WSDL operation, or the OpenAPI operationId</param>
/// <param name="BodyExtension">the body file's ending, "soap.xml" or "json"</param>
public sealed record DraftRequest(
    string Name, string Method, string Path, IReadOnlyList<KeyValuePair<string, string>> Headers,
    string? Body, string BodyExtension, int Status, string? Regex)
{
    /// <summary>The service's base URL ("http://old:8080") where the document names it (soap:address, OpenAPI's server), else null.</summary>
    public string? Origin { get; init; }

    /// <summary>"POST /api/echo" (the document's path template) for a REST operation, which --map may name it by; null for SOAP.</summary>
    public string? Route { get; init; }

    /// <summary>The name pairing compares: lower case, letters and digits only ("GetOrder", "getOrder", "get_order" alike).</summary>
    public string Key => PairingKey(Name);

    public static string PairingKey(string name) => new(name.Where(char.IsLetterOrDigit).Select(char.ToLowerInvariant).ToArray());
}
