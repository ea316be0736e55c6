using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;

namespace Comparator.Contracts
{
    /// <summary>
    /// Request bodies by name and size. The standard files in payloads/ are produced by
    /// <see cref="Generate"/> (printable ASCII from a fixed-seed generator, so they compress like
    /// text, not like zeros, and are identical on every machine); users add their own files there.
    /// </summary>
    public static class PayloadCatalogue
    {
        /// <summary>The standard sizes: 500 B (the body of the original WCF vs Web API study), 4 KiB, 64 KiB, 1 MiB.</summary>
        public static IReadOnlyList<int> StandardSizes { get; } = new[] { 500, 4 * 1024, 64 * 1024, 1024 * 1024 };

        /// <summary>
        /// The payload-size study (--sizes sweep): 64 B to 4 MiB in x4 steps, log-spaced so that a
        /// curve's bend shows on a log axis: 64B, 256B, 1KB, 4KB, 16KB, 64KB, 256KB, 1MB, 4MB.
        /// </summary>
        public static IReadOnlyList<long> SweepSizes { get; } = new long[] { 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304 };

        public const string SweepName = "sweep";

        public static string FileName(int sizeBytes) => "payload-" + SizeLabel(sizeBytes) + ".txt";

        /// <summary>500B, 4KB, 64KB, 1MB: the label used in file names and reports (binary units).</summary>
        public static string SizeLabel(long bytes)
        {
            if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) return (bytes / (1024 * 1024)).ToString(CultureInfo.InvariantCulture) + "MB";
            if (bytes >= 1024 && bytes % 1024 == 0) return (bytes / 1024).ToString(CultureInfo.InvariantCulture) + "KB";
            return bytes.ToString(CultureInfo.InvariantCulture) + "B";
        }

        /// <summary>"500", "500B", "4KB", "1MB" (binary units) as bytes, as <see cref="SizeLabel"/> writes them; null when it is not a size.</summary>
        public static long? SizeBytes(string raw)
        {
            var text = raw.Trim().ToUpperInvariant();
            var scale = text.EndsWith("KB", StringComparison.Ordinal) ? 1024L
                : text.EndsWith("MB", StringComparison.Ordinal) ? 1024L * 1024
                : 1L;
            var number = scale > 1 ? text.Substring(0, text.Length - 2)
                : text.EndsWith("B", StringComparison.Ordinal) ? text.Substring(0, text.Length - 1)
                : text;
            return long.TryParse(number, NumberStyles.None, CultureInfo.InvariantCulture, out var n) ? n * scale : (long?)null;
        }

        /// <summary>Deterministic printable body of the given size.</summary>
        public static byte[] Generate(int sizeBytes)
        {
            if (sizeBytes < 0) throw new ArgumentOutOfRangeException(nameof(sizeBytes));
            const string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 <>/=\".,:{}[]";
            var bytes = new byte[sizeBytes];
            uint state = 2463534242u; // xorshift32 with a fixed seed
            for (var i = 0; i < sizeBytes; i++)
            {
                state ^= state << 13; state ^= state >> 17; state ^= state << 5;
                bytes[i] = (i % 64 == 63) ? (byte)'\n' : (byte)alphabet[(int)(state % (uint)alphabet.Length)];
            }
            return bytes;
        }

        /// <summary>The payload files in a folder (everything but README.md), ordered by size.</summary>
        public static IReadOnlyList<FileInfo> ListFiles(string payloadDirectory) =>
            new DirectoryInfo(payloadDirectory).GetFiles()
                .Where(f => !f.Name.Equals("README.md", StringComparison.OrdinalIgnoreCase))
                .OrderBy(f => f.Length).ThenBy(f => f.Name, StringComparer.Ordinal)
                .ToList();
    }
}
