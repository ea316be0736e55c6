namespace Comparator.Contracts
{
    public static class ServiceLimits
    {
        /// <summary>Largest request body a service accepts by default; above it the answer is 413.</summary>
        public const long DefaultMaxBodyBytes = 16L * 1024 * 1024;
    }
}
