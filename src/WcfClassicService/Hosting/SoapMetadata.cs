using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.ServiceModel;
using System.ServiceModel.Description;
using System.Text;
using System.Xml;
using System.Xml.Schema;
using WsdlDocument = System.Web.Services.Description.ServiceDescription;

namespace Comparator.WcfClassicService.Hosting
{
    /// <summary>
    /// The SOAP endpoint's WSDL as the documents ServiceMetadataBehavior publishes: the service's WSDL at
    /// ?wsdl, the contract's (its own namespace) at ?wsdl=wsdl0, the schemas at ?xsd=xsd0, ..., each
    /// import's location pointing at the next. Exported once, on the first GET, with the runtime's own
    /// <see cref="WsdlExporter"/> (Mono's here, .NET Framework's on Windows), for the project's transport
    /// to answer GET /soap?wsdl with: ServiceMetadataBehavior itself cannot serve this host under Mono
    /// (see <see cref="ContractHost"/>).
    /// </summary>
    public static class SoapMetadata
    {
        /// <summary>The documents by query ("wsdl", "wsdl=wsdl0", "xsd=xsd0"), as UTF-8 bytes.</summary>
        /// <param name="endpoint">the SOAP endpoint; exported as the BasicHttpBinding it stands for (its binding is that message model on another transport)</param>
        public static IReadOnlyDictionary<string, byte[]> Export(ServiceEndpoint endpoint, ServiceDescription service)
        {
            var standIn = new ServiceEndpoint(endpoint.Contract, new BasicHttpBinding(), endpoint.Address);
            var exporter = new WsdlExporter();
            exporter.ExportEndpoints(new[] { standIn }, new XmlQualifiedName(service.Name, service.Namespace));
            if (exporter.Errors.Count > 0) throw new InvalidOperationException("WSDL export of " + endpoint.Address + ": " + exporter.Errors[0].Message);

            var wsdls = new List<(string Key, WsdlDocument Document)>();
            var schemas = new List<(string Key, XmlSchema Schema)>();
            var wsdlKeys = new Dictionary<string, string>(StringComparer.Ordinal);
            var schemaKeys = new Dictionary<string, string>(StringComparer.Ordinal);
            foreach (var section in exporter.GetGeneratedMetadata().MetadataSections)
            {
                if (section.Metadata is XmlSchema schema)
                {
                    var key = "xsd=xsd" + schemas.Count;
                    schemas.Add((key, schema));
                    schemaKeys[schema.TargetNamespace ?? ""] = key;
                }
                else if (section.Metadata is WsdlDocument wsdl)
                {
                    // The document with the service (and its soap:address) is the one ?wsdl names; the others are numbered.
                    var key = wsdl.Services.Count > 0 ? "wsdl" : "wsdl=wsdl" + wsdls.Count(w => w.Key != "wsdl");
                    wsdls.Add((key, wsdl));
                    wsdlKeys[wsdl.TargetNamespace ?? ""] = key;
                }
            }

            var at = endpoint.Address.Uri.GetLeftPart(UriPartial.Path) + "?";
            var documents = new Dictionary<string, byte[]>(StringComparer.OrdinalIgnoreCase);
            foreach (var (key, wsdl) in wsdls)
            {
                foreach (System.Web.Services.Description.Import import in wsdl.Imports)
                    if (string.IsNullOrEmpty(import.Location) && wsdlKeys.TryGetValue(import.Namespace ?? "", out var target)) import.Location = at + target;
                foreach (XmlSchema schema in wsdl.Types.Schemas) Locate(schema, at, schemaKeys);
                documents[key] = Bytes(wsdl.Write);
            }
            foreach (var (key, schema) in schemas)
            {
                Locate(schema, at, schemaKeys);
                documents[key] = Bytes(schema.Write);
            }
            return documents;
        }

        /// <summary>A schema import with no location gets the published schema of its namespace, where there is one (XSD's own has none).</summary>
        private static void Locate(XmlSchema schema, string at, Dictionary<string, string> byNamespace)
        {
            foreach (var include in schema.Includes)
                if (include is XmlSchemaImport import && import.SchemaLocation == null && byNamespace.TryGetValue(import.Namespace ?? "", out var key))
                    import.SchemaLocation = at + key;
        }

        /// <summary>UTF-8 without a byte order mark, declared so in the XML declaration.</summary>
        private static byte[] Bytes(Action<XmlWriter> write)
        {
            var buffer = new MemoryStream();
            using (var writer = XmlWriter.Create(buffer, new XmlWriterSettings { Encoding = new UTF8Encoding(false) })) write(writer);
            return buffer.ToArray();
        }
    }
}
