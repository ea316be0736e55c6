using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Comparator.Targets;

/// <summary>
/// Windows' process group for command targets: one job object for this process, set to kill every process in it when
/// its last handle closes (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE). This process holds the only handle, so its end, however
/// it comes (a crash, taskkill /F), ends every command target and every process they started after joining. A normal stop
/// ends a target's tree with Process.Kill (the tree walk taskkill /T does). Compiled everywhere, run only on Windows.
/// </summary>
internal static partial class WindowsJob
{
    private const int ExtendedLimitInformation = 9; // JobObjectExtendedLimitInformation
    private const uint KillOnJobClose = 0x2000;

    private static readonly Lazy<nint> Job = new(Create);

    /// <summary>Puts a started command target in the job (a no-op elsewhere, or where the job could not be made).</summary>
    public static void Add(Process process)
    {
        if (!OperatingSystem.IsWindows() || Job.Value == 0) return;
        AssignProcessToJobObject(Job.Value, process.Handle);
    }

    private static nint Create()
    {
        var job = CreateJobObjectW(0, null);
        if (job == 0) return 0;
        var limits = new ExtendedLimits { LimitFlags = KillOnJobClose };
        return SetInformationJobObject(job, ExtendedLimitInformation, ref limits, (uint)Marshal.SizeOf<ExtendedLimits>()) ? job : 0;
    }

    /// <summary>JOBOBJECT_EXTENDED_LIMIT_INFORMATION, its basic limits and I/O counters laid out inline.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct ExtendedLimits
    {
        public long PerProcessUserTimeLimit;
        public long PerJobUserTimeLimit;
        public uint LimitFlags;
        public nuint MinimumWorkingSetSize;
        public nuint MaximumWorkingSetSize;
        public uint ActiveProcessLimit;
        public nuint Affinity;
        public uint PriorityClass;
        public uint SchedulingClass;
        public ulong ReadOperationCount, WriteOperationCount, OtherOperationCount, ReadTransferCount, WriteTransferCount, OtherTransferCount;
        public nuint ProcessMemoryLimit;
        public nuint JobMemoryLimit;
        public nuint PeakProcessMemoryUsed;
        public nuint PeakJobMemoryUsed;
    }

    [LibraryImport("kernel32", StringMarshalling = StringMarshalling.Utf16)]
    private static partial nint CreateJobObjectW(nint attributes, string? name);

    [LibraryImport("kernel32")]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool SetInformationJobObject(nint job, int infoClass, ref ExtendedLimits info, uint length);

    [LibraryImport("kernel32")]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool AssignProcessToJobObject(nint job, nint process);
}
