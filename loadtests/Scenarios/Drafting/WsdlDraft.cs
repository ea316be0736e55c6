using System.IO;
using System.Text;
using System.Threading.Tasks;
using System.Web.Services.Description;
using System.Xml;
using System.Xml.Schema;

namespace Comparator.Scenarios.Drafting;

/// <summary>
/// The operations of a WSDL document as drafted requests: one per operation of each SOAP 1.1 binding
/// (and each SOAP 1.2 binding), POSTed to the path of the port's soap:address with its SOAPAction and
/// a sample envelope whose values come from the XSD types of the input element.
/// </summary>
public static class WsdlDraft
{
    public const string Soap11Envelope = "http://schemas.xmlsoap.org/soap/envelope/";
    public const string Soap12Envelope = "http://www.w3.org/2003/05/soap-envelope";

    /// <summary>The drafted requests of a WSDL and what it imports (see <see cref="WsdlDocuments"/>).</summary>
    public static async Task<IReadOnlyList<DraftRequest>> ReadAsync(string source, Func<string, Task<string>> load) =>
        Read(await WsdlDocuments.LoadAsync(source, load));

    /// <summary>A WSDL that imports nothing, from its text.</summary>
    public static IReadOnlyList<DraftRequest> Read(string text, string source) =>
        ReadAsync(source, s => s == source ? Task.FromResult(text) : throw new DraftException($"{source} imports {s}")).GetAwaiter().GetResult();

    public static IReadOnlyList<DraftRequest> Read(WsdlDocuments wsdl)
    {
        var requests = new List<DraftRequest>();
        var soap12Only = wsdl.Bindings.All(b => b.Extensions.Find(typeof(Soap12Binding)) is not null);
        foreach (var binding in wsdl.Bindings)
        {
            var soap12 = binding.Extensions.Find(typeof(Soap12Binding)) is not null;
            if (!soap12 && binding.Extensions.Find(typeof(SoapBinding)) is null) continue; // an HTTP GET/POST binding
            var portType = wsdl.PortType(binding.Type);
            if (portType is null) continue;
            var address = Address(wsdl, binding);
            foreach (OperationBinding opBinding in binding.Operations)
            {
                var operation = portType.Operations.Cast<System.Web.Services.Description.Operation>().FirstOrDefault(o => o.Name == opBinding.Name);
                if (operation is null) continue;
                var action = (opBinding.Extensions.Find(typeof(Soap12OperationBinding)) ?? opBinding.Extensions.Find(typeof(SoapOperationBinding))) is SoapOperationBinding b ? b.SoapAction ?? "" : "";
                var input = Element(wsdl, operation.Messages.Input?.Message);
                var output = Element(wsdl, operation.Messages.Output?.Message);
                var headers = soap12
                    ? new List<KeyValuePair<string, string>> { new("Content-Type", $"application/soap+xml; charset=utf-8; action=\"{action}\"") }
                    : new List<KeyValuePair<string, string>> { new("Content-Type", "text/xml; charset=utf-8"), new("SOAPAction", $"\"{action}\"") };
                var answer = output?.QualifiedName.Name ?? operation.Name + "Response";
                requests.Add(new DraftRequest(
                    soap12 && !soap12Only ? operation.Name + "-soap12" : operation.Name, "POST", address?.PathAndQuery ?? "/", headers,
                    Envelope(input, soap12), "soap.xml", 200, $"<(\\w+:)?{System.Text.RegularExpressions.Regex.Escape(answer)}[\\s/>]")
                { Origin = address?.GetLeftPart(UriPartial.Authority) });
            }
        }
        // Two SOAP 1.1 bindings of one port type (two endpoints) give the same operations twice: keep the first.
        return requests.GroupBy(r => r.Name, StringComparer.Ordinal).Select(g => g.First()).ToList();
    }

    private static Uri? Address(WsdlDocuments wsdl, Binding binding)
    {
        foreach (var service in wsdl.Services)
        foreach (Port port in service.Ports)
        {
            if (port.Binding.Name != binding.Name) continue;
            var location = (port.Extensions.Find(typeof(Soap12AddressBinding)) ?? port.Extensions.Find(typeof(SoapAddressBinding))) as SoapAddressBinding;
            if (location?.Location is string l && Uri.TryCreate(l, UriKind.Absolute, out var uri)) return uri;
        }
        return null;
    }

    private static XmlSchemaElement? Element(WsdlDocuments wsdl, XmlQualifiedName? messageName)
    {
        if (messageName is null || wsdl.Message(messageName) is not Message message) return null;
        var part = message.Parts.Cast<MessagePart>().FirstOrDefault(p => !p.Element.IsEmpty);
        return part is null ? null : wsdl.Schemas.GlobalElements[part.Element] as XmlSchemaElement;
    }

    /// <summary>The request envelope: the input element with a sample value in each of its fields.</summary>
    public static string Envelope(XmlSchemaElement? input, bool soap12)
    {
        var text = new StringBuilder();
        using (var w = XmlWriter.Create(text, new XmlWriterSettings { Indent = true, OmitXmlDeclaration = true }))
        {
            w.WriteStartElement("s", "Envelope", soap12 ? Soap12Envelope : Soap11Envelope);
            w.WriteStartElement("s", "Body", soap12 ? Soap12Envelope : Soap11Envelope);
            if (input is not null) XsdSample.Write(w, input, 0);
            w.WriteEndElement();
            w.WriteEndElement();
        }
        return text.Append('\n').ToString();
    }
}

/// <summary>A service document that cannot be read or drafted from; the message is one line for the user.</summary>
public sealed class DraftException : Exception
{
    public DraftException(string message) : base(message) { }
}
