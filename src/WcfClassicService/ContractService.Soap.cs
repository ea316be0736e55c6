using Comparator.Contracts;

namespace Comparator.WcfClassicService
{
    /// <summary>
    /// The SOAP operations, on the same service class (and so the same ServiceHost, instancing and
    /// throttle) as the WebHttp ones. Implemented explicitly: IContractService already has a Time().
    /// </summary>
    public sealed partial class ContractService : ISoapContract
    {
        string ISoapContract.Echo(string text) => text;

        string ISoapContract.Time() => TimeText.Now();
    }
}
