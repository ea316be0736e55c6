using Comparator.Contracts;

namespace Comparator.WcfService;

/// <summary>The SOAP operations on the same (singleton) service. Explicit: IContractService already has a Time().</summary>
public sealed partial class ContractService : ISoapContract
{
    string ISoapContract.Echo(string text) => text;

    string ISoapContract.Time() => TimeText.Now();
}
