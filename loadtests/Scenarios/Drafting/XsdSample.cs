using System.Xml;
using System.Xml.Schema;

namespace Comparator.Scenarios.Drafting;

/// <summary>
/// A sample instance of an XSD element: "text" for a string, 1 for a number, true for a boolean,
/// a fixed time for a date, the first value of an enumeration, and complex types filled in field by
/// field (one item of a list, the first branch of a choice) down to a limited depth.
/// </summary>
public static class XsdSample
{
    public const int MaxDepth = 6;
    public const string Time = "2024-01-01T12:00:00Z";

    public static void Write(XmlWriter w, XmlSchemaElement element, int depth)
    {
        var type = element.ElementSchemaType;
        w.WriteStartElement(element.QualifiedName.Name, element.QualifiedName.Namespace);
        if (type is XmlSchemaComplexType complex)
        {
            if (complex.ContentType == XmlSchemaContentType.TextOnly && complex.Datatype is not null)
                w.WriteString(Value(complex.Datatype, null));
            else if (depth < MaxDepth && complex.ContentTypeParticle is XmlSchemaParticle particle)
                Particle(w, particle, depth + 1);
        }
        else if (type is XmlSchemaSimpleType simple)
            w.WriteString(Value(simple.Datatype, simple));
        w.WriteEndElement();
    }

    private static void Particle(XmlWriter w, XmlSchemaParticle particle, int depth)
    {
        switch (particle)
        {
            case XmlSchemaElement e:
                Write(w, e, depth);
                break;
            case XmlSchemaChoice choice:
                if (choice.Items.OfType<XmlSchemaParticle>().FirstOrDefault() is XmlSchemaParticle first) Particle(w, first, depth);
                break;
            case XmlSchemaGroupBase group: // sequence, all
                foreach (var item in group.Items.OfType<XmlSchemaParticle>()) Particle(w, item, depth);
                break;
        }
    }

    /// <summary>A sample value of a simple type: its first enumerated value where it has some, else one by its XSD type.</summary>
    public static string Value(XmlSchemaDatatype? datatype, XmlSchemaSimpleType? simple)
    {
        if (simple?.Content is XmlSchemaSimpleTypeRestriction restriction &&
            restriction.Facets.OfType<XmlSchemaEnumerationFacet>().FirstOrDefault() is { Value: string first })
            return first;
        if (simple?.QualifiedName.Name == "guid") return "00000000-0000-0000-0000-000000000001"; // WCF's serialization guid
        if (simple?.QualifiedName.Name == "char") return "65";
        return datatype?.TypeCode switch
        {
            XmlTypeCode.Boolean => "true",
            XmlTypeCode.DateTime => Time,
            XmlTypeCode.Date => Time[..10],
            XmlTypeCode.Time => Time[11..],
            XmlTypeCode.Duration => "PT1S",
            XmlTypeCode.Decimal or XmlTypeCode.Double or XmlTypeCode.Float => "1.5",
            XmlTypeCode.Integer or XmlTypeCode.Int or XmlTypeCode.Long or XmlTypeCode.Short or XmlTypeCode.Byte
                or XmlTypeCode.UnsignedInt or XmlTypeCode.UnsignedLong or XmlTypeCode.UnsignedShort or XmlTypeCode.UnsignedByte
                or XmlTypeCode.NonNegativeInteger or XmlTypeCode.PositiveInteger => "1",
            XmlTypeCode.Base64Binary => "AQID",
            XmlTypeCode.HexBinary => "010203",
            XmlTypeCode.AnyUri => "http://example.com/",
            XmlTypeCode.QName => "text",
            _ => "text",
        };
    }
}
