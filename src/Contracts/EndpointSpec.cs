namespace Comparator.Contracts
{
    /// <summary>One endpoint of the contract: what is sent and how the answer must be framed.</summary>
    public sealed class EndpointSpec
    {
        public EndpointSpec(string name, string method, string path, bool sendsBody, Framing responseFraming, string responseContentType)
        {
            Name = name;
            Method = method;
            Path = path;
            SendsBody = sendsBody;
            ResponseFraming = responseFraming;
            ResponseContentType = responseContentType;
        }

        /// <summary>Short name used on the command line and in reports (time, json, echo-post, echo-put).</summary>
        public string Name { get; }
        public string Method { get; }
        public string Path { get; }
        /// <summary>True when the request carries a payload body (sent with Content-Length).</summary>
        public bool SendsBody { get; }
        public Framing ResponseFraming { get; }
        public string ResponseContentType { get; }

        public override string ToString() => Name + " (" + Method + " " + Path + ")";
    }
}
