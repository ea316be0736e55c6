namespace Comparator.Contracts
{
    /// <summary>Exit codes shared by every service, so the launcher can tell a taken port from a bad flag.</summary>
    public static class ServiceExitCodes
    {
        public const int Stopped = 0;
        public const int BadArguments = 2;
        public const int CannotListen = 3;
        /// <summary>HTTP.sys refused the URL (no reservation for this user, not elevated): another port would be refused too.</summary>
        public const int AccessDenied = 4;
    }
}
