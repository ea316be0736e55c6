namespace Comparator.Results;

/// <summary>The outcome of verifying one endpoint of one target before any load is put on it.</summary>
public sealed record Check(
    string Target,
    string Endpoint,
    bool Passed,
    int? Status,
    string Framing,
    long? ResponseWireBytes,
    string Detail);
