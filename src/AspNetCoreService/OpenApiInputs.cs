using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text.Json.Nodes;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace Comparator.AspNetCoreService;

/// <summary>
/// An action that reads its request body itself (raw bytes, no model binding, so the framing and the
/// 413 stay the contract's): the media types the OpenAPI document gives its body. Metadata only; it
/// constrains nothing, unlike [Consumes], which would refuse the other types with 415.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class ReadsBodyAttribute(params string[] contentTypes) : Attribute
{
    public IReadOnlyList<string> ContentTypes { get; } = contentTypes;
}

/// <summary>An integer query parameter an action reads itself (raw, so "absent" and "invalid" stay apart): its range for the document.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class ReadsQueryAttribute(string name) : Attribute
{
    public string Name { get; } = name;
    public int Minimum { get; init; }
    public int Maximum { get; init; } = int.MaxValue;
    public int Default { get; init; }
}

/// <summary>Puts what <see cref="ReadsBodyAttribute"/> and <see cref="ReadsQueryAttribute"/> say into each operation of the document.</summary>
public sealed class OpenApiInputs : IOpenApiOperationTransformer
{
    public Task TransformAsync(OpenApiOperation operation, OpenApiOperationTransformerContext context, CancellationToken cancellationToken)
    {
        var metadata = context.Description.ActionDescriptor.EndpointMetadata;
        if (metadata.OfType<ReadsBodyAttribute>().FirstOrDefault() is { } body)
        {
            operation.RequestBody = new OpenApiRequestBody
            {
                Required = true,
                Content = body.ContentTypes.ToDictionary(type => type, _ => new OpenApiMediaType { Schema = new OpenApiSchema { Type = JsonSchemaType.String, Format = "binary" } }),
            };
        }
        foreach (var query in metadata.OfType<ReadsQueryAttribute>())
        {
            operation.Parameters ??= new List<IOpenApiParameter>();
            operation.Parameters.Add(new OpenApiParameter
            {
                Name = query.Name,
                In = ParameterLocation.Query,
                Required = false,
                Schema = new OpenApiSchema
                {
                    Type = JsonSchemaType.Integer,
                    Format = "int32",
                    Minimum = query.Minimum.ToString(CultureInfo.InvariantCulture),
                    Maximum = query.Maximum.ToString(CultureInfo.InvariantCulture),
                    Default = JsonValue.Create(query.Default),
                },
            });
        }
        return Task.CompletedTask;
    }
}
