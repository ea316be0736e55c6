using System;
using System.Globalization;

namespace Comparator.Contracts
{
    /// <summary>
    /// The body of the time endpoint. The round-trip ("o") format of a UTC DateTime always has
    /// 7 fraction digits and a trailing Z, so every stack sends the same number of bytes
    /// whatever the culture or the moment.
    /// </summary>
    public static class TimeText
    {
        public const string Prefix = "Hello World. Time is: ";

        /// <summary>Length of "yyyy-MM-ddTHH:mm:ss.fffffffZ".</summary>
        public const int TimestampLength = 28;

        public const int Length = 22 + TimestampLength;

        public static string Format(DateTime utcNow) =>
            Prefix + DateTime.SpecifyKind(utcNow, DateTimeKind.Utc).ToString("o", CultureInfo.InvariantCulture);

        public static string Now() => Format(DateTime.UtcNow);

        /// <summary>Parses a body produced by <see cref="Format"/>; false for anything else.</summary>
        public static bool TryParse(string body, out DateTime utc)
        {
            utc = default;
            if (body == null || body.Length != Length || !body.StartsWith(Prefix, StringComparison.Ordinal))
                return false;
            return DateTime.TryParseExact(body.Substring(Prefix.Length), "yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'",
                CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out utc);
        }
    }
}
