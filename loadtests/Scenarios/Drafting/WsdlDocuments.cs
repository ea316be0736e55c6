using System.IO;
using System.Threading.Tasks;
using System.Web.Services.Description;
using System.Xml;
using System.Xml.Schema;

namespace Comparator.Scenarios.Drafting;

/// <summary>
/// A WSDL with what it imports, as WCF publishes it at ?wsdl: the wsdl:imports (the contract's
/// namespace apart from the service's) and the schemas its types import by schemaLocation (?xsd=xsd0),
/// each fetched or read once, relative to the document that names it; the schemas compiled as one set.
/// </summary>
public sealed class WsdlDocuments
{
    public const int MaxDocuments = 64;

    public required IReadOnlyList<ServiceDescription> Descriptions { get; init; }
    public required XmlSchemaSet Schemas { get; init; }

    public IEnumerable<Binding> Bindings => Descriptions.SelectMany(d => d.Bindings.Cast<Binding>());
    public IEnumerable<Service> Services => Descriptions.SelectMany(d => d.Services.Cast<Service>());
    public PortType? PortType(XmlQualifiedName name) => Descriptions.Select(d => d.PortTypes[name.Name]).FirstOrDefault(p => p is not null);
    public Message? Message(XmlQualifiedName name) => Descriptions.Select(d => d.Messages[name.Name]).FirstOrDefault(m => m is not null);

    /// <param name="load">a document's text by its URL or file path; throws <see cref="DraftException"/> when it cannot</param>
    public static async Task<WsdlDocuments> LoadAsync(string source, Func<string, Task<string>> load)
    {
        var descriptions = new List<ServiceDescription>();
        var schemas = new XmlSchemaSet { XmlResolver = null };
        var seen = new HashSet<string>(StringComparer.Ordinal) { source };
        var pending = new Queue<string>(new[] { source });
        var schemaQueue = new Queue<(XmlSchema Schema, string Location)>();
        while (pending.Count > 0)
        {
            var location = pending.Dequeue();
            var wsdl = Parse(await load(location), location, ServiceDescription.Read);
            descriptions.Add(wsdl);
            foreach (Import import in wsdl.Imports)
                if (!string.IsNullOrEmpty(import.Location) && Follow(Resolve(location, import.Location), seen) is string next) pending.Enqueue(next);
            foreach (XmlSchema schema in wsdl.Types.Schemas) schemaQueue.Enqueue((schema, location));
        }
        while (schemaQueue.Count > 0)
        {
            var (schema, location) = schemaQueue.Dequeue();
            schemas.Add(schema);
            foreach (var external in schema.Includes.OfType<XmlSchemaExternal>().Where(e => !string.IsNullOrEmpty(e.SchemaLocation)))
            {
                var target = Resolve(location, external.SchemaLocation!);
                external.SchemaLocation = null; // loaded here, not by the set's resolver (which has none)
                if (Follow(target, seen) is not string next) continue;
                var loaded = Parse(await load(next), next, r => XmlSchema.Read(r, null)!);
                if (external is XmlSchemaImport) schemaQueue.Enqueue((loaded, next));
                else external.Schema = loaded; // an include or redefine: part of the schema that names it
            }
        }
        try { schemas.Compile(); }
        catch (XmlSchemaException e) { throw new DraftException($"{source}: its XML schemas do not compile: {e.Message.Split('\n')[0].Trim()}"); }
        return new WsdlDocuments { Descriptions = descriptions, Schemas = schemas };
    }

    private static string? Follow(string location, HashSet<string> seen)
    {
        if (!seen.Add(location)) return null;
        if (seen.Count > MaxDocuments) throw new DraftException($"more than {MaxDocuments} imported documents; stopped at {location}");
        return location;
    }

    /// <summary>A location relative to the document that names it: a URL against a URL, a path against a file's folder.</summary>
    public static string Resolve(string from, string location)
    {
        if (Uri.TryCreate(location, UriKind.Absolute, out var absolute) && absolute.Scheme is "http" or "https") return absolute.ToString();
        if (Uri.TryCreate(from, UriKind.Absolute, out var baseUri) && baseUri.Scheme is "http" or "https") return new Uri(baseUri, location).ToString();
        return Path.GetFullPath(Path.Combine(Path.GetDirectoryName(Path.GetFullPath(from)) ?? ".", location));
    }

    private static T Parse<T>(string text, string location, Func<XmlReader, T> read)
    {
        try
        {
            using var reader = XmlReader.Create(new StringReader(text), new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit });
            return read(reader);
        }
        catch (Exception e) when (e is XmlException or XmlSchemaException or InvalidOperationException)
        {
            throw new DraftException($"{location} is not a WSDL document it can read: {Innermost(e).Message.Split('\n')[0].Trim()}");
        }
    }

    private static Exception Innermost(Exception e) => e.InnerException is null ? e : Innermost(e.InnerException);
}
