using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Comparator.Measuring;

/// <summary>
/// The machine's busy CPU time on Windows, as /proc/stat gives it on Linux: GetSystemTimes sums every
/// core's idle, kernel and user time in 100 ns units, and its kernel time includes the idle time, so
/// busy = kernel + user - idle.
/// </summary>
[SupportedOSPlatform("windows")]
internal static partial class WindowsSystemTimes
{
    private const double HundredNanosecondsPerSecond = 10_000_000.0;

    public static double? BusySeconds() =>
        GetSystemTimes(out var idle, out var kernel, out var user) ? (kernel + user - idle) / HundredNanosecondsPerSecond : null;

    // Each FILETIME is two 32-bit halves, low first: on little-endian Windows that is one 64-bit count.
    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool GetSystemTimes(out long idleTime, out long kernelTime, out long userTime);
}
