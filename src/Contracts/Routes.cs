namespace Comparator.Contracts
{
    /// <summary>
    /// The one route table. Every service, the driver and the tests take paths from here, so the
    /// request bytes on the wire are the same for every target.
    /// </summary>
    public static class Routes
    {
        public const string Time = "/api/time";
        public const string Json = "/api/json";
        public const string Echo = "/api/echo";
        public const string StreamEcho = "/api/stream/echo";

        /// <summary>
        /// The SOAP 1.1 endpoint of the WCF targets: BasicHttpBinding, operations Echo and Time. Outside
        /// /api so it is its own endpoint (and listen address) beside the WebHttp one.
        /// </summary>
        public const string Soap = "/soap";

        /// <summary>Query parameter of the json endpoint that sets the number of objects.</summary>
        public const string JsonItemsParameter = "items";
    }
}
